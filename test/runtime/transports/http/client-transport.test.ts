import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpTransportError, ProtocolError, SdkError, StreamableHttpClientTransport, type Client, type HttpClientOptions } from '../../../../runtime/index.js';
import { nodeHttpClient } from '../../../../runtime/node.js';
import { TRANSPORT_LOST_RESPONSE_CODE } from '../../../../runtime/http.js';
import {
  FakeHttpServer,
  openSse,
  result,
  rpcIdOf,
  sendJson,
  sendStatus,
  sleep,
} from './client-fake-server.js';
import { mcpRoutes, newClient, SESSION, TOOLS } from './client-routes.js';

/** The two ways the transport sends: fetch (every runtime) and nodeHttpClient (Node's path). */
const SENDERS = [['fetch', {}], ['nodeHttpClient', { httpClient: nodeHttpClient() }]] as const;
/** The sender of the running block's tests. */
let via: HttpClientOptions = {};

let server: FakeHttpServer | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function connect(routes: Parameters<typeof mcpRoutes>[0] = {}, version = '2025-11-25'): Promise<{ errors: Error[]; transport: StreamableHttpClientTransport }> {
  server = await FakeHttpServer.start(mcpRoutes(routes));
  const errors: Error[] = [];
  client = newClient(version, (error) => errors.push(error));
  const transport = new StreamableHttpClientTransport(server.url(), via);
  await client.connect(transport);
  return { errors, transport };
}

describe.each(SENDERS)('StreamableHttpClientTransport requests, on %s', (_sender, sender) => {
  beforeEach(() => {
    via = sender;
  });

  it('POSTs with the required headers, captures the session and sends it with the negotiated version', async () => {
    const { errors, transport } = await connect({}, '2025-06-18');
    expect(await client!.listTools({})).toEqual(TOOLS);
    expect(transport.sessionId).toBe(SESSION);
    expect(transport.protocolVersion).toBe('2025-06-18');

    const [init, initialized, list] = server!.find('POST');
    for (const request of [init!, initialized!, list!]) {
      expect(request.headers.accept).toContain('application/json');
      expect(request.headers.accept).toContain('text/event-stream');
      expect(request.headers['content-type']).toBe('application/json');
    }
    expect(init!.headers['mcp-session-id']).toBeUndefined();
    expect(init!.headers['mcp-protocol-version']).toBeUndefined();
    for (const request of [initialized!, list!]) {
      expect(request.headers['mcp-session-id']).toBe(SESSION);
      expect(request.headers['mcp-protocol-version']).toBe('2025-06-18');
    }
    // The standalone stream was asked for after initialization; its 405 is not an error.
    const [get] = server!.find('GET');
    expect(get!.headers.accept).toBe('text/event-stream');
    expect(get!.headers['mcp-session-id']).toBe(SESSION);
    expect(errors).toEqual([]);
  });

  it('reads an SSE answer with notifications and a server request before the result', async () => {
    await connect({
      'tools/call': async (request, res) => {
        const id = rpcIdOf(request.body);
        const token = (request.body as { params: { _meta: { progressToken: number } } }).params._meta.progressToken;
        const sse = openSse(res);
        sse.message({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2 } });
        sse.message({ jsonrpc: '2.0', id: 'sample-1', method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } });
        await sleep(50);
        sse.message({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 2, total: 2 } });
        sse.message(result(id, { content: [{ type: 'text', text: 'streamed' }] }));
        sse.end();
      },
    });
    const progress: number[] = [];
    const answer = await client!.callTool({ name: 'echo', arguments: {} }, { onprogress: (update) => progress.push(update.progress) });
    expect(answer.content).toEqual([{ type: 'text', text: 'streamed' }]);
    expect(progress).toEqual([1, 2]);
    // The sampling answer went back as its own POST and got 202.
    const reply = (): unknown => server!.find('POST').find((request) => (request.body as { id?: unknown }).id === 'sample-1')?.body;
    await expect.poll(reply).toMatchObject({ result: { content: { text: 'sampled' } } });
  });

  it('delivers server messages from the standalone GET stream', async () => {
    await connect({
      GET: (_request, res) => {
        const sse = openSse(res);
        sse.message({ jsonrpc: '2.0', id: 'ping-1', method: 'ping' });
      },
    });
    await expect.poll(() => server!.find('POST').some((request) => (request.body as { id?: unknown }).id === 'ping-1')).toBe(true);
  });

  it('sends DELETE with the session id on close, and accepts 405', async () => {
    const { errors } = await connect({ DELETE: (_request, res) => sendStatus(res, 405) });
    await client!.close();
    client = undefined;
    const [deletion] = server!.find('DELETE');
    expect(deletion!.headers['mcp-session-id']).toBe(SESSION);
    expect(errors).toEqual([]);
  });

  it('sends no DELETE without a session', async () => {
    await connect({ initialize: (request, res) => sendJson(res, 200, result(rpcIdOf(request.body), { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } })) });
    await client!.close();
    client = undefined;
    expect(server!.find('DELETE')).toEqual([]);
  });

  it('continues a given session with a given version, and carries batches', async () => {
    server = await FakeHttpServer.start((request, res) => {
      if (request.method !== 'POST') return sendStatus(res, 200);
      const batch = request.body as Array<{ id: number }>;
      sendJson(res, 200, batch.map((item) => result(item.id, { echoed: item.id })));
    });
    const transport = new StreamableHttpClientTransport(server.url(), { ...via, sessionId: 'old-session', protocolVersion: '2025-03-26', openStandaloneStream: false });
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    await transport.send([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }]);
    transport.setProtocolVersion('2025-06-18');
    await transport.send([{ jsonrpc: '2.0', id: 3, method: 'ping' }]);
    expect(received).toEqual([
      [result(1, { echoed: 1 }), result(2, { echoed: 2 })],
      [result(3, { echoed: 3 })],
    ]);
    const [first, second] = server.find('POST');
    expect(first!.headers['mcp-session-id']).toBe('old-session');
    expect(first!.headers['mcp-protocol-version']).toBe('2025-03-26');
    expect(second!.headers['mcp-protocol-version']).toBe('2025-06-18');
    await transport.close();
    expect(server.find('DELETE')[0]!.headers['mcp-session-id']).toBe('old-session');
    expect(server.find('GET')).toEqual([]);
  });

  it('uses a custom fetch, per-request headers and request init', async () => {
    server = await FakeHttpServer.start(mcpRoutes());
    let calls = 0;
    let token = 0;
    const transport = new StreamableHttpClientTransport(server.url(), {
      fetch: (url, init) => {
        calls++;
        return fetch(url, init);
      },
      headers: () => ({ authorization: `Bearer t${++token}`, accept: 'text/plain' }),
      requestInit: { headers: { 'x-base': 'yes' } },
    });
    client = newClient();
    await client.connect(transport);
    const posts = server.find('POST');
    expect(calls).toBeGreaterThanOrEqual(posts.length);
    expect(posts.map((request) => request.headers.authorization)).toEqual(['Bearer t1', 'Bearer t2']);
    expect(posts.every((request) => request.headers['x-base'] === 'yes')).toBe(true);
    // Protocol headers win over user headers of the same name.
    expect(posts[0]!.headers.accept).toBe('application/json, text/event-stream');
  });

  it('sends per-request headers and the request init headers without a custom fetch, protocol headers first', async () => {
    server = await FakeHttpServer.start(mcpRoutes());
    let token = 0;
    client = newClient();
    await client.connect(new StreamableHttpClientTransport(server.url(), {
      ...via,
      headers: () => ({ authorization: `Bearer t${++token}`, accept: 'text/plain' }),
      requestInit: { headers: { 'x-base': 'yes' } },
    }));
    const posts = server.find('POST');
    expect(posts.map((request) => request.headers.authorization)).toEqual(['Bearer t1', 'Bearer t2']);
    expect(posts.every((request) => request.headers['x-base'] === 'yes')).toBe(true);
    expect(posts[0]!.headers.accept).toBe('application/json, text/event-stream');
  });
});

describe.each(SENDERS)('StreamableHttpClientTransport failures, on %s', (_sender, sender) => {
  beforeEach(() => {
    via = sender;
  });

  it('rejects a request answered with an HTTP error, naming the status and body', async () => {
    await connect({ 'tools/call': (_request, res) => { res.writeHead(500, { 'content-type': 'text/plain' }); res.end('database on fire'); } });
    const failure = await client!.callTool({ name: 'echo' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).code).toBe('SEND_FAILED');
    const cause = (failure as SdkError).cause as HttpTransportError;
    expect(cause).toBeInstanceOf(HttpTransportError);
    expect(cause.status).toBe(500);
    expect(cause.message).toContain('database on fire');
  });

  it('quotes the JSON-RPC error of an HTTP error body', async () => {
    await connect({ 'tools/list': (_request, res) => sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Bad Request: nope' } }) });
    const failure = (await client!.listTools({}).catch((error: unknown) => error)) as SdkError;
    const cause = failure.cause as HttpTransportError;
    expect(cause.status).toBe(400);
    expect(cause.rpcError).toEqual({ code: -32600, message: 'Bad Request: nope' });
    expect(failure.message).toContain('Bad Request: nope');
  });

  it('fails connect on 401 with the status', async () => {
    server = await FakeHttpServer.start(mcpRoutes({ initialize: (_request, res) => sendStatus(res, 401, { 'www-authenticate': 'Bearer' }) }));
    client = newClient();
    const failure = await client.connect(new StreamableHttpClientTransport(server.url(), via)).catch((error: unknown) => error);
    expect((failure as SdkError).cause).toMatchObject({ status: 401 });
  });

  it('rejects a request answered with 202 or a foreign content type', async () => {
    await connect({
      'tools/list': (_request, res) => sendStatus(res, 202),
      'tools/call': (_request, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html>'); },
    });
    await expect(client!.listTools({})).rejects.toMatchObject({ code: 'SEND_FAILED', message: expect.stringContaining('instead of JSON or an event stream') });
    await expect(client!.callTool({ name: 'x' })).rejects.toMatchObject({ code: 'SEND_FAILED', message: expect.stringContaining('text/html') });
  });

  it('rejects invalid JSON and a JSON answer without the response', async () => {
    await connect({
      'tools/list': (_request, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"jsonrpc":'); },
      'tools/call': (_request, res) => sendJson(res, 200, { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }),
    });
    await expect(client!.listTools({})).rejects.toMatchObject({ code: 'SEND_FAILED', message: expect.stringContaining('invalid JSON') });
    const failure = await client!.callTool({ name: 'x' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect(failure).toMatchObject({ code: TRANSPORT_LOST_RESPONSE_CODE });
  });

  it('answers a request whose SSE stream ends without a resumable id, dropping a truncated frame', async () => {
    const { errors } = await connect({
      'tools/call': (request, res) => {
        const sse = openSse(res);
        sse.raw(`data: ${JSON.stringify(result(rpcIdOf(request.body), { content: [] }))}`);
        sse.end();
      },
    });
    const started = Date.now();
    const failure = await client!.callTool({ name: 'x' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as ProtocolError).code).toBe(TRANSPORT_LOST_RESPONSE_CODE);
    expect((failure as ProtocolError).message).toContain('no event id');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(errors.some((error) => error instanceof HttpTransportError)).toBe(true);
  });

  it('rejects a network failure and a header timeout', async () => {
    server = await FakeHttpServer.start(mcpRoutes({ initialize: async (request, res) => { await sleep(1_000); sendJson(res, 200, result(rpcIdOf(request.body), {})); } }));
    client = newClient();
    const slow = new StreamableHttpClientTransport(server.url(), { ...via, requestTimeoutMs: 100 });
    await expect(client.connect(slow)).rejects.toMatchObject({ code: 'SEND_FAILED', message: expect.stringContaining('timed out after 100 ms') });
    const closedPort = new StreamableHttpClientTransport('http://127.0.0.1:9/mcp', via);
    const failure = (await newClient().connect(closedPort).catch((error: unknown) => error)) as SdkError;
    expect(failure.cause).toBeInstanceOf(HttpTransportError);
    expect((failure.cause as HttpTransportError).status).toBeUndefined();
  });

  it('refuses to send before start and after close', async () => {
    const transport = new StreamableHttpClientTransport('http://127.0.0.1:9/mcp');
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    await transport.start();
    let closed = 0;
    transport.onclose = () => closed++;
    await transport.close();
    await transport.close();
    expect(closed).toBe(1);
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });
});
