// The Node adapter over real sockets on 127.0.0.1: attacks and bad input get the right status,
// disconnects release everything, and nothing a client sends crashes the process.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../../runtime/http.js';
import { createMcpNodeServer, toNodeHandler, type McpNodeServer, type McpNodeServerOptions } from '../../../../runtime/node.js';
import { createMcpHttpHandler } from '../../../../runtime/index.js';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { callTool, createHttpTestServer, eventually, initializeRequest, messageOf, POST_HEADERS, SseReader } from '../http/server-support.js';

let node: McpNodeServer | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

async function start(options: Partial<McpNodeServerOptions> = {}): Promise<URL> {
  node = createMcpNodeServer({ server: createHttpTestServer, path: '/mcp', ...options });
  return node.listen();
}

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw request with full control over headers (Host included) and body chunks. */
function raw(url: URL, method: string, headers: Record<string, string>, chunks: Array<string | Buffer> = []): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // The server may cut an oversized upload short once it answered.
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') return;
      reject(error);
    });
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

async function openSession(url: URL, version = '2025-11-25'): Promise<Record<string, string>> {
  const init = await fetch(url, { method: 'POST', headers: POST_HEADERS, body: JSON.stringify(initializeRequest(version)) });
  await init.text();
  const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': version };
  await fetch(url, { method: 'POST', headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  return headers;
}

describe('Node adapter: attacks and bad input', () => {
  it('refuses a rebound Host and a foreign Origin with 403 on a loopback bind', async () => {
    const url = await start();
    const body = JSON.stringify(initializeRequest('2025-11-25'));
    const rebound = await raw(url, 'POST', { ...POST_HEADERS, host: `attacker.example:${url.port}` }, [body]);
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({ id: null, error: { code: -32000 } });
    const foreign = await raw(url, 'POST', { ...POST_HEADERS, origin: 'https://evil.example' }, [body]);
    expect(foreign.status).toBe(403);
    const local = await raw(url, 'POST', { ...POST_HEADERS, origin: `http://localhost:${url.port}` }, [body]);
    expect(local.status).toBe(200);
    expect(node!.mcp.sessions.size).toBe(1);
  });

  it('refuses a Host with userinfo or a trailing path, which a loose port split would admit', async () => {
    const url = await start();
    const body = JSON.stringify(initializeRequest('2025-11-25'));
    for (const host of [`localhost:1@evil.com`, `localhost:${url.port}@evil.com`, `127.0.0.1:${url.port}/x`, `[::1]:${url.port}x`]) {
      expect((await raw(url, 'POST', { ...POST_HEADERS, host }, [body])).status, host).toBe(403);
    }
    expect((await raw(url, 'POST', { ...POST_HEADERS, host: `[::1]:${url.port}` }, [body])).status).toBe(200);
    expect(node!.mcp.sessions.size).toBe(1);
  });

  it('refuses a 2025-03-26 batch longer than maxBatchLength as a whole, before any member runs', async () => {
    const url = await start();
    const headers = { ...POST_HEADERS, ...(await openSession(url, '2025-03-26')) };
    const batch = (length: number) => JSON.stringify(Array.from({ length }, (_, index) => ({ jsonrpc: '2.0', id: index + 1, method: 'ping' })));
    const refused = await raw(url, 'POST', headers, [batch(35_000)]);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('limit is 100') } });
    expect(node!.mcp.stats().pendingRequests).toBe(0);
    expect((await raw(url, 'POST', headers, [batch(101)])).status).toBe(400);
    const accepted = await raw(url, 'POST', headers, [batch(100)]);
    expect(accepted.status).toBe(200);
    expect(JSON.parse(accepted.body)).toHaveLength(100);
    await node!.close();
    const small = await start({ maxBatchLength: 2 });
    const smallHeaders = { ...POST_HEADERS, ...(await openSession(small, '2025-03-26')) };
    expect((await raw(small, 'POST', smallHeaders, [batch(3)])).status).toBe(400);
    expect((await raw(small, 'POST', smallHeaders, [batch(2)])).status).toBe(200);
  });

  it('refuses oversized bodies with 413, declared or chunked, and closes the connection', async () => {
    const url = await start({ maxBodyBytes: 1000 });
    const declared = await raw(url, 'POST', { ...POST_HEADERS, 'content-length': '5000000' }, ['{"x":1}']);
    expect(declared.status).toBe(413);
    expect(declared.headers.connection).toBe('close');
    const chunked = await raw(url, 'POST', { ...POST_HEADERS, 'transfer-encoding': 'chunked' }, Array.from({ length: 20 }, () => 'x'.repeat(200)));
    expect(chunked.status).toBe(413);
    expect(node!.mcp.stats()).toEqual({ sessions: 0, connections: 0, timers: 0, pendingRequests: 0 });
  });

  it('answers wrong content types, garbage and unknown methods without crashing', async () => {
    const url = await start();
    expect((await raw(url, 'POST', { ...POST_HEADERS, 'content-type': 'text/plain' }, ['{}'])).status).toBe(415);
    expect((await raw(url, 'POST', POST_HEADERS, [Buffer.from([0xff, 0xfe, 0x00, 0x7b])])).status).toBe(400);
    expect((await raw(url, 'POST', POST_HEADERS, ['null'])).status).toBe(400);
    expect((await raw(url, 'PATCH', POST_HEADERS, ['{}'])).status).toBe(405);
    expect((await raw(url, 'GET', { accept: 'text/event-stream', 'mcp-session-id': 'x'.repeat(200) })).status).toBe(404);
    expect((await raw(new URL('/elsewhere', url), 'GET', { accept: 'text/event-stream' })).status).toBe(404);
    const headers = await openSession(url);
    expect((await raw(url, 'POST', { ...POST_HEADERS, ...headers }, ['{"jsonrpc":"2.0","id":{},"method":"x"}'])).status).toBe(400);
    const stillFine = await fetch(url, { method: 'POST', headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify(callTool(1, 'echo', { text: 'ok' })) });
    expect(await stillFine.json()).toMatchObject({ result: { content: [{ text: 'echo: ok' }] } });
  });
});

/** A request whose target is sent exactly as given, without URL normalisation on the client side. */
function rawTarget(url: URL, target: string, headers: Record<string, string>, body: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: target, method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('Node adapter: request targets and JSON answers', () => {
  it('frames a JSON answer with Content-Length instead of chunks, and a 202 with an empty body', async () => {
    const url = await start();
    const init = await raw(url, 'POST', POST_HEADERS, [JSON.stringify(initializeRequest('2025-11-25'))]);
    expect(init.status).toBe(200);
    expect(init.headers['transfer-encoding']).toBeUndefined();
    expect(Number(init.headers['content-length'])).toBe(Buffer.byteLength(init.body));
    expect(JSON.parse(init.body)).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
    const session = { 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
    const accepted = await raw(url, 'POST', { ...POST_HEADERS, ...session }, [JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })]);
    expect(accepted.status).toBe(202);
    expect(accepted.headers['content-length']).toBe('0');
    expect(accepted.body).toBe('');
  });

  it('routes targets as URL parsing reads them: dot segments and escapes resolved, a query ignored, `//` not the endpoint', async () => {
    const url = await start();
    const body = JSON.stringify(initializeRequest('2025-11-25'));
    for (const target of ['/mcp?probe=1', '/x/../mcp', '/./mcp', '/x/%2e%2e/mcp']) {
      const answer = await rawTarget(url, target, POST_HEADERS, body);
      expect(answer.status, target).toBe(200);
    }
    for (const target of ['//mcp', '/mcp/..', '/mcp.', '/%6Dcp']) {
      const answer = await rawTarget(url, target, POST_HEADERS, body);
      expect(answer.status, target).toBe(404);
    }
  });
});

describe('Node adapter: streams and disconnects', () => {
  it('writes keep-alive comments on idle streams', async () => {
    const url = await start({ keepAliveMs: 40 });
    const headers = await openSession(url);
    const stream = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' } });
    const reader = new SseReader(stream.body);
    const events = await reader.until((event) => event.comment === 'keep-alive');
    expect(events.length).toBeGreaterThanOrEqual(1);
    await reader.cancel();
    await eventually(() => node!.mcp.stats().connections === 0);
    expect(node!.mcp.stats().timers).toBe(0);
  });

  it('releases a stream whose client disconnects mid-call, keeping the events for resumption', async () => {
    const store = new InMemoryEventStore();
    const url = await start({ eventStore: store });
    const headers = await openSession(url);
    const controller = new AbortController();
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...POST_HEADERS, ...headers },
      body: JSON.stringify(callTool(1, 'whoami', { tag: 'cut', steps: 4, stepMs: 25 }, 't')),
      signal: controller.signal,
    });
    const reader = new SseReader(response.body);
    const priming = await reader.next();
    controller.abort();
    await eventually(() => node!.mcp.stats().connections === 0);
    expect(node!.mcp.stats().timers).toBe(0);
    await eventually(() => node!.mcp.stats().pendingRequests === 0);
    const resumed = await fetch(url, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': priming!.id! } });
    const replayed = (await new SseReader(resumed.body).rest()).map(messageOf);
    expect(replayed).toHaveLength(5);
    expect(replayed[4]).toMatchObject({ id: 1, result: { content: [{ text: expect.stringMatching(/^cut@/) }] } });
  });

  it('releases a POST whose client leaves before any reply was written', async () => {
    const url = await start();
    const headers = await openSession(url);
    const controller = new AbortController();
    const pending = fetch(url, { method: 'POST', headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify(callTool(7, 'hang')), signal: controller.signal });
    await eventually(() => node!.mcp.stats().pendingRequests === 1);
    expect(node!.mcp.stats().timers).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await eventually(() => node!.mcp.stats().timers === 0);
    await fetch(url, { method: 'POST', headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } }) });
    await eventually(() => node!.mcp.stats().pendingRequests === 0);
    expect(node!.mcp.stats()).toMatchObject({ sessions: 1, connections: 0, timers: 0 });
  });

  it('ends open streams when the server closes', async () => {
    const url = await start();
    const headers = await openSession(url);
    const stream = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' } });
    const reader = new SseReader(stream.body);
    await eventually(() => node!.mcp.stats().connections === 1);
    await node!.close();
    await expect(reader.rest()).resolves.toBeDefined();
    expect(node!.mcp.stats()).toEqual({ sessions: 0, connections: 0, timers: 0, pendingRequests: 0 });
    node = undefined;
  });

  it('uses a body a framework already parsed', async () => {
    const mcp = createMcpHttpHandler({ server: createHttpTestServer });
    const listener = toNodeHandler(mcp);
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        (req as { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        listener(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const response = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: POST_HEADERS, body: JSON.stringify(initializeRequest('2025-06-18')) });
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeTruthy();
      expect(listener.mcp).toBe(mcp);
    } finally {
      await mcp.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('Node adapter: slow clients', () => {
  /** Opens a raw connection, writes `prefix` and never finishes; resolves when the server cuts it. */
  function stall(url: URL, prefix: string): Promise<string> {
    return new Promise((resolve) => {
      const socket = connect(Number(url.port), '127.0.0.1', () => socket.write(prefix));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(answer));
    });
  }

  it('cuts off connections whose headers or body never finish, and idle keep-alive ones', async () => {
    const url = await start({ headersTimeoutMs: 150, requestTimeoutMs: 300, keepAliveTimeoutMs: 100 });
    const slowHeaders = Array.from({ length: 50 }, () => stall(url, `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${url.port}\r\ncontent-type: application/json\r\n`));
    const head = `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${url.port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: 1000\r\n\r\n{"jsonrpc":`;
    const slowBodies = Array.from({ length: 50 }, () => stall(url, head));
    const idle = stall(url, `GET /nothing HTTP/1.1\r\nhost: 127.0.0.1:${url.port}\r\n\r\n`);
    const answers = await Promise.all([...slowHeaders, ...slowBodies]);
    expect(answers.filter((answer) => answer.startsWith('HTTP/1.1 408')).length).toBe(100);
    expect(await idle).toMatch(/^HTTP\/1\.1 404/);
    expect(node!.mcp.stats().pendingRequests).toBe(0);
  });
});

describe('Node adapter: requests in flight', () => {
  /** Sends headers and the start of a body that never ends; resolves with the first answer, if any. */
  function slowBody(url: URL, extra: Record<string, string>, declared: number) {
    const socket = connect(Number(url.port), '127.0.0.1');
    const headers = Object.entries({ ...POST_HEADERS, host: `127.0.0.1:${url.port}`, 'content-length': String(declared), ...extra })
      .map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.write(`POST /mcp HTTP/1.1\r\n${headers}\r\n{"jsonrpc":"2.0",`);
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('\r\n\r\n')) resolve(text);
      });
      socket.on('close', () => resolve(text));
    });
    return { socket, answer, status: answer.then((text) => Number(text.slice(9, 12))) };
  }

  /** The statuses of the first `count` requests answered (the admitted ones wait for their body). */
  function firstAnswers(requests: ReturnType<typeof slowBody>[], count: number): Promise<number[]> {
    return new Promise((resolve) => {
      const statuses: number[] = [];
      for (const request of requests) {
        void request.status.then((status) => {
          statuses.push(status);
          if (statuses.length === count) resolve(statuses);
        });
      }
    });
  }

  it('refuses bodies beyond maxBytesInFlight with 503 and Retry-After, and admits again once they are gone', async () => {
    const url = await start({ maxBodyBytes: 4_000, maxBytesInFlight: 10_000 });
    const requests = Array.from({ length: 23 }, () => slowBody(url, {}, 3_000));
    expect(await firstAnswers(requests, 20)).toEqual(Array.from({ length: 20 }, () => 503));
    const refused = await Promise.race(requests.map((request) => request.answer));
    expect(refused).toMatch(/retry-after: \d+/i);
    for (const request of requests) request.socket.destroy();
    await Promise.all(requests.map((request) => request.answer));
    const after = await raw(url, 'POST', POST_HEADERS, [JSON.stringify(initializeRequest('2025-11-25'))]);
    expect(after.status).toBe(200);
  });

  it('holds the same bound behind a guard that spreads the request it passes on', async () => {
    const url = await start({ maxBodyBytes: 4_000, maxBytesInFlight: 10_000, guard: async (request) => ({ request: { ...request, authInfo: { token: 't' } } }) });
    const requests = Array.from({ length: 23 }, () => slowBody(url, {}, 3_000));
    expect(await firstAnswers(requests, 20)).toEqual(Array.from({ length: 20 }, () => 503));
    for (const request of requests) request.socket.destroy();
    await Promise.all(requests.map((request) => request.answer));
  });

  it('counts a body the guard reads itself against maxBytesInFlight', async () => {
    const url = await start({
      maxBodyBytes: 4_000,
      maxBytesInFlight: 10_000,
      guard: async (request) => {
        const body = await request.readBody(4_000);
        return { reply: { kind: 'body', status: body.ok ? 200 : body.reason === 'busy' ? 503 : 400, headers: {} } };
      },
    });
    const requests = Array.from({ length: 23 }, () => slowBody(url, {}, 3_000));
    expect(await firstAnswers(requests, 20)).toEqual(Array.from({ length: 20 }, () => 503));
    for (const request of requests) request.socket.destroy();
    await Promise.all(requests.map((request) => request.answer));
  });

  it('caps concurrent requests per server (503) and per session (429)', async () => {
    const url = await start({ maxConcurrentRequests: 6, maxConcurrentRequestsPerSession: 2 });
    const session = await openSession(url);
    const other = await openSession(url);
    const mine = Array.from({ length: 4 }, () => slowBody(url, session, 100));
    expect(await firstAnswers(mine, 2)).toEqual([429, 429]);
    const theirs = Array.from({ length: 2 }, () => slowBody(url, other, 100));
    const anonymous = Array.from({ length: 4 }, () => slowBody(url, {}, 100));
    expect(await firstAnswers([...theirs, ...anonymous], 2)).toEqual([503, 503]);
    for (const request of [...mine, ...theirs, ...anonymous]) request.socket.destroy();
  });
});

describe('a body read after the parser has it whole', () => {
  /** A listener whose handler waits a turn (as the core does), then reads the body with `maxBytes` and `budget`. */
  async function serveReads(maxBytes: number, budget?: { take(bytes: number): boolean }): Promise<{ url: URL; close: () => Promise<void> }> {
    const { toNodeListener } = await import('../../../../runtime/node.js');
    const listener = toNodeListener({
      handle: async (view) => {
        await new Promise((resolve) => setImmediate(resolve));
        const body = await view.readBody(maxBytes, budget);
        return { kind: 'body', status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
      },
    });
    const server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: new URL(`http://127.0.0.1:${port}/mcp`), close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  const CHUNKED = { 'content-type': 'application/json', 'transfer-encoding': 'chunked' };

  it('gives the text of every chunk, in order', async () => {
    const served = await serveReads(1_000);
    try {
      const answer = await raw(served.url, 'POST', CHUNKED, ['{"a":', '"grüß"', '}']);
      expect(JSON.parse(answer.body)).toEqual({ ok: true, text: '{"a":"grüß"}' });
    } finally {
      await served.close();
    }
  });

  it('refuses a body beyond maxBytes that declared no length', async () => {
    const served = await serveReads(8);
    try {
      const answer = await raw(served.url, 'POST', CHUNKED, ['{"a":', '"0123456789"}']);
      expect(JSON.parse(answer.body)).toEqual({ ok: false, reason: 'too-large' });
      expect(answer.headers.connection).toBe('close');
    } finally {
      await served.close();
    }
  });

  it('takes what it buffered from the budget, and refuses when the budget is spent', async () => {
    const taken: number[] = [];
    const served = await serveReads(1_000, { take: (bytes) => (taken.push(bytes), taken.length === 1) });
    try {
      expect(JSON.parse((await raw(served.url, 'POST', CHUNKED, ['{}'])).body)).toEqual({ ok: true, text: '{}' });
      expect(JSON.parse((await raw(served.url, 'POST', CHUNKED, ['[1,2]'])).body)).toEqual({ ok: false, reason: 'busy' });
      expect(taken).toEqual([2, 5]);
    } finally {
      await served.close();
    }
  });
});
