// The per-session bound on request-body bytes in flight, over real sockets on 127.0.0.1 with raw
// node:http requests: one session's uploads cannot take more than its share of the server-wide
// budget, its refusals are 429 JSON-RPC errors with Retry-After, other sessions are unaffected,
// and the share comes back when a request ends, answered or abandoned.
import { request as httpRequest, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpNodeServer, type McpNodeServer, type McpNodeServerOptions } from '../../../../runtime/node.js';
import { callTool, createHttpTestServer, initializeRequest, POST_HEADERS } from './server-support.js';

let node: McpNodeServer | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

async function start(options: Partial<McpNodeServerOptions>): Promise<URL> {
  node = createMcpNodeServer({ server: createHttpTestServer, path: '/mcp', ...options });
  return node.listen();
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A raw POST; `chunks` are written as given, and `end: false` leaves the body unfinished. */
function post(url: URL, headers: Record<string, string>, chunks: string[], end = true): { request: ClientRequest; answer: Promise<Answer> } {
  const request = httpRequest(url, { method: 'POST', headers: { ...POST_HEADERS, ...headers } });
  const answer = new Promise<Answer>((resolve, reject) => {
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      // The server cuts a refused upload short once it answered.
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') return;
      reject(error);
    });
  });
  for (const chunk of chunks) request.write(chunk);
  if (end) request.end();
  return { request, answer };
}

/** A tools/call of `echo` whose JSON text is exactly `bytes` bytes long. */
function echoBody(id: number, bytes: number): string {
  const empty = JSON.stringify(callTool(id, 'echo', { text: '' }));
  return JSON.stringify(callTool(id, 'echo', { text: 'x'.repeat(bytes - empty.length) }));
}

async function openSession(url: URL): Promise<Record<string, string>> {
  const init = await post(url, {}, [JSON.stringify(initializeRequest('2025-11-25'))]).answer;
  expect(init.status).toBe(200);
  const headers = { 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-11-25' };
  const initialized = await post(url, headers, [JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })]).answer;
  expect(initialized.status).toBe(202);
  return headers;
}

/** The statuses of the first `count` answers among `answers`, in the order they came. */
function firstStatuses(answers: readonly Promise<Answer>[], count: number): Promise<number[]> {
  return new Promise((resolve) => {
    const statuses: number[] = [];
    for (const answer of answers) {
      void answer.then(({ status }) => {
        statuses.push(status);
        if (statuses.length === count) resolve(statuses);
      });
    }
  });
}

/** Resolves once the server saw the responses of `count` new requests close (sent, or their connection gone). */
function serverCloses(count: number): Promise<void> {
  return new Promise((resolve) => {
    let closed = 0;
    node!.httpServer.on('request', (_request: IncomingMessage, response: ServerResponse) => {
      response.once('close', () => {
        if (++closed === count) resolve();
      });
    });
  });
}

describe('per-session bytes in flight', () => {
  it('refuses a session past maxBytesInFlightPerSession with 429, while other sessions and the server budget still admit', async () => {
    const url = await start({ maxBodyBytes: 4_000, maxBytesInFlight: 100_000, maxBytesInFlightPerSession: 10_000 });
    const mine = await openSession(url);
    const theirs = await openSession(url);
    // Five unfinished 3,000-byte bodies: three fit the session's 10,000 bytes, two do not.
    const held = Array.from({ length: 5 }, () => post(url, { ...mine, 'content-length': '3000' }, ['{"jsonrpc":"2.0",'], false));
    expect(await firstStatuses(held.map((each) => each.answer), 2)).toEqual([429, 429]);
    const refused = await Promise.race(held.map((each) => each.answer));
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers.connection).toBe('close');
    const error = JSON.parse(refused.body) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
    expect(error).toMatchObject({ jsonrpc: '2.0', id: null });
    expect(error.error.code).toBeLessThan(0);
    expect(error.error.message).toMatch(/this session.*10000 bytes/);

    // A body sent without Content-Length is counted chunk by chunk against the same share.
    const chunked = await post(url, mine, ['x'.repeat(2_000)], false).answer;
    expect(chunked.status).toBe(429);

    // Another session has its own share; the server-wide budget still has room.
    const other = await post(url, theirs, [echoBody(1, 3_000)]).answer;
    expect(other.status).toBe(200);
    expect(other.body).toContain('echo: xxx');
    for (const each of held) each.request.destroy();
  });

  it('gives the share back when a request is answered, so a session can send more than its share in turn', async () => {
    const url = await start({ maxBodyBytes: 4_000, maxBytesInFlight: 100_000, maxBytesInFlightPerSession: 4_000 });
    const mine = await openSession(url);
    for (let id = 1; id <= 4; id++) {
      const answer = await post(url, mine, [echoBody(id, 3_500)]).answer;
      expect(answer.status).toBe(200);
    }
  });

  it('gives the share back when the client abandons its upload', async () => {
    const url = await start({ maxBodyBytes: 4_000, maxBytesInFlight: 100_000, maxBytesInFlightPerSession: 4_000 });
    const mine = await openSession(url);
    const gone = serverCloses(2);
    const first = post(url, { ...mine, 'content-length': '3500' }, ['{"jsonrpc":"2.0",'], false);
    const second = post(url, { ...mine, 'content-length': '3500' }, ['{"jsonrpc":"2.0",'], false);
    // Of the two, one holds 3,500 bytes and the other is refused.
    expect(await Promise.race([first.answer, second.answer]).then(({ status }) => status)).toBe(429);
    first.request.destroy();
    second.request.destroy();
    await gone;
    const after = await post(url, mine, [echoBody(9, 3_500)]).answer;
    expect(after.status).toBe(200);
  });

  it('defaults to a share that admits several bodies of the largest size at once', async () => {
    const url = await start({ maxBodyBytes: 1_000_000, maxBytesInFlight: 100_000_000 });
    const mine = await openSession(url);
    const held = Array.from({ length: 17 }, () => post(url, { ...mine, 'content-length': '1000000' }, ['{"jsonrpc":"2.0",'], false));
    // 16 MiB holds sixteen 1,000,000-byte bodies; the seventeenth is refused.
    expect(await firstStatuses(held.map((each) => each.answer), 1)).toEqual([429]);
    for (const each of held) each.request.destroy();
  });
});
