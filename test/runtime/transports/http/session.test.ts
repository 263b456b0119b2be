// Session lifetime of the HTTP server through the Fetch core: idle expiry (on by default) and
// eviction of the least recently used idle session when the table is full. The sweep's clock
// and interval are faked, so nothing here waits on wall-clock time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callTool, createRig, initializeRequest, SseReader, type Rig } from './server-support.js';

const MINUTE = 60_000;

let rig: Rig | undefined;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
});
afterEach(async () => {
  await rig?.mcp.close();
  rig = undefined;
  vi.useRealTimers();
});

async function echo(headers: Record<string, string>): Promise<number> {
  const response = await rig!.post(callTool(1, 'echo', { text: 'x' }), headers);
  await response.text();
  return response.status;
}

/** Lets the handler run (only setInterval and Date are faked) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** Opens the standalone GET stream of a session and keeps it open. */
async function openStream(headers: Record<string, string>): Promise<SseReader> {
  const response = await rig!.send('GET', { ...headers, accept: 'text/event-stream' });
  expect(response.status).toBe(200);
  return new SseReader(response.body);
}

describe('idle expiry', () => {
  it('ends sessions idle for 30 minutes by default; their later requests get 404', async () => {
    rig = createRig();
    const idle = await rig.open();
    vi.advanceTimersByTime(29 * MINUTE);
    const active = await rig.open();
    expect(rig.mcp.sessions.size).toBe(2);
    vi.advanceTimersByTime(2 * MINUTE);
    expect(rig.mcp.sessions.size).toBe(1);
    expect(await echo(idle)).toBe(404);
    expect(await echo(active)).toBe(200);
  });

  it('keeps sessions with an open stream or a request in flight, and 0 turns expiry off', async () => {
    rig = createRig();
    const streaming = await rig.open();
    const reader = await openStream(streaming);
    const busy = await rig.open();
    const hanging = rig.post(callTool(9, 'hang'), busy);
    await until(() => rig!.mcp.stats().pendingRequests === 1);
    vi.advanceTimersByTime(61 * MINUTE);
    expect(rig.mcp.sessions.size).toBe(2);
    await rig.mcp.close();
    await reader.cancel();
    await hanging;

    rig = createRig({ sessionIdleTimeoutMs: 0 });
    const kept = await rig.open();
    vi.advanceTimersByTime(24 * 60 * MINUTE);
    expect(await echo(kept)).toBe(200);
  });

  it('honours a shorter sessionIdleTimeoutMs', async () => {
    rig = createRig({ sessionIdleTimeoutMs: 1_000 });
    const headers = await rig.open();
    vi.advanceTimersByTime(999);
    expect(rig.mcp.sessions.size).toBe(1);
    vi.advanceTimersByTime(1_001);
    expect(await echo(headers)).toBe(404);
  });
});

describe('a full session table', () => {
  it('evicts the least recently used idle session for a newcomer, which then gets 404', async () => {
    rig = createRig({ maxSessions: 2 });
    const first = await rig.open();
    const second = await rig.open();
    vi.advanceTimersByTime(1_000);
    expect(await echo(first)).toBe(200);
    const third = await rig.open();
    expect(rig.mcp.sessions.size).toBe(2);
    expect(await echo(second)).toBe(404);
    expect(await echo(first)).toBe(200);
    expect(await echo(third)).toBe(200);
  });

  it('goes by use order when every use falls in the same millisecond', async () => {
    rig = createRig({ maxSessions: 3 });
    const first = await rig.open();
    const second = await rig.open();
    const third = await rig.open();
    expect(await echo(first)).toBe(200);
    expect(await echo(second)).toBe(200);
    const fourth = await rig.open();
    expect(await echo(third)).toBe(404);
    const fifth = await rig.open();
    expect(await echo(first)).toBe(404);
    expect(await echo(second)).toBe(200);
    expect(await echo(fourth)).toBe(200);
    expect(await echo(fifth)).toBe(200);
  });

  it('answers 503 only when no session is idle (an open stream, a request in flight)', async () => {
    rig = createRig({ maxSessions: 2 });
    const streaming = await rig.open();
    const reader = await openStream(streaming);
    const busy = await rig.open();
    const hanging = rig.post(callTool(9, 'hang'), busy);
    await until(() => rig!.mcp.stats().pendingRequests === 1);
    const refused = await rig.post(initializeRequest('2025-11-25'));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    await reader.cancel();
    await until(() => rig!.mcp.sessions.get(streaming['mcp-session-id']!)?.openStreams === 0);
    expect((await rig.post(initializeRequest('2025-11-25'))).status).toBe(200);
    expect(await echo(streaming)).toBe(404);
    await rig.mcp.close();
    await hanging;
  });

  it('makes room for a legacy HTTP+SSE client too, whose open stream keeps its own session', async () => {
    rig = createRig({ legacySse: true, maxSessions: 1 });
    const idle = await rig.open();
    const legacy = await rig.send('GET', { accept: 'text/event-stream' }, undefined, '/sse');
    expect(legacy.status).toBe(200);
    const reader = new SseReader(legacy.body);
    expect((await reader.next())?.event).toBe('endpoint');
    expect(await echo(idle)).toBe(404);
    expect((await rig.post(initializeRequest('2025-11-25'))).status).toBe(503);
    await reader.cancel();
  });
});
