// Two server processes behind a round-robin proxy on 127.0.0.1, sharing only a request-state
// key: a 2026-07-28 client's multi round-trip request hops between them and completes, and a
// forged or tampered requestState is refused by whichever replica receives it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHttpClientTransport } from '../../runtime/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SECRET = 'round-robin-test-secret-0123456789abcdef';

interface Replica {
  readonly child: ChildProcess;
  readonly url: URL;
}

function startReplica(name: string): Promise<Replica> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'fixtures/replica-server.ts')], {
    env: { ...process.env, REPLICA: name, STATE_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line !== undefined) resolve({ child, url: new URL(line) });
    });
    child.once('exit', (code) => reject(new Error(`replica ${name} exited with ${code}`)));
  });
}

/** A minimal round-robin HTTP proxy: each request goes to the next upstream, bodies streamed both ways. */
function startProxy(upstreams: readonly URL[], hits: string[]): Promise<{ server: HttpServer; url: URL }> {
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const index = next++ % upstreams.length;
    const target = upstreams[index]!;
    hits.push(`${index}:${incoming.headers['mcp-method'] ?? incoming.method}`);
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: target.host } },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    resolve({ server, url: new URL(`http://127.0.0.1:${port}/mcp`) });
  }));
}

let replicas: Replica[] = [];
let proxy: { server: HttpServer; url: URL };
const hits: string[] = [];

beforeAll(async () => {
  replicas = await Promise.all([startReplica('a'), startReplica('b')]);
  proxy = await startProxy(replicas.map((replica) => replica.url), hits);
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => proxy?.server.close(resolve));
  for (const replica of replicas) replica.child.kill('SIGTERM');
});

describe('round-robin across replicas', () => {
  it('completes a multi round-trip request whose rounds land on different replicas', async () => {
    const client = new Client({ name: 'rr', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, eraCache: false });
    const answers: Record<string, unknown> = { 'Your name?': { name: 'Ada' }, 'Your color?': { color: 'green' } };
    client.setRequestHandler('elicitation/create', (params) => ({ action: 'accept', content: answers[params.message] as Record<string, string> }));
    await client.connect(new StreamableHttpClientTransport(proxy.url));
    expect(client.era).toBe('stateless');
    hits.length = 0;
    const result = await client.callTool({ name: 'two_steps', arguments: {} });
    const text = (result.content[0] as { text: string }).text;
    // Three rounds (ask name, ask color, complete) alternate between the two replicas.
    expect(hits.filter((hit) => hit.endsWith('tools/call')).map((hit) => hit.split(':')[0])).toHaveLength(3);
    expect(text).toMatch(/^Ada likes green; rounds on (a,b,a|b,a,b)$/);
    await client.close();
  });

  it('refuses a tampered or forged requestState on any replica', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    const post = async (params: Record<string, unknown>) => {
      const response = await fetch(proxy.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'two_steps',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: meta, name: 'two_steps', arguments: {}, ...params } }),
      });
      return (await response.json()) as { result?: { requestState?: string }; error?: { code: number; message: string } };
    };
    const first = await post({});
    const state = first.result!.requestState!;
    const [version, kid, payload, mac] = state.split('.');
    const answer = { inputResponses: { name: { action: 'accept', content: { name: 'Eve' } } } };
    // A payload edited to claim more rounds, with the original MAC; and a state signed with another key.
    const edited = `${version}.${kid}.${Buffer.from(JSON.stringify({ forged: true })).toString('base64url')}.${mac}`;
    for (const requestState of [`${state}x`, edited, `${version}.other.${payload}.${mac}`]) {
      const reply = await post({ ...answer, requestState });
      expect(reply.error?.code, requestState).toBe(-32602);
      expect(reply.error?.message).toContain('requestState');
    }
    const honest = await post({ ...answer, requestState: state });
    expect(honest.result).toMatchObject({ resultType: 'input_required' });
  });
});
