// nodeHttpClient against real loopback servers: connection reuse, bodies, redirects by fetch's
// rules, aborts, and the transports' bounds when it carries them.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, SdkError, StreamableHttpClientTransport } from '../../../../runtime/index.js';
import { nodeHttpClient, type NodeHttpClient } from '../../../../runtime/node.js';
import type { ClientResponse } from '../../../../runtime/http.js';
import { RequestAbort } from '../../../../runtime/transports/http/client-request.js';

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

const servers: Server[] = [];
const clients: NodeHttpClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  })));
});

/** A loopback server answering with `route`; records requests and counts connections. */
async function serve(route: (seen: Seen, res: ServerResponse) => void): Promise<{ url: (path: string, host?: string) => URL; seen: Seen[]; connections: () => number }> {
  const seen: Seen[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(request);
      route(request, res);
    });
  });
  server.on('connection', () => connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: (path, host = '127.0.0.1') => new URL(`http://${host}:${port}${path}`), seen, connections: () => connections };
}

function client(): NodeHttpClient {
  const made = nodeHttpClient();
  clients.push(made);
  return made;
}

async function text(response: ClientResponse): Promise<string> {
  const reader = response.body!.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const signal = (): AbortSignal => new AbortController().signal;

describe('nodeHttpClient', () => {
  it('sends method, headers and body with a Content-Length, and reuses one connection for sequential requests', async () => {
    const server = await serve((_seen, res) => res.writeHead(200, { 'content-type': 'application/json', 'x-twice': ['a', 'b'] }).end('{"ok":true}'));
    const http = client();
    for (let round = 0; round < 5; round++) {
      const response = await http.request({ method: 'POST', url: server.url('/mcp'), headers: { 'content-type': 'application/json', 'mcp-session-id': 's1' }, body: '{"é":1}', signal: signal() });
      expect([response.ok, response.status, response.statusText]).toEqual([true, 200, 'OK']);
      expect(response.headers.get('Content-Type')).toBe('application/json');
      expect(response.headers.get('x-twice')).toBe('a, b');
      expect(response.headers.get('absent')).toBeNull();
      expect(await text(response)).toBe('{"ok":true}');
    }
    expect(server.seen[0]).toMatchObject({ method: 'POST', path: '/mcp', body: '{"é":1}' });
    expect(server.seen[0]!.headers).toMatchObject({ 'content-type': 'application/json', 'mcp-session-id': 's1', 'content-length': '8' });
    expect(server.connections()).toBe(1);
  });

  it('sends each request to its own URL when one client alternates between URLs: path, query, credentials and origin', async () => {
    const first = await serve((_seen, res) => res.writeHead(200).end('first'));
    const second = await serve((_seen, res) => res.writeHead(200).end('second'));
    const http = client();
    const withCredentials = second.url('/b?x=1');
    withCredentials.username = 'user';
    withCredentials.password = 'p@ss';
    const targets = [first.url('/a'), withCredentials, first.url('/a?y=%20'), first.url('/a'), second.url('/c')];
    const answers: string[] = [];
    for (const url of targets) answers.push(await text(await http.request({ method: 'POST', url, headers: {}, body: '{}', signal: signal() })));
    expect(answers).toEqual(['first', 'second', 'first', 'first', 'second']);
    expect(first.seen.map((seen) => seen.path)).toEqual(['/a', '/a?y=%20', '/a']);
    expect(second.seen.map((seen) => seen.path)).toEqual(['/b?x=1', '/c']);
    expect(second.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
    expect(second.seen[1]!.headers.authorization).toBeUndefined();
  });

  it('sends a GET again after a reused connection drops it, but never a POST, which the server may have run', async () => {
    let dropped = 0;
    const server = await serve((seen, res) => {
      if (seen.path === '/drop' && dropped++ % 2 === 0) res.socket!.destroy();
      else res.writeHead(200).end(`${seen.method} ${seen.path}`);
    });
    const http = client();
    expect(await text(await http.request({ method: 'POST', url: server.url('/warm'), headers: {}, body: '{}', signal: signal() }))).toBe('POST /warm');
    expect(await text(await http.request({ method: 'GET', url: server.url('/drop'), headers: {}, signal: signal() }))).toBe('GET /drop');
    await expect(http.request({ method: 'POST', url: server.url('/drop'), headers: {}, body: '{}', signal: signal() })).rejects.toThrow();
    expect(server.seen.map((seen) => `${seen.method} ${seen.path}`)).toEqual(['POST /warm', 'GET /drop', 'GET /drop', 'POST /drop']);
  });

  it('gives 204 no body and keeps the connection after a small body is cancelled', async () => {
    const server = await serve((seen, res) => (seen.path === '/empty' ? res.writeHead(204).end() : res.writeHead(202, { 'content-type': 'text/plain' }).end('accepted')));
    const http = client();
    expect((await http.request({ method: 'DELETE', url: server.url('/empty'), headers: {}, signal: signal() })).body).toBeNull();
    const accepted = await http.request({ method: 'POST', url: server.url('/x'), headers: {}, body: '{}', signal: signal() });
    await accepted.body!.cancel();
    expect(await text(await http.request({ method: 'GET', url: server.url('/x'), headers: {}, signal: signal() }))).toBe('accepted');
    expect(server.connections()).toBe(1);
  });

  it('follows 307 with method and body, turns a POST answered 303 into a GET without body headers, and drops credentials across origins', async () => {
    const server = await serve((seen, res) => {
      if (seen.path === '/a') res.writeHead(307, { location: '/b' }).end();
      else if (seen.path === '/b') res.writeHead(303, { location: server.url('/c', 'localhost').href }).end();
      else res.writeHead(200).end(`${seen.method} ${seen.body}`);
    });
    const response = await client().request({ method: 'POST', url: server.url('/a'), headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: '{"x":1}', signal: signal() });
    expect(await text(response)).toBe('GET ');
    expect(server.seen.map((seen) => `${seen.method} ${seen.path} ${seen.body}`)).toEqual(['POST /a {"x":1}', 'POST /b {"x":1}', 'GET /c ']);
    expect(server.seen[1]!.headers.authorization).toBe('Bearer t');
    expect(server.seen[2]!.headers.authorization).toBeUndefined();
    expect(server.seen[2]!.headers['content-type']).toBeUndefined();
  });

  it("answers a redirect as it is with redirect 'manual', rejects it with 'error', and stops after maxRedirects", async () => {
    const server = await serve((_seen, res) => res.writeHead(302, { location: '/loop' }).end());
    const http = client();
    const manual = await http.request({ method: 'GET', url: server.url('/loop'), headers: {}, signal: signal(), redirect: 'manual' });
    expect([manual.status, manual.headers.get('location')]).toEqual([302, '/loop']);
    await expect(http.request({ method: 'GET', url: server.url('/loop'), headers: {}, signal: signal(), redirect: 'error' })).rejects.toThrow(/redirected \(HTTP 302\)/);
    server.seen.length = 0;
    await expect(nodeHttpClient({ maxRedirects: 3 }).request({ method: 'GET', url: server.url('/loop'), headers: {}, signal: signal() })).rejects.toThrow(/too many redirects/);
    expect(server.seen).toHaveLength(4);
  });

  it.each(['an AbortSignal (request)', 'an AbortHook (dispatch)'])('rejects with the abort reason before the headers, and fails the body read with it after them, through %s', async (way) => {
    let release: (() => void) | undefined;
    const server = await serve((seen, res) => {
      if (seen.path === '/slow') {
        release = () => res.writeHead(200).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
    });
    const http = client();
    const get = (path: string, abort: RequestAbort): Promise<ClientResponse> => way.includes('dispatch')
      ? http.dispatch!({ method: 'GET', url: server.url(path), headers: {} }, abort)
      : http.request({ method: 'GET', url: server.url(path), headers: {}, signal: abort.signal });
    const early = new RequestAbort();
    const pending = get('/slow', early);
    await new Promise<void>((resolve) => {
      const check = (): void => (release === undefined ? void setImmediate(check) : resolve());
      check();
    });
    early.abort(new SdkError('REQUEST_CANCELLED', 'stop'));
    await expect(pending).rejects.toThrow('stop');
    const late = new RequestAbort();
    const streaming = await get('/stream', late);
    const reader = streaming.body!.getReader();
    expect(Buffer.from((await reader.read()).value!).toString()).toBe('data: 1\n\n');
    const next = reader.read();
    late.abort(new Error('closed by the test'));
    await expect(next).rejects.toThrow('closed by the test');
    const before = new RequestAbort();
    before.abort(new Error('already'));
    await expect(get('/stream', before)).rejects.toThrow('already');
  });

  it('refuses URLs that are not http: or https:, and bad options', async () => {
    await expect(client().request({ method: 'GET', url: new URL('ftp://127.0.0.1/x'), headers: {}, signal: signal() })).rejects.toThrow(/http: and https: URLs only/);
    expect(() => nodeHttpClient({ maxSockets: 0 })).toThrow(/maxSockets/);
    expect(() => nodeHttpClient({ maxRedirects: -1 })).toThrow(/maxRedirects/);
  });
});

describe('StreamableHttpClientTransport on nodeHttpClient', () => {
  it('keeps maxResponseBytes: a JSON answer past it fails its request at once', async () => {
    const server = await serve((seen, res) => {
      if (seen.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      const request = JSON.parse(seen.body) as { id?: number; method: string };
      if (request.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'big' }).end(JSON.stringify({
          jsonrpc: '2.0', id: request.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'big', version: '1' } },
        }));
      } else if (request.id === undefined) {
        res.writeHead(202).end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'x'.repeat(5_000) }] } }));
      }
    });
    const mcp = new Client({ name: 'limits', version: '1.0.0' }, { protocolVersion: '2025-11-25' });
    await mcp.connect(new StreamableHttpClientTransport(server.url('/mcp'), { httpClient: client(), maxResponseBytes: 1_000, openStandaloneStream: false }));
    await expect(mcp.callTool({ name: 'any' })).rejects.toThrow(/larger than maxResponseBytes \(1000 bytes\)/);
    await mcp.close();
  });
});
