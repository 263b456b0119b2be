// The legacy HTTP+SSE transport (2024-11-05) of the HTTP server, through the Fetch core, and
// the bounded in-memory event store.
import { afterEach, describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '../../../../runtime/index.js';
import { InMemoryEventStore } from '../../../../runtime/http.js';
import { callTool, createRig, eventually, initializeRequest, isResponseTo, messageOf, SseReader, type Rig } from './server-support.js';

let rig: Rig;
afterEach(async () => {
  await rig?.mcp.close();
});

async function openLegacy(path = '/sse'): Promise<{ reader: SseReader; endpoint: string }> {
  const response = await rig.send('GET', { accept: 'text/event-stream' }, undefined, path);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const reader = new SseReader(response.body);
  const first = await reader.next();
  expect(first?.event).toBe('endpoint');
  return { reader, endpoint: first!.data! };
}

function postTo(endpoint: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const url = new URL(endpoint, 'http://localhost:3000');
  return rig.send('POST', { 'content-type': 'application/json', ...headers }, typeof body === 'string' ? body : JSON.stringify(body), `${url.pathname}${url.search}`);
}

describe('legacy HTTP+SSE', () => {
  it('announces the message endpoint, answers POSTs with 202 and streams responses', async () => {
    rig = createRig({ legacySse: true });
    const { reader, endpoint } = await openLegacy();
    expect(endpoint).toMatch(/^\/messages\?sessionId=[0-9a-f-]{36}$/);
    expect(rig.mcp.sessions.get(new URL(endpoint, 'http://x').searchParams.get('sessionId')!)?.transport).toBe('sse');
    const accepted = await postTo(endpoint, initializeRequest('2024-11-05', 1));
    expect(accepted.status).toBe(202);
    expect(messageOf((await reader.until(isResponseTo(1))).pop()!)).toMatchObject({ result: { protocolVersion: '2024-11-05' } });
    expect((await postTo(endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    await postTo(endpoint, callTool(2, 'whoami', { tag: 'old', steps: 2 }, 'p'));
    const events = await reader.until(isResponseTo(2));
    expect(events.map((event) => event.event)).toEqual(['message', 'message', 'message']);
    expect(messageOf(events[2]!)).toMatchObject({ result: { content: [{ text: expect.stringMatching(/^old@/) }] } });
  });

  it('refuses bad POSTs: missing or unknown session, wrong content type, bad JSON, oversized', async () => {
    rig = createRig({ legacySse: { ssePath: '/events', messagePath: '/rpc' }, maxBodyBytes: 256 });
    const { endpoint } = await openLegacy('/events');
    expect(endpoint.startsWith('/rpc?sessionId=')).toBe(true);
    expect((await postTo('/rpc', initializeRequest('2024-11-05'))).status).toBe(400);
    expect((await postTo('/rpc?sessionId=forged', initializeRequest('2024-11-05'))).status).toBe(404);
    expect((await postTo(endpoint, '{}', { 'content-type': 'text/plain' })).status).toBe(415);
    const malformed = await postTo(endpoint, '{oops');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);
    expect((await postTo(endpoint, callTool(1, 'echo', { text: 'x'.repeat(400) }))).status).toBe(413);
  });

  it('refuses a batch longer than maxBatchLength as a whole', async () => {
    rig = createRig({ legacySse: true, maxBatchLength: 2 });
    const { endpoint } = await openLegacy();
    const refused = await postTo(endpoint, [callTool(1, 'echo'), callTool(2, 'echo'), callTool(3, 'echo')]);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('limit is 2') } });
  });

  it('ends the session when the client closes the stream, and can share the MCP path', async () => {
    rig = createRig({ legacySse: { ssePath: '/mcp', messagePath: '/mcp' }, path: '/mcp' });
    const { reader, endpoint } = await openLegacy('/mcp');
    expect(rig.mcp.stats()).toMatchObject({ sessions: 1, connections: 1 });
    // A Streamable HTTP client still reaches its own leg on the shared path.
    const streamable = await rig.open();
    expect(rig.mcp.sessions.size).toBe(2);
    expect((await postTo(endpoint, initializeRequest('2024-11-05', 1))).status).toBe(202);
    await reader.cancel();
    await eventually(() => rig.mcp.sessions.size === 1);
    expect((await postTo(endpoint, callTool(2, 'echo'))).status).toBe(404);
    expect(rig.mcp.sessions.ids()).toEqual([streamable['mcp-session-id']]);
    expect(rig.mcp.stats()).toMatchObject({ connections: 0, timers: 0 });
  });

  it('keeps legacy and Streamable HTTP session ids apart', async () => {
    rig = createRig({ legacySse: true });
    const { endpoint } = await openLegacy();
    const legacyId = new URL(endpoint, 'http://x').searchParams.get('sessionId')!;
    expect((await rig.post(callTool(1, 'echo'), { 'mcp-session-id': legacyId })).status).toBe(404);
    const streamable = await rig.open();
    expect((await postTo(`/messages?sessionId=${streamable['mcp-session-id']}`, callTool(1, 'echo'))).status).toBe(404);
  });
});

describe('InMemoryEventStore', () => {
  const message = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });

  it('replays the events of one stream after an id, skipping priming markers', async () => {
    const store = new InMemoryEventStore();
    const prime = store.storeEvent('a', null);
    const first = store.storeEvent('a', message(1));
    store.storeEvent('b', message(99));
    store.storeEvent('a', message(2));
    const seen: unknown[] = [];
    expect(await store.replayEventsAfter(prime, (_id, m) => void seen.push(m))).toBe('a');
    expect(seen).toEqual([message(1), message(2)]);
    seen.length = 0;
    expect(await store.replayEventsAfter(first, (_id, m) => void seen.push(m))).toBe('a');
    expect(seen).toEqual([message(2)]);
    expect(await store.replayEventsAfter('unknown', () => undefined)).toBeUndefined();
    expect(await store.replayEventsAfter('a_999999', () => undefined)).toBeUndefined();
  });

  it('is bounded and refuses cursors whose successors were evicted', async () => {
    const store = new InMemoryEventStore({ maxEvents: 3 });
    const ids = [1, 2, 3, 4, 5].map((n) => store.storeEvent('s', message(n)));
    expect(store.size).toBe(3);
    expect(await store.replayEventsAfter(ids[0]!, () => undefined)).toBeUndefined();
    const seen: unknown[] = [];
    expect(await store.replayEventsAfter(ids[1]!, (_id, m) => void seen.push(m))).toBe('s');
    expect(seen).toEqual([message(3), message(4), message(5)]);
    for (let n = 0; n < 3; n++) store.storeEvent('t', message(n));
    expect(store.streamCount).toBe(1);
    expect(await store.replayEventsAfter(ids[4]!, () => undefined)).toBeUndefined();
  });
});
