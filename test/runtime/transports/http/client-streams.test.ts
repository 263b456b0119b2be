import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeHttpClient } from '../../../../runtime/node.js';
import { ProtocolError, SdkError, StreamableHttpClientTransport, type Client, type SessionRenewal, type StreamableHttpClientTransportOptions } from '../../../../runtime/index.js';
import { TRANSPORT_LOST_RESPONSE_CODE } from '../../../../runtime/http.js';
import {
  FakeHttpServer,
  initializeResult,
  openSse,
  result,
  rpcIdOf,
  rpcMethodOf,
  sendJson,
  sendStatus,
  type FakeRequest,
} from './client-fake-server.js';
import { mcpRoutes, newClient, TOOLS, type Routes } from './client-routes.js';

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

async function connect(routes: Routes, options: StreamableHttpClientTransportOptions = {}): Promise<{ errors: Error[]; transport: StreamableHttpClientTransport }> {
  server = await FakeHttpServer.start(mcpRoutes(routes));
  const errors: Error[] = [];
  client = newClient('2025-11-25', (error) => errors.push(error));
  const transport = new StreamableHttpClientTransport(server.url(), { ...via, ...options });
  await client.connect(transport);
  return { errors, transport };
}

function progress(token: unknown, value: number): unknown {
  return { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: value, total: 3 } };
}

function tokenOf(request: FakeRequest): unknown {
  return (request.body as { params: { _meta: { progressToken: unknown } } }).params._meta.progressToken;
}

/** The event log of one call stream: ids `c-0` (priming, with retry) to `c-4` (the result). */
function callEvents(request: FakeRequest, retryMs: number): string[] {
  const token = tokenOf(request);
  return [
    `id: c-0\nretry: ${retryMs}\ndata:\n\n`,
    `id: c-1\ndata: ${JSON.stringify(progress(token, 1))}\n\n`,
    `id: c-2\ndata: ${JSON.stringify(progress(token, 2))}\n\n`,
    `id: c-3\ndata: ${JSON.stringify(progress(token, 3))}\n\n`,
    `id: c-4\ndata: ${JSON.stringify(result(rpcIdOf(request.body), { content: [{ type: 'text', text: 'resumed' }] }))}\n\n`,
  ];
}

describe.each(SENDERS)('StreamableHttpClientTransport stream resumption, on %s', (_sender, sender) => {
  beforeEach(() => {
    via = sender;
  });

  it('resumes a dropped POST stream with GET and Last-Event-ID after the server retry, losing and duplicating nothing', async () => {
    let log: string[] = [];
    // Each connection sends the events after the client's Last-Event-ID, then stops as planned.
    const plan: Array<{ count: number; cut: 'end' | 'destroy' }> = [{ count: 2, cut: 'end' }, { count: 2, cut: 'destroy' }, { count: 5, cut: 'end' }];
    const serve = (after: string | undefined, res: Parameters<NonNullable<Routes['GET']>>[1]): void => {
      const step = plan.shift()!;
      const start = after === undefined ? 0 : log.findIndex((frame) => frame.startsWith(`id: ${after}\n`)) + 1;
      const sse = openSse(res);
      for (const frame of log.slice(start, start + step.count)) sse.raw(frame);
      if (step.cut === 'end') sse.end();
      else setTimeout(() => sse.destroy(), 20);
    };
    const { errors } = await connect({
      'tools/call': (request, res) => {
        log = callEvents(request, 80);
        serve(undefined, res);
      },
      GET: (request, res) => {
        const after = request.headers['last-event-id'];
        if (after === undefined) sendStatus(res, 405);
        else serve(String(after), res);
      },
    }, { reconnect: { initialDelayMs: 5_000 } });
    const seen: number[] = [];
    const answer = await client!.callTool({ name: 'echo' }, { onprogress: (update) => seen.push(update.progress) });
    expect(answer.content).toEqual([{ type: 'text', text: 'resumed' }]);
    expect(seen).toEqual([1, 2, 3]);
    const post = server!.find('POST', 'tools/call')[0]!;
    const resumes = server!.find('GET').filter((request) => request.headers['last-event-id'] !== undefined);
    expect(resumes.map((request) => request.headers['last-event-id'])).toEqual(['c-1', 'c-3']);
    expect(resumes.every((request) => request.headers['mcp-session-id'] === 'sess-1')).toBe(true);
    // The server's retry of 80 ms wins over the 5 s initial backoff.
    expect(resumes[0]!.at - post.at).toBeGreaterThanOrEqual(75);
    expect(resumes[1]!.at - resumes[0]!.at).toBeLessThan(2_000);
    expect(errors.filter((error) => /unknown|Unexpected/i.test(error.message))).toEqual([]);
  });

  it('resumes from the last complete event when a frame was cut off', async () => {
    await connect({
      'tools/call': (request, res) => {
        const sse = openSse(res);
        sse.raw('id: p0\nretry: 10\ndata:\n\n');
        sse.raw(`id: p1\ndata: ${JSON.stringify(result(rpcIdOf(request.body), { content: [] })).slice(0, 20)}`);
        sse.end();
      },
      GET: (request, res) => {
        const sse = openSse(res);
        if (request.headers['last-event-id'] === 'p0') {
          const call = server!.find('POST', 'tools/call')[0]!;
          sse.message(result(rpcIdOf(call.body), { content: [{ type: 'text', text: 'whole' }] }), 'p1');
          sse.end();
        }
      },
    });
    const answer = await client!.callTool({ name: 'echo' });
    expect(answer.content).toEqual([{ type: 'text', text: 'whole' }]);
    expect(server!.find('GET').map((request) => request.headers['last-event-id'])).toContain('p0');
  });

  it('reconnects the standalone GET stream with Last-Event-ID, delivering each message once', async () => {
    const plan: Array<{ after: string | undefined; send: number[] }> = [
      { after: undefined, send: [1] },
      { after: 'g-1', send: [2, 3] },
      { after: 'g-3', send: [] },
    ];
    const received: unknown[] = [];
    server = await FakeHttpServer.start(mcpRoutes({
      GET: (request, res) => {
        const step = plan.shift();
        expect(request.headers['last-event-id']).toBe(step?.after);
        const sse = openSse(res);
        sse.raw('retry: 20\n\n');
        for (const n of step?.send ?? []) sse.message({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } }, `g-${n}`);
        if (step !== undefined && step.send.length > 0) sse.end();
      },
    }));
    client = newClient();
    client.setNotificationHandler('notifications/message', (params) => void received.push(params.data));
    await client.connect(new StreamableHttpClientTransport(server.url(), via));
    await expect.poll(() => server!.find('GET').length).toBe(3);
    expect(received).toEqual([1, 2, 3]);
  });

  it('answers a request with an error once reconnection attempts are exhausted', async () => {
    const { errors } = await connect({
      'tools/call': (_request, res) => {
        const sse = openSse(res);
        sse.raw('id: x-0\ndata:\n\n');
        sse.end();
      },
      GET: (request, res) => sendStatus(res, request.headers['last-event-id'] === undefined ? 405 : 503),
    }, { reconnect: { initialDelayMs: 10, factor: 1, maxRetries: 2 } });
    const failure = await client!.callTool({ name: 'echo' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as ProtocolError).code).toBe(TRANSPORT_LOST_RESPONSE_CODE);
    expect((failure as ProtocolError).message).toContain('503');
    expect(server!.find('GET').filter((request) => request.headers['last-event-id'] === 'x-0')).toHaveLength(3);
    expect(errors.length).toBeGreaterThan(0);
  });

  it('says the retries ran out, how many over how long, when every resumption ends without an event', async () => {
    await connect({
      'tools/call': (_request, res) => {
        const sse = openSse(res);
        sse.raw('id: z-0\ndata:\n\n');
        sse.end();
      },
      GET: (request, res) => {
        if (request.headers['last-event-id'] === undefined) return sendStatus(res, 405);
        openSse(res).end();
      },
    }, { reconnect: { initialDelayMs: 10, factor: 1, maxRetries: 2 } });
    const failure = (await client!.callTool({ name: 'echo' }).catch((error: unknown) => error)) as ProtocolError;
    expect(failure.message).toMatch(/its event stream was lost: retries exhausted \(3 reconnections over \d+ ms, reconnect\.maxRetries is 2\); the last one ended without an event/);
    expect(failure.message).not.toContain('disabled');
  });

  it('gives up at once when the resumption answers that the stream is gone', async () => {
    await connect({
      'tools/call': (_request, res) => {
        const sse = openSse(res);
        sse.raw('id: g-0\ndata:\n\n');
        sse.end();
      },
      GET: (request, res) => {
        if (request.headers['last-event-id'] === undefined) return sendStatus(res, 405);
        sendJson(res, 410, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'The replica that ran the requests of this stream stopped before answering them' } });
      },
    }, { reconnect: { initialDelayMs: 10, maxRetries: 5 } });
    const failure = (await client!.callTool({ name: 'echo' }).catch((error: unknown) => error)) as ProtocolError;
    expect(failure.message).toContain('HTTP 410');
    expect(failure.message).toContain('stopped before answering them');
    expect(server!.find('GET').filter((request) => request.headers['last-event-id'] === 'g-0')).toHaveLength(1);
  });

  it('does not resume when the server refuses resumption with 405', async () => {
    await connect({
      'tools/call': (_request, res) => {
        const sse = openSse(res);
        sse.raw('id: y-0\ndata:\n\n');
        sse.end();
      },
    }, { reconnect: { initialDelayMs: 10 } });
    await expect(client!.callTool({ name: 'echo' })).rejects.toMatchObject({ code: TRANSPORT_LOST_RESPONSE_CODE, message: expect.stringContaining('405') });
  });
});

describe.each(SENDERS)('StreamableHttpClientTransport session expiry, on %s', (_sender, sender) => {
  beforeEach(() => {
    via = sender;
  });

  /** A server whose sessions can be expired; `initialize` answers over SSE with sess-N. */
  function expiringServer(extra: Routes = {}): { routes: Routes; expire(): void } {
    let counter = 0;
    const live = new Set<string>();
    const guard = (route: NonNullable<Routes[string]>): NonNullable<Routes[string]> => (request, res) => {
      const session = request.headers['mcp-session-id'];
      if (typeof session !== 'string' || !live.has(session)) {
        sendJson(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
        return;
      }
      return route(request, res);
    };
    const routes: Routes = {
      initialize: (request, res) => {
        const session = `sess-${++counter}`;
        live.add(session);
        const sse = openSse(res, { 'mcp-session-id': session });
        sse.message(initializeResult(request.body));
        sse.end();
      },
      notification: guard((_request, res) => sendStatus(res, 202)),
      GET: guard((_request, res) => sendStatus(res, 405)),
      DELETE: guard((_request, res) => sendStatus(res, 200)),
      'tools/list': guard((request, res) => sendJson(res, 200, result(rpcIdOf(request.body), TOOLS))),
      'tools/call': guard((request, res) => sendJson(res, 200, result(rpcIdOf(request.body), { content: [] }))),
      ...extra,
    };
    return { routes, expire: () => live.clear() };
  }

  it('re-initializes transparently on 404 and replays the failed request', async () => {
    const fake = expiringServer();
    const renewals: SessionRenewal[] = [];
    const { errors, transport } = await connect(fake.routes, { onsessionrenewed: (renewal) => renewals.push(renewal) });
    expect(await client!.listTools({})).toEqual(TOOLS);
    fake.expire();
    const [list, call] = await Promise.all([client!.listTools({}), client!.callTool({ name: 'echo' })]);
    expect(list).toEqual(TOOLS);
    expect(call.content).toEqual([]);
    expect(transport.sessionId).toBe('sess-2');
    expect(renewals).toEqual([{ expiredSessionId: 'sess-1', sessionId: 'sess-2' }]);

    const inits = server!.find('POST', 'initialize');
    expect(inits).toHaveLength(2);
    expect(inits[1]!.headers['mcp-session-id']).toBeUndefined();
    const first = inits[0]!.body as { id: unknown; params: unknown };
    const second = inits[1]!.body as { id: unknown; params: unknown };
    expect(second.params).toEqual(first.params);
    expect(second.id).not.toEqual(first.id);
    const initialized = server!.find('POST', 'notifications/initialized');
    expect(initialized.map((request) => request.headers['mcp-session-id'])).toEqual(['sess-1', 'sess-2']);
    const lists = server!.find('POST', 'tools/list');
    expect(lists.map((request) => request.headers['mcp-session-id'])).toEqual(['sess-1', 'sess-1', 'sess-2']);
    expect(server!.find('GET').at(-1)!.headers['mcp-session-id']).toBe('sess-2');
    // The new handshake's response never reached the engine.
    expect(errors).toEqual([]);
    expect(client!.protocolVersion).toBe('2025-11-25');
  });

  it('replays only once: a second 404 surfaces as an error', async () => {
    const fake = expiringServer({
      'tools/list': (_request, res) => sendJson(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }),
    });
    await connect(fake.routes);
    const failure = (await client!.listTools({}).catch((error: unknown) => error)) as SdkError;
    expect(failure.code).toBe('SEND_FAILED');
    expect(failure.cause).toMatchObject({ status: 404 });
    expect(server!.find('POST', 'initialize')).toHaveLength(2);
    expect(server!.find('POST', 'tools/list')).toHaveLength(2);
  });

  it('surfaces the 404 when re-initialization is disabled', async () => {
    const fake = expiringServer();
    await connect(fake.routes, { reinitializeOnExpiry: false });
    fake.expire();
    await expect(client!.listTools({})).rejects.toMatchObject({ code: 'SEND_FAILED', cause: { status: 404 } });
    expect(server!.find('POST', 'initialize')).toHaveLength(1);
  });

  it('surfaces a failed re-initialization', async () => {
    const fake = expiringServer();
    await connect(fake.routes);
    fake.expire();
    server!.route = mcpRoutes({ ...fake.routes, initialize: (_request, res) => sendStatus(res, 503) });
    const failure = (await client!.listTools({}).catch((error: unknown) => error)) as SdkError;
    expect(failure.code).toBe('SEND_FAILED');
    expect(failure.message).toContain('expired');
    expect(rpcMethodOf(server!.requests.at(-1)!.body)).toBe('initialize');
  });
});
