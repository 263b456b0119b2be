// Streams of the Streamable HTTP server through the Fetch core: JSON vs SSE replies, routing
// of related messages, the standalone stream, priming, replay after Last-Event-ID, SEP-1699
// polling, keep-alives and disconnects.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryEventStore } from '../../../../runtime/http.js';
import { callTool, createRig, eventually, isResponseTo, messageOf, SseReader, type Rig } from './server-support.js';

let rig: Rig;
afterEach(async () => {
  vi.useRealTimers();
  await rig?.mcp.close();
});

const SSE = { accept: 'text/event-stream' };

describe('reply mode', () => {
  it('answers with JSON when the final result is the first outbound message', async () => {
    rig = createRig();
    const headers = await rig.open();
    const response = await rig.post(callTool(1, 'echo', { text: 'hi' }), headers);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'echo: hi' }] } });
  });

  it('streams SSE when the handler sends related notifications first, and ends after the response', async () => {
    rig = createRig();
    const headers = await rig.open('2025-06-18');
    const response = await rig.post(callTool(1, 'whoami', { tag: 't', steps: 3 }, 'tok'), headers);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = await new SseReader(response.body).rest();
    const messages = events.map(messageOf);
    expect(messages.slice(0, 3).map((message) => (message?.params as { message: string }).message)).toEqual(['t:1', 't:2', 't:3']);
    expect(messages[3]).toMatchObject({ id: 1, result: { content: [{ text: `t@${headers['mcp-session-id']}` }] } });
    expect(events).toHaveLength(4);
  });

  it('carries a server-to-client request on the POST stream and routes the POSTed answer back', async () => {
    rig = createRig();
    const headers = await rig.open('2025-11-25', { sampling: {} });
    const response = await rig.post(callTool(1, 'sample', { text: 'ping' }), headers);
    const reader = new SseReader(response.body);
    const [request] = (await reader.until((event) => messageOf(event)?.method === 'sampling/createMessage')).filter((event) => event.data);
    const sampling = messageOf(request!)!;
    const answer = { jsonrpc: '2.0', id: sampling.id, result: { role: 'assistant', content: { type: 'text', text: 'pong' }, model: 'm' } };
    expect((await rig.post(answer, headers)).status).toBe(202);
    const rest = await reader.rest();
    expect(messageOf(rest[rest.length - 1]!)).toMatchObject({ id: 1, result: { content: [{ text: 'sampled: pong' }] } });
  });

  it('switches a silent request to SSE after one keep-alive interval, then keeps it alive', async () => {
    vi.useFakeTimers();
    rig = createRig({ keepAliveMs: 1000 });
    const headers = await rig.open('2025-06-18');
    const pending = rig.post(callTool(1, 'hang'), headers);
    await vi.advanceTimersByTimeAsync(1000);
    const response = await pending;
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = new SseReader(response.body);
    await vi.advanceTimersByTimeAsync(2100);
    expect(await reader.next()).toEqual({ comment: 'keep-alive' });
    await rig.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, headers);
    await rig.send('DELETE', headers);
    expect(rig.mcp.stats()).toMatchObject({ connections: 0, timers: 0 });
  });
});

describe('standalone stream', () => {
  it('carries unrelated server messages, allows one GET per session, and isolates sessions', async () => {
    rig = createRig();
    const a = await rig.open();
    const b = await rig.open();
    const streamA = await rig.send('GET', { ...a, ...SSE });
    expect(streamA.headers.get('content-type')).toBe('text/event-stream');
    expect((await rig.send('GET', { ...a, ...SSE })).status).toBe(409);
    const streamB = await rig.send('GET', { ...b, ...SSE });
    const readerA = new SseReader(streamA.body);
    const readerB = new SseReader(streamB.body);
    expect(await rig.post(callTool(1, 'announce'), a).then((r) => r.json())).toMatchObject({ result: { content: [{ text: 'announced' }] } });
    const seenA = await readerA.until((event) => messageOf(event)?.method === 'notifications/tools/list_changed');
    expect(seenA.filter((event) => event.data).length).toBe(1);
    await rig.send('DELETE', b);
    expect((await readerB.rest()).filter((event) => event.data)).toEqual([]);
    expect(rig.mcp.stats().connections).toBe(1);
    await readerA.cancel();
    await eventually(() => rig.mcp.stats().connections === 0);
    // Once the GET connection is gone, a new one may open.
    expect((await rig.send('GET', { ...a, ...SSE })).status).toBe(200);
  });

  it('sends unrelated server requests on the GET stream, and fails them fast without one', async () => {
    rig = createRig();
    const headers = await rig.open('2025-11-25', { roots: {} });
    const failed = (await (await rig.post(callTool(1, 'roots'), headers)).json()) as { error: { message: string } };
    expect(failed.error.message).toContain('No SSE stream');

    const reader = new SseReader((await rig.send('GET', { ...headers, ...SSE })).body);
    const call = rig.post(callTool(2, 'roots'), headers);
    const request = messageOf((await reader.until((event) => messageOf(event)?.method === 'roots/list')).pop()!)!;
    await rig.post({ jsonrpc: '2.0', id: request.id, result: { roots: [{ uri: 'file:///r' }] } }, headers);
    expect(await (await call).json()).toMatchObject({ id: 2, result: { content: [{ text: 'file:///r' }] } });
  });
});

describe('resumability', () => {
  it('primes 2025-11-25 streams with an id and empty data, and replays after Last-Event-ID', async () => {
    const store = new InMemoryEventStore();
    rig = createRig({ eventStore: store, retryMs: 250 });
    const headers = await rig.open('2025-11-25');
    const response = await rig.post(callTool(1, 'whoami', { tag: 'r', steps: 4, stepMs: 15 }, 'tok'), headers);
    const reader = new SseReader(response.body);
    const priming = await reader.next();
    expect(priming).toMatchObject({ data: '', retry: 250 });
    expect(priming?.id).toBeTruthy();
    const first = await reader.next();
    expect((messageOf(first!)?.params as { message: string }).message).toBe('r:1');
    await reader.cancel();
    await eventually(() => rig.mcp.stats().connections === 0);

    const resumed = await rig.send('GET', { ...headers, ...SSE, 'last-event-id': first!.id! });
    const rest = await new SseReader(resumed.body).rest();
    const texts = rest.map((event) => messageOf(event)).map((message) => (message?.params as { message?: string } | undefined)?.message ?? message?.id);
    expect(texts).toEqual(['r:2', 'r:3', 'r:4', 1]);
    // Replay after the priming id yields everything, including what the first connection carried.
    const again = await rig.send('GET', { ...headers, ...SSE, 'last-event-id': priming!.id! });
    expect((await new SseReader(again.body).rest()).map((event) => messageOf(event)?.id ?? 'progress')).toEqual(['progress', 'progress', 'progress', 'progress', 1]);
  });

  it('does not prime before 2025-11-25 but still numbers events', async () => {
    rig = createRig({ eventStore: new InMemoryEventStore() });
    const headers = await rig.open('2025-06-18');
    const events = await new SseReader((await rig.post(callTool(1, 'whoami', { tag: 'x', steps: 1 }, 't'), headers)).body).rest();
    expect(events.every((event) => event.data !== '' && event.id !== undefined)).toBe(true);
  });

  it('refuses Last-Event-IDs of another session or unknown ones with 400', async () => {
    rig = createRig({ eventStore: new InMemoryEventStore() });
    const a = await rig.open();
    const b = await rig.open();
    const events = await new SseReader((await rig.post(callTool(1, 'whoami', { tag: 'a', steps: 2 }, 't'), a)).body).rest();
    const foreign = await rig.send('GET', { ...b, ...SSE, 'last-event-id': events[0]!.id! });
    expect(foreign.status).toBe(400);
    expect((await rig.send('GET', { ...a, ...SSE, 'last-event-id': 'nope_1' })).status).toBe(400);
    expect((await rig.send('GET', { ...a, ...SSE, 'last-event-id': events[0]!.id! })).status).toBe(200);
  });

  it('lets a handler close its stream mid-call; the client resumes with GET and Last-Event-ID (SEP-1699)', async () => {
    rig = createRig({ eventStore: new InMemoryEventStore(), retryMs: 20 });
    const headers = await rig.open('2025-11-25');
    const response = await rig.post(callTool(1, 'poll', { pauseMs: 20 }, 'tok'), headers);
    const firstLeg = await new SseReader(response.body).rest();
    expect(firstLeg[0]).toMatchObject({ data: '' });
    expect(firstLeg.some((event) => event.retry === 20 && event.data === undefined)).toBe(true);
    const lastId = firstLeg.filter((event) => event.id !== undefined).pop()!.id!;
    const resumed = await rig.send('GET', { ...headers, ...SSE, 'last-event-id': lastId });
    const secondLeg = await new SseReader(resumed.body).until(isResponseTo(1));
    expect(secondLeg.map((event) => (messageOf(event)?.params as { message?: string } | undefined)?.message ?? messageOf(event)?.id)).toEqual([
      'while away',
      'still away',
      1,
    ]);
    expect(messageOf(secondLeg[2]!)).toMatchObject({ result: { content: [{ text: 'polled:true' }] } });
  });

  it('lets a handler close the standalone stream; the client resumes it with Last-Event-ID', async () => {
    rig = createRig({ eventStore: new InMemoryEventStore(), retryMs: 10 });
    const headers = await rig.open('2025-11-25');
    const first = new SseReader((await rig.send('GET', { ...headers, ...SSE })).body);
    const priming = await first.next();
    expect(priming).toMatchObject({ data: '', retry: 10 });
    expect(await (await rig.post(callTool(1, 'hangup'), headers)).json()).toMatchObject({ result: { content: [{ text: 'hangup:true' }] } });
    expect((await first.rest()).filter((event) => event.data)).toEqual([]);
    await rig.post(callTool(2, 'announce'), headers);
    const resumed = new SseReader((await rig.send('GET', { ...headers, ...SSE, 'last-event-id': priming!.id! })).body);
    expect(messageOf((await resumed.next())!)).toMatchObject({ method: 'notifications/tools/list_changed' });
    // The resumed connection is the standalone stream now: a second GET conflicts.
    expect((await rig.send('GET', { ...headers, ...SSE })).status).toBe(409);
    await resumed.cancel();
  });

  it('cannot close a stream without resumability', async () => {
    rig = createRig();
    const headers = await rig.open('2025-11-25');
    const events = await new SseReader((await rig.post(callTool(1, 'poll', { pauseMs: 1 }, 'tok'), headers)).body).rest();
    expect(messageOf(events[events.length - 1]!)).toMatchObject({ result: { content: [{ text: 'polled:false' }] } });
  });
});

describe('cancellation', () => {
  it('releases the stream of a cancelled request, which is never answered', async () => {
    rig = createRig({ eventStore: new InMemoryEventStore() });
    const headers = await rig.open('2025-11-25');
    const held = rig.post(callTool(1, 'hang'), headers);
    await eventually(() => rig.mcp.stats().pendingRequests === 1);
    expect((await rig.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'bored' } }, headers)).status).toBe(202);
    const response = await held;
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await new SseReader(response.body).rest()).toEqual([]);
    expect(rig.mcp.stats()).toMatchObject({ pendingRequests: 0, connections: 0, timers: 0 });

    const streaming = await rig.post(callTool(2, 'whoami', { tag: 'c', steps: 50, stepMs: 5 }, 't'), headers);
    const reader = new SseReader(streaming.body);
    await reader.until((event) => messageOf(event)?.method === 'notifications/progress');
    await rig.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } }, headers);
    const rest = await reader.rest();
    expect(rest.some((event) => messageOf(event)?.id === 2)).toBe(false);
    expect(rig.mcp.stats()).toMatchObject({ pendingRequests: 0, connections: 0 });
  });
});

describe('disconnects', () => {
  it('drops the stream of a client that disconnects mid-call without leaking', async () => {
    rig = createRig();
    const headers = await rig.open('2025-06-18');
    const response = await rig.post(callTool(1, 'whoami', { tag: 'gone', steps: 5, stepMs: 10 }, 't'), headers);
    const reader = new SseReader(response.body);
    await reader.next();
    await reader.cancel();
    await eventually(() => rig.mcp.stats().pendingRequests === 0);
    expect(rig.mcp.stats()).toMatchObject({ sessions: 1, connections: 0, timers: 0 });
    // The session stays usable.
    expect((await rig.post(callTool(2, 'echo', { text: 'still here' }), headers)).status).toBe(200);
  });
});

describe('isolation under concurrency', () => {
  it('never lets a message of one session reach another', async () => {
    rig = createRig({ eventStore: new InMemoryEventStore() });
    const sessions = await Promise.all(Array.from({ length: 20 }, () => rig.open()));
    const results = await Promise.all(
      sessions.map(async (headers, index) => {
        const response = await rig.post(callTool(1, 'whoami', { tag: `s${index}`, steps: 3, stepMs: 1 + (index % 4) }, 1), headers);
        return (await new SseReader(response.body).rest()).map(messageOf).filter((message) => message !== undefined);
      }),
    );
    results.forEach((messages, index) => {
      const sessionId = sessions[index]!['mcp-session-id'];
      expect(messages).toHaveLength(4);
      for (const message of messages.slice(0, 3)) expect((message!.params as { message: string }).message).toMatch(new RegExp(`^s${index}:`));
      expect(messages[3]).toMatchObject({ id: 1, result: { content: [{ text: `s${index}@${sessionId}` }] } });
    });
  });
});
