import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectWithFallback, HttpTransportError, SdkError, type Client, type HttpClientOptions } from '../../../../runtime/index.js';
import { LegacySseClientTransport } from '../../../../runtime/http.js';
import { nodeHttpClient } from '../../../../runtime/node.js';
import {
  FakeHttpServer,
  initializeResult,
  openSse,
  result,
  rpcIdOf,
  rpcMethodOf,
  sendStatus,
  type FakeRequest,
  type SseWriter,
} from './client-fake-server.js';
import { mcpRoutes, newClient, TOOLS } from './client-routes.js';

/** The two ways the transports send: fetch (every runtime) and nodeHttpClient (Node's path). */
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

interface LegacyOptions {
  /** The data of the endpoint event; null sends none. */
  readonly endpoint?: string | null;
  /** Where the event stream is served. */
  readonly ssePath?: string;
  /** What a POST of tools/call gets, instead of an answer on the stream. */
  readonly onCall?: (stream: SseWriter, request: FakeRequest) => void;
  /** Answers the Streamable HTTP probe (a POST on the SSE path); default 405. */
  readonly probe?: (request: FakeRequest, res: ServerResponse) => void;
}

/**
 * A 2024-11-05 HTTP+SSE server: GET on the SSE path opens the stream and announces the
 * endpoint; POSTs there get 202 and their answers travel on the stream.
 */
function legacyRoute(options: LegacyOptions = {}): (request: FakeRequest, res: ServerResponse) => void {
  const ssePath = options.ssePath ?? '/mcp';
  const endpoint = options.endpoint === undefined ? 'messages?session=abc' : options.endpoint;
  let stream: SseWriter | undefined;
  return (request, res) => {
    if (request.method === 'GET' && request.path === ssePath) {
      stream = openSse(res);
      if (endpoint !== null) stream.raw(`event: endpoint\ndata: ${endpoint}\n\n`);
      return;
    }
    if (request.method === 'POST' && request.path === ssePath) {
      (options.probe ?? ((_request, reply) => sendStatus(reply, 405)))(request, res);
      return;
    }
    if (request.method !== 'POST' || stream === undefined) {
      sendStatus(res, 404);
      return;
    }
    sendStatus(res, 202);
    const method = rpcMethodOf(request.body);
    const id = (request.body as { id?: unknown }).id;
    if (method === 'initialize') stream.raw(`event: message\ndata: ${JSON.stringify(initializeResult(request.body, 'legacy'))}\n\n`);
    else if (method === 'tools/list') stream.raw(`event: message\ndata: ${JSON.stringify(result(rpcIdOf(request.body), TOOLS))}\n\n`);
    else if (method === 'tools/call' && id !== undefined) options.onCall?.(stream, request);
  };
}

describe.each(SENDERS)('LegacySseClientTransport, on %s', (_sender, sender) => {
  beforeEach(() => {
    via = sender;
  });

  it.each(['2024-11-05', '2025-11-25'])('carries a %s session: endpoint resolved against the stream URL', async (version) => {
    server = await FakeHttpServer.start(legacyRoute({ ssePath: '/mcp/sse' }));
    let token = 0;
    const transport = new LegacySseClientTransport(server.url('/mcp/sse'), { ...via, headers: () => ({ authorization: `Bearer ${++token}` }) });
    client = newClient(version);
    await client.connect(transport);
    expect(client.protocolVersion).toBe(version);
    expect(client.serverInfo?.name).toBe('legacy');
    expect(await client.listTools({})).toEqual(TOOLS);
    expect(transport.endpoint?.href).toBe(server.url('/mcp/messages?session=abc').href);
    const [get] = server.find('GET');
    expect(get!.headers.accept).toBe('text/event-stream');
    const posts = server.find('POST');
    expect(posts.map((request) => request.path)).toEqual(['/mcp/messages?session=abc', '/mcp/messages?session=abc', '/mcp/messages?session=abc']);
    expect(posts.every((request) => request.headers['content-type'] === 'application/json')).toBe(true);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer 1', 'Bearer 2', 'Bearer 3', 'Bearer 4']);
  });

  it('refuses an endpoint on another origin', async () => {
    server = await FakeHttpServer.start(legacyRoute({ endpoint: 'http://127.0.0.2:1/steal' }));
    const transport = new LegacySseClientTransport(server.url(), via);
    await expect(transport.start()).rejects.toThrow(/origin differs/);
    expect(server.find('POST')).toEqual([]);
  });

  it('gives up waiting for the endpoint event', async () => {
    server = await FakeHttpServer.start(legacyRoute({ endpoint: null }));
    const transport = new LegacySseClientTransport(server.url(), { ...via, endpointTimeoutMs: 100 });
    await expect(transport.start()).rejects.toThrow(/No endpoint event arrived/);
  });

  it('rejects start with the status of a failed GET', async () => {
    server = await FakeHttpServer.start((_request, res) => sendStatus(res, 404));
    const failure = await new LegacySseClientTransport(server.url(), via).start().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpTransportError);
    expect((failure as HttpTransportError).status).toBe(404);
  });

  it('closes with a reason when the server ends the stream, failing pending requests', async () => {
    server = await FakeHttpServer.start(legacyRoute({ onCall: (stream) => setTimeout(() => stream.end(), 30) }));
    const transport = new LegacySseClientTransport(server.url(), via);
    client = newClient();
    let closed = 0;
    client.onclose = () => closed++;
    await client.connect(transport);
    const failure = (await client.callTool({ name: 'echo' }).catch((error: unknown) => error)) as SdkError;
    expect(failure.code).toBe('CONNECTION_CLOSED');
    expect(failure.message).toContain('closed');
    expect(transport.closeReason).toBeInstanceOf(SdkError);
    expect(closed).toBe(1);
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  it('rejects a send whose POST fails', async () => {
    const route = legacyRoute();
    server = await FakeHttpServer.start(route);
    client = newClient();
    await client.connect(new LegacySseClientTransport(server.url(), via));
    server.route = (request, res) => (request.method === 'POST' ? sendStatus(res, 500) : route(request, res));
    await expect(client.listTools({})).rejects.toMatchObject({ code: 'SEND_FAILED', cause: { status: 500 } });
  });
});

describe.each(SENDERS)('connectWithFallback, on %s', (_sender, sender) => {
  beforeEach(() => {
    via = sender;
  });

  it('falls back to HTTP+SSE when the initialize POST gets 405, without closing the client', async () => {
    server = await FakeHttpServer.start(legacyRoute());
    client = newClient('2024-11-05');
    let closed = 0;
    client.onclose = () => closed++;
    const transport = await connectWithFallback(client, server.url(), via);
    expect(transport.kind).toBe('sse');
    expect(await client.listTools({})).toEqual(TOOLS);
    expect(closed).toBe(0);
    expect(server.requests.map((request) => `${request.method} ${request.path}`).slice(0, 3)).toEqual([
      'POST /mcp',
      'GET /mcp',
      'POST /messages?session=abc',
    ]);
  });

  it.each([400, 404])('falls back on %i too', async (status) => {
    server = await FakeHttpServer.start(legacyRoute({ probe: (_request, res) => sendStatus(res, status) }));
    client = newClient();
    expect((await connectWithFallback(client, server.url(), via)).kind).toBe('sse');
  });

  it('stays on Streamable HTTP when the server speaks it', async () => {
    server = await FakeHttpServer.start(mcpRoutes());
    client = newClient();
    const transport = await connectWithFallback(client, server.url(), via);
    expect(transport.kind).toBe('streamable-http');
    expect(transport.sessionId).toBe('sess-1');
    expect(await client.listTools({})).toEqual(TOOLS);
  });

  it.each([401, 403])('does not fall back on %i', async (status) => {
    server = await FakeHttpServer.start(legacyRoute({ probe: (_request, res) => sendStatus(res, status) }));
    client = newClient();
    const failure = (await connectWithFallback(client, server.url(), via).catch((error: unknown) => error)) as SdkError;
    expect(failure.cause).toMatchObject({ status });
    expect(server.find('GET')).toEqual([]);
  });

  it('reports both failures when neither transport works', async () => {
    server = await FakeHttpServer.start((_request, res) => sendStatus(res, 404));
    client = newClient();
    const failure = (await connectWithFallback(client, server.url(), via).catch((error: unknown) => error)) as SdkError;
    expect(failure.message).toMatch(/neither a Streamable HTTP endpoint nor an HTTP\+SSE one/);
  });
});
