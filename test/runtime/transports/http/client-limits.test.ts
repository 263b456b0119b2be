// The client transports' bounds on what a server sends: a JSON answer, an SSE line or event,
// an error body. Each case is served by a raw node:http server that streams far more than the
// bound (64 MiB), counting what it wrote before the client cut the connection.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeHttpClient } from '../../../../runtime/node.js';
import { HttpTransportError, ProtocolError, SdkError, StreamableHttpClientTransport, type Client } from '../../../../runtime/index.js';
import { LegacySseClientTransport, TRANSPORT_LOST_RESPONSE_CODE } from '../../../../runtime/http.js';
import type { StreamableHttpClientTransportOptions } from '../../../../runtime/transports/http/client-options.js';
import { FakeHttpServer, flood, initializeResult, openSse, rpcIdOf, rpcMethodOf, sendJson, sendStatus, result } from './client-fake-server.js';
import { mcpRoutes, newClient, TOOLS, type Routes } from './client-routes.js';

const MiB = 1024 * 1024;
/** What the servers below offer: far past every bound under test. */
const OFFERED = 64 * MiB;
/** The bound the tests set. */
const LIMIT = MiB;
/**
 * What may pass the bound before the client notices: loopback socket buffers on both sides
 * and the fetch implementation's own buffer. Still a small fraction of what is offered.
 */
const SLACK = 12 * MiB;

/** The two ways the transport sends: fetch (every runtime) and nodeHttpClient (Node's path). */
const SENDERS = [['fetch', {}], ['nodeHttpClient', { httpClient: nodeHttpClient() }]] as const;
/** The sender of the running block's tests. */
let via: StreamableHttpClientTransportOptions = {};

let server: FakeHttpServer | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function connect(routes: Routes, options: StreamableHttpClientTransportOptions): Promise<{ errors: Error[] }> {
  server = await FakeHttpServer.start(mcpRoutes(routes));
  const errors: Error[] = [];
  client = newClient('2025-11-25', (error) => errors.push(error));
  await client.connect(new StreamableHttpClientTransport(server.url(), { ...via, ...options }));
  return { errors };
}

/** A tools/call result whose text is the flood, split around it. */
function callAnswer(id: string | number): { prefix: string; suffix: string } {
  return { prefix: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`, suffix: '"}]}}' };
}

/** A route for tools/list that answers only once `released` settles, to hold a request in flight. */
function heldList(released: Promise<unknown>): Routes['tools/list'] {
  return async (request, res) => {
    await released;
    sendJson(res, 200, result(rpcIdOf(request.body), TOOLS));
  };
}

describe.each(SENDERS)('Streamable HTTP client: JSON answers, on %s', (_sender, sender) => {
  beforeEach(() => {
    via = sender;
  });

  it('fails a request whose JSON answer passes maxResponseBytes at once, reading no further, and serves the others', async () => {
    let written: Promise<number> | undefined;
    let floodDone!: (bytes: number) => void;
    const done = new Promise<number>((resolve) => {
      floodDone = resolve;
    });
    await connect({
      'tools/call': (request, res) => {
        const { prefix, suffix } = callAnswer(rpcIdOf(request.body));
        res.writeHead(200, { 'content-type': 'application/json' });
        written = flood(res, prefix, suffix, OFFERED);
        void written.then(floodDone);
      },
      'tools/list': heldList(done),
    }, { maxResponseBytes: LIMIT, openStandaloneStream: false });
    const other = client!.listTools({});
    const failure = await client!.callTool({ name: 'echo', arguments: {} }).then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).code).toBe('SEND_FAILED');
    expect((failure as Error).message).toContain(`maxResponseBytes (${LIMIT} bytes)`);
    expect((failure as Error).cause).toBeInstanceOf(HttpTransportError);
    const bytes = await written!;
    expect(bytes).toBeGreaterThan(LIMIT);
    expect(bytes).toBeLessThan(LIMIT + SLACK);
    // The request held in flight meanwhile, and a later one, are answered as usual.
    await expect(other).resolves.toEqual(TOOLS);
    await expect(client!.listTools({})).resolves.toEqual(TOOLS);
  });

  it('refuses a JSON answer whose Content-Length declares more than maxResponseBytes without reading it', async () => {
    let written: Promise<number> | undefined;
    await connect({
      'tools/call': (request, res) => {
        const { prefix, suffix } = callAnswer(rpcIdOf(request.body));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(prefix.length + suffix.length + OFFERED) });
        written = flood(res, prefix, suffix, OFFERED);
      },
    }, { maxResponseBytes: LIMIT, openStandaloneStream: false });
    const failure = await client!.callTool({ name: 'echo', arguments: {} }).then(() => undefined, (error: unknown) => error);
    expect((failure as SdkError).code).toBe('SEND_FAILED');
    expect((failure as Error).message).toContain('Content-Length');
    expect((failure as Error).message).toContain(`maxResponseBytes (${LIMIT} bytes)`);
    expect(await written!).toBeLessThan(SLACK);
    await expect(client!.listTools({})).resolves.toEqual(TOOLS);
  });

  it('reads no more than 64 KiB of an error body', async () => {
    let written: Promise<number> | undefined;
    await connect({
      'tools/call': (_request, res) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        written = flood(res, 'overloaded ', '', OFFERED);
      },
    }, { openStandaloneStream: false });
    const failure = await client!.callTool({ name: 'echo', arguments: {} }).then(() => undefined, (error: unknown) => error);
    expect((failure as SdkError).code).toBe('SEND_FAILED');
    const cause = (failure as Error).cause as HttpTransportError;
    expect(cause.status).toBe(500);
    expect(cause.body?.startsWith('overloaded aaa')).toBe(true);
    expect(await written!).toBeLessThan(SLACK);
    await expect(client!.listTools({})).resolves.toEqual(TOOLS);
  });

  it('keeps answers at the bound', async () => {
    const text = 'b'.repeat(LIMIT - 200);
    await connect({
      'tools/call': (request, res) => sendJson(res, 200, result(rpcIdOf(request.body), { content: [{ type: 'text', text }] })),
    }, { maxResponseBytes: LIMIT, openStandaloneStream: false });
    const answer = await client!.callTool({ name: 'echo', arguments: {} });
    expect(answer.content).toEqual([{ type: 'text', text }]);
  });
});

describe.each(SENDERS)('Streamable HTTP client: event streams, on %s', (_sender, sender) => {
  beforeEach(() => {
    via = sender;
  });

  it('fails the requests of an answer stream whose line passes maxEventBytes at once, without resuming it', async () => {
    let written: Promise<number> | undefined;
    let floodDone!: (bytes: number) => void;
    const done = new Promise<number>((resolve) => {
      floodDone = resolve;
    });
    const { errors } = await connect({
      'tools/call': (request, res) => {
        const { prefix, suffix } = callAnswer(rpcIdOf(request.body));
        const sse = openSse(res);
        sse.raw('id: ev-1\ndata: \n\n');
        written = flood(res, `id: ev-2\ndata: ${prefix}`, `${suffix}\n\n`, OFFERED);
        void written.then(floodDone);
      },
      'tools/list': heldList(done),
    }, { maxEventBytes: LIMIT, openStandaloneStream: false });
    const other = client!.listTools({});
    const failure = await client!.callTool({ name: 'echo', arguments: {} }).then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as ProtocolError).code).toBe(TRANSPORT_LOST_RESPONSE_CODE);
    expect((failure as Error).message).toContain(`maxEventBytes (${LIMIT})`);
    expect(errors.some((error) => error instanceof HttpTransportError && error.message.includes('maxEventBytes'))).toBe(true);
    const bytes = await written!;
    expect(bytes).toBeGreaterThan(LIMIT);
    expect(bytes).toBeLessThan(LIMIT + SLACK);
    // The stream had an event id, yet it is not resumed: the server would send the same event again.
    expect(server!.find('GET')).toEqual([]);
    await expect(other).resolves.toEqual(TOOLS);
    await expect(client!.listTools({})).resolves.toEqual(TOOLS);
  });

  it('gives up the standalone stream when an event of many short lines passes maxEventBytes', async () => {
    let written: Promise<number> | undefined;
    const { errors } = await connect({
      GET: (_request, res) => {
        openSse(res);
        written = flood(res, '', '\n', OFFERED, `data: ${'c'.repeat(1000)}\n`);
      },
    }, { maxEventBytes: LIMIT });
    await expect.poll(() => errors.find((error) => error.message.includes('maxEventBytes')), { timeout: 20_000 }).toBeInstanceOf(HttpTransportError);
    const bytes = await written!;
    expect(bytes).toBeGreaterThan(LIMIT);
    expect(bytes).toBeLessThan(LIMIT + SLACK);
    await expect(client!.listTools({})).resolves.toEqual(TOOLS);
    expect(server!.find('GET')).toHaveLength(1);
  });
});

describe('HTTP+SSE client: the event stream', () => {
  it('closes with a reason naming maxEventBytes when a line passes it, failing what was pending', async () => {
    let written: Promise<number> | undefined;
    let stream: ReturnType<typeof openSse> | undefined;
    let streamRes: Parameters<Parameters<typeof FakeHttpServer.start>[0]>[1] | undefined;
    server = await FakeHttpServer.start((request, res) => {
      if (request.method === 'GET') {
        stream = openSse(res);
        streamRes = res;
        stream.raw('event: endpoint\ndata: /messages\n\n');
        return;
      }
      sendStatus(res, 202);
      const method = rpcMethodOf(request.body);
      if (method === 'initialize') stream!.raw(`event: message\ndata: ${JSON.stringify(initializeResult(request.body, 'legacy'))}\n\n`);
      if (method === 'tools/call') {
        const { prefix, suffix } = callAnswer(rpcIdOf(request.body));
        written = flood(streamRes!, `event: message\ndata: ${prefix}`, `${suffix}\n\n`, OFFERED);
      }
    });
    const transport = new LegacySseClientTransport(server.url('/sse'), { maxEventBytes: LIMIT });
    client = newClient('2024-11-05');
    await client.connect(transport);
    const failure = await client.callTool({ name: 'echo', arguments: {} }).then(() => undefined, (error: unknown) => error);
    expect((failure as SdkError).code).toBe('CONNECTION_CLOSED');
    expect((failure as Error).message).toContain(`maxEventBytes (${LIMIT})`);
    expect(transport.closeReason?.message).toContain('maxEventBytes');
    const bytes = await written!;
    expect(bytes).toBeGreaterThan(LIMIT);
    expect(bytes).toBeLessThan(LIMIT + SLACK);
  });
});
