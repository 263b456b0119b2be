// How the Streamable HTTP client answers a server's requests: a raw server pushes requests on
// its standalone SSE stream and counts the answers POSTed back. Handling is bounded, and every
// request gets exactly one answer, also when answer POSTs fail for a while; requests the server
// refused for the moment are sent again within a budget.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, findHttpTransportError, SdkError, StreamableHttpClientTransport } from '../../../../runtime/index.js';
import { LegacySseClientTransport } from '../../../../runtime/http.js';
import type { StreamableHttpClientTransportOptions } from '../../../../runtime/transports/http/client-options.js';
import { FakeHttpServer, initializeResult, openSse, rpcMethodOf, sendJson, sendStatus, type FakeRequest, type SseWriter } from './client-fake-server.js';
import { callResult, mcpRoutes, type Routes } from './client-routes.js';

let server: FakeHttpServer | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

const sampling = (id: number): string => `data: ${JSON.stringify({ jsonrpc: '2.0', id, method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } })}\n\n`;

/** Serves a standalone stream that pushes `count` sampling requests, in chunks of about 64 KiB. */
function pushing(count: number): Routes['GET'] {
  return (_request, res) => {
    const sse = openSse(res);
    let text = '';
    for (let id = 0; id < count; id++) {
      text += sampling(id);
      if (text.length > 64 * 1024) {
        sse.raw(text);
        text = '';
      }
    }
    sse.raw(text);
  };
}

/** The answers the server received, by request id. */
function answersOf(fake: FakeHttpServer): Map<unknown, unknown[]> {
  const byId = new Map<unknown, unknown[]>();
  for (const request of fake.requests) {
    const body = request.body as { id?: unknown; method?: unknown } | undefined;
    if (request.method !== 'POST' || body === undefined || 'method' in body || !('id' in body)) continue;
    byId.set(body.id, [...(byId.get(body.id) ?? []), body]);
  }
  return byId;
}

interface Started {
  readonly errors: Error[];
  /** Most handlers seen running at once. */
  readonly most: () => number;
  readonly handled: () => number;
}

async function start(routes: Routes, options: StreamableHttpClientTransportOptions = {}, limits: { maxConcurrentInbound?: number; maxQueuedInbound?: number } = {}): Promise<Started> {
  server = await FakeHttpServer.start(mcpRoutes(routes));
  const errors: Error[] = [];
  client = new Client({ name: 'answers', version: '1.0.0' }, { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, onerror: (error) => errors.push(error), ...limits });
  let running = 0;
  let most = 0;
  let handled = 0;
  client.setRequestHandler('sampling/createMessage', async () => {
    running++;
    most = Math.max(most, running);
    await new Promise((resolve) => setImmediate(resolve));
    running--;
    handled++;
    return { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' };
  });
  await client.connect(new StreamableHttpClientTransport(server.url(), options));
  return { errors, most: () => most, handled: () => handled };
}

describe('Streamable HTTP client: answering a flood of server requests', () => {
  it('handles 16 of 10,000 pushed sampling requests at once and answers each exactly once, refusing what passes the queue', async () => {
    const count = 10_000;
    const { errors, most, handled } = await start({ GET: pushing(count) });
    await expect.poll(() => answersOf(server!).size, { timeout: 60_000, interval: 50 }).toBe(count);
    const answers = answersOf(server!);
    expect([...answers.values()].every((list) => list.length === 1)).toBe(true);
    const refused = [...answers.values()].filter((list) => (list[0] as { error?: unknown }).error !== undefined);
    for (const [answer] of refused) {
      expect(answer).toMatchObject({ error: { code: -32603, message: expect.stringContaining('overloaded') } });
    }
    expect(most()).toBeLessThanOrEqual(16);
    expect(handled() + refused.length).toBe(count);
    // At least everything the queue holds is handled, not refused.
    expect(handled()).toBeGreaterThanOrEqual(1_016);
    expect(errors).toEqual([]);
  }, 90_000);

  it('handles every one of 2,000 when the queue is made long enough', async () => {
    const count = 2_000;
    const { errors, most, handled } = await start({ GET: pushing(count) }, {}, { maxConcurrentInbound: 8, maxQueuedInbound: count });
    await expect.poll(() => answersOf(server!).size, { timeout: 60_000, interval: 50 }).toBe(count);
    expect([...answersOf(server!).values()].every((list) => list.length === 1 && (list[0] as { result?: unknown }).result !== undefined)).toBe(true);
    expect(most()).toBeLessThanOrEqual(8);
    expect(handled()).toBe(count);
    expect(errors).toEqual([]);
  }, 90_000);
});

describe('Streamable HTTP client: answer POSTs that fail', () => {
  /** Fails the first `failures` POSTs of each answer: 503, or a cut connection. */
  function flaky(failures: number, fail: (res: ServerResponse) => void): Routes['response'] {
    const attempts = new Map<unknown, number>();
    return (request: FakeRequest, res) => {
      const id = (request.body as { id: unknown }).id;
      const attempt = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, attempt);
      if (attempt <= failures) fail(res);
      else sendStatus(res, 202);
    };
  }

  it.each([
    ['HTTP 503', (res: ServerResponse) => sendStatus(res, 503)],
    ['a cut connection', (res: ServerResponse) => res.socket?.destroy()],
  ])('retries an answer POST that met %s, with backoff, until it goes through', async (_what, fail) => {
    const { errors } = await start({ GET: pushing(20), response: flaky(2, fail) }, { answerRetry: { initialDelayMs: 1, maxRetries: 3 } });
    await expect.poll(() => [...answersOf(server!).values()].filter((list) => list.length === 3).length, { timeout: 20_000 }).toBe(20);
    expect(answersOf(server!).size).toBe(20);
    expect(errors).toEqual([]);
  });

  it('reports an answer that still fails after maxRetries to onerror, naming the request id', async () => {
    const { errors } = await start({ GET: pushing(1), response: flaky(Number.POSITIVE_INFINITY, (res) => sendStatus(res, 503)) }, { answerRetry: { initialDelayMs: 1, maxRetries: 2 } });
    await expect.poll(() => errors.length, { timeout: 20_000 }).toBe(1);
    // The engine reports the failed reply; the transport's error, its cause, names the request.
    expect(errors[0]).toBeInstanceOf(SdkError);
    expect(errors[0]!.message).toContain('request 0');
    expect(errors[0]!.message).toContain('3 attempts');
    expect(findHttpTransportError(errors[0])?.status).toBe(503);
    expect(answersOf(server!).get(0)).toHaveLength(3);
  });

  it('does not retry an answer the server refused for good', async () => {
    const { errors } = await start({ GET: pushing(1), response: (_request, res) => sendStatus(res, 400) }, { answerRetry: { initialDelayMs: 1 } });
    await expect.poll(() => errors.length, { timeout: 20_000 }).toBe(1);
    expect(errors[0]!.message).toContain('request 0');
    expect(answersOf(server!).get(0)).toHaveLength(1);
  });
});

describe('Streamable HTTP client: an answer the server stopped waiting for', () => {
  it('stops retrying an answer once the server cancels the request it answers', async () => {
    let stream: SseWriter | undefined;
    const answered: unknown[] = [];
    const { errors } = await start({
      GET: (_request, res) => {
        stream = openSse(res);
        stream.raw(sampling(0));
      },
      response: (request, res) => {
        const id = (request.body as { id: unknown }).id;
        answered.push(id);
        if (id === 1) return sendStatus(res, 202);
        sendStatus(res, 503);
        // The server gives up on request 0, and asks another question.
        stream!.raw(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0, reason: 'timed out' } })}\n\n`);
        stream!.raw(sampling(1));
      },
    }, { answerRetry: { initialDelayMs: 5_000, maxDelayMs: 5_000 }, maxAnswersInFlight: 1 });
    // One answer at a time: the answer to 1 goes out only once the retries of 0 ended, 5 s early.
    await expect.poll(() => answered, { timeout: 3_000 }).toEqual([0, 1]);
    expect(errors).toEqual([]);
  });
});

describe('HTTP+SSE client: answer POSTs that fail', () => {
  it('retries an answer POST that met HTTP 503 until it goes through', async () => {
    let stream: SseWriter | undefined;
    const attempts = new Map<unknown, number>();
    server = await FakeHttpServer.start((request, res) => {
      if (request.method === 'GET') {
        stream = openSse(res);
        stream.raw('event: endpoint\ndata: /messages\n\n');
        return;
      }
      const body = request.body as { id?: unknown };
      const method = rpcMethodOf(request.body);
      if (method === undefined) {
        const attempt = (attempts.get(body.id) ?? 0) + 1;
        attempts.set(body.id, attempt);
        sendStatus(res, attempt <= 2 ? 503 : 202);
        return;
      }
      sendStatus(res, 202);
      if (method === 'initialize') stream!.raw(`event: message\ndata: ${JSON.stringify(initializeResult(request.body, 'legacy'))}\n\n`);
      if (method === 'notifications/initialized') for (let id = 0; id < 5; id++) stream!.raw(`event: message\n${sampling(id)}`);
    });
    const errors: Error[] = [];
    client = new Client({ name: 'answers', version: '1.0.0' }, { protocolVersion: '2024-11-05', capabilities: { sampling: {} }, onerror: (error) => errors.push(error) });
    client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' }));
    await client.connect(new LegacySseClientTransport(server.url('/sse'), { answerRetry: { initialDelayMs: 1 } }));
    await expect.poll(() => [...attempts.values()].filter((count) => count === 3).length, { timeout: 20_000 }).toBe(5);
    expect(errors).toEqual([]);
  });
});

describe('Streamable HTTP client: requests the server refused for the moment', () => {
  it('sends a tools/call again after HTTP 503, waiting at least the Retry-After, and gets its answer', async () => {
    const attempts: number[] = [];
    const { errors } = await start({
      'tools/call': (request, res) => {
        attempts.push(Date.now());
        if (attempts.length <= 2) sendStatus(res, 503, { 'retry-after': '1' });
        else sendJson(res, 200, callResult(request));
      },
    }, { requestRetry: { initialDelayMs: 1, maxDelayMs: 1_500 } });
    const answer = await client!.callTool({ name: 'echo', arguments: { n: 1 } });
    expect(answer.content).toEqual([{ type: 'text', text: '{"n":1}' }]);
    expect(attempts).toHaveLength(3);
    // Retry-After: 1 asked for a second; the 1 ms backoff alone would have retried at once.
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(950);
    expect(errors).toEqual([]);
  });

  it('gives up once the retry budget is spent, saying how many attempts over how long', async () => {
    let attempts = 0;
    await start({ 'tools/call': (_request, res) => {
      attempts++;
      sendStatus(res, 503);
    } }, { requestRetry: { initialDelayMs: 100, maxElapsedMs: 250 } });
    const failure = (await client!.callTool({ name: 'echo', arguments: {} }).catch((error: unknown) => error)) as Error;
    expect(failure).toBeInstanceOf(SdkError);
    expect(findHttpTransportError(failure)?.status).toBe(503);
    expect(failure.message).toMatch(/Request \d+ could not be sent \(2 attempts over \d+ ms, retry budget of 250 ms exhausted\)/);
    // A retry after 100 ms; the next wait (200 ms) would end past the budget.
    expect(attempts).toBe(2);
  });

  it('stops sending a request again once it is cancelled', async () => {
    let attempts = 0;
    server = await FakeHttpServer.start(mcpRoutes({ 'tools/call': (_request, res) => {
      attempts++;
      sendStatus(res, 503);
    } }));
    // The first retry would come 5 s later: only the cancellation can end the send sooner.
    const transport = new StreamableHttpClientTransport(server.url(), { requestRetry: { initialDelayMs: 5_000, maxDelayMs: 5_000 } });
    await transport.start();
    const sent = transport.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo' } }).catch((error: unknown) => error);
    await expect.poll(() => attempts).toBe(1);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    expect(await sent).toMatchObject({ code: 'REQUEST_CANCELLED' });
    expect(attempts).toBe(1);
    await transport.close();
  });

  it('does not send a request again that the server refused with HTTP 400', async () => {
    let attempts = 0;
    await start({ 'tools/call': (_request, res) => {
      attempts++;
      sendStatus(res, 400);
    } }, { requestRetry: { initialDelayMs: 1 } });
    await expect(client!.callTool({ name: 'echo', arguments: {} })).rejects.toThrow(/\(1 attempt\)/);
    expect(attempts).toBe(1);
  });
});
