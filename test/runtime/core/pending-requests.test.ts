import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SdkError } from '../../../runtime/core/errors.js';
import { PendingRequests, type PendingRequest } from '../../../runtime/core/pending-requests.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../../runtime/core/protocol.js';
import { connectedEngine } from '../fixtures/engine-harness.js';

/** Tracks how a promise settled without awaiting it, so fake time can be advanced meanwhile. */
function track<T>(promise: Promise<T>): { state: 'pending' | 'resolved' | 'rejected'; value?: T; error?: unknown } {
  const status: { state: 'pending' | 'resolved' | 'rejected'; value?: T; error?: unknown } = { state: 'pending' };
  promise.then(
    (value) => Object.assign(status, { state: 'resolved', value }),
    (error: unknown) => Object.assign(status, { state: 'rejected', error }),
  );
  return status;
}

const progress = (token: unknown, value: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: token, progress: value },
});

describe('request timeouts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('defaults to 60 s, then sends notifications/cancelled and rejects with REQUEST_TIMEOUT', async () => {
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(60_000);
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    const status = track(protocol.request('ping'));
    const { id } = await transport.nextMessage();
    await vi.advanceTimersByTimeAsync(59_999);
    expect(status.state).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(status.state).toBe('rejected');
    expect(status.error).toBeInstanceOf(SdkError);
    expect(status.error).toMatchObject({ code: 'REQUEST_TIMEOUT', data: { timeout: 60_000 } });
    const cancellation = await transport.nextMessage();
    expect(cancellation).toMatchObject({ method: 'notifications/cancelled', params: { requestId: id } });
    expect(cancellation.params.reason).toContain('timed out');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('uses the engine default and lets a call override it', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client', defaultTimeoutMs: 1_000 });
    const engineDefault = track(protocol.request('ping'));
    const perCall = track(protocol.request('ping', undefined, { timeout: 5_000 }));
    await transport.next();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(engineDefault.state).toBe('rejected');
    expect(perCall.state).toBe('pending');
    await vi.advanceTimersByTimeAsync(4_000);
    expect(perCall.state).toBe('rejected');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('restarts the countdown on progress with resetTimeoutOnProgress and onprogress', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    const onprogress = vi.fn();
    const status = track(protocol.request('ping', undefined, { timeout: 100, resetTimeoutOnProgress: true, onprogress }));
    const { id } = await transport.nextMessage();
    await vi.advanceTimersByTimeAsync(80);
    transport.deliver(progress(id, 1));
    await vi.advanceTimersByTimeAsync(80);
    expect(status.state).toBe('pending');
    expect(onprogress).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(status.state).toBe('rejected');
    expect(status.error).toMatchObject({ code: 'REQUEST_TIMEOUT' });
  });

  it('restarts the countdown on progress without onprogress, attaching a token for it', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    const status = track(protocol.request('ping', { _meta: {} }, { timeout: 100, resetTimeoutOnProgress: true }));
    const request = await transport.nextMessage();
    expect(request.params._meta.progressToken).toBe(request.id);
    await vi.advanceTimersByTimeAsync(90);
    transport.deliver(progress(request.id, 1));
    await vi.advanceTimersByTimeAsync(90);
    expect(status.state).toBe('pending');
    transport.deliver({ jsonrpc: '2.0', id: request.id, result: {} });
    await vi.advanceTimersByTimeAsync(0);
    expect(status.state).toBe('resolved');
    await vi.advanceTimersByTimeAsync(100);
    expect(status.state).toBe('resolved');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not extend the timeout on progress unless asked to', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    const onprogress = vi.fn();
    const status = track(protocol.request('ping', undefined, { timeout: 100, onprogress }));
    const { id } = await transport.nextMessage();
    await vi.advanceTimersByTimeAsync(80);
    transport.deliver(progress(id, 1));
    await vi.advanceTimersByTimeAsync(20);
    expect(onprogress).toHaveBeenCalledTimes(1);
    expect(status.state).toBe('rejected');
  });

  it('caps the total wait with maxTotalTimeout despite progress', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    const status = track(protocol.request('ping', undefined, { timeout: 100, resetTimeoutOnProgress: true, maxTotalTimeout: 250 }));
    const { id } = await transport.nextMessage();
    for (let elapsed = 80; elapsed <= 240; elapsed += 80) {
      await vi.advanceTimersByTimeAsync(80);
      transport.deliver(progress(id, elapsed));
    }
    expect(status.state).toBe('pending');
    await vi.advanceTimersByTimeAsync(10);
    expect(status.state).toBe('rejected');
    expect(status.error).toMatchObject({ code: 'REQUEST_TIMEOUT', data: { maxTotalTimeout: 250 } });
    expect((status.error as Error).message).toContain('maxTotalTimeout');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('applies maxTotalTimeout when it is shorter than the timeout', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    const status = track(protocol.request('ping', undefined, { timeout: 1_000, maxTotalTimeout: 300 }));
    await transport.next();
    await vi.advanceTimersByTimeAsync(299);
    expect(status.state).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(status.error).toMatchObject({ code: 'REQUEST_TIMEOUT' });
  });

  it('keeps one timer across sequential requests, lets it lapse at its deadline, and clears it on close', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    const setTimer = vi.spyOn(globalThis, 'setTimeout');

    const answered = track(protocol.request('ping'));
    const first = await transport.nextMessage();
    transport.deliver({ jsonrpc: '2.0', id: first.id, result: {} });
    await vi.advanceTimersByTimeAsync(0);
    expect(answered.state).toBe('resolved');

    const failed = track(protocol.request('ping'));
    const second = await transport.nextMessage();
    transport.deliver({ jsonrpc: '2.0', id: second.id, error: { code: 1, message: 'x' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(failed.state).toBe('rejected');

    const controller = new AbortController();
    const aborted = track(protocol.request('ping', undefined, { signal: controller.signal }));
    await transport.next();
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(aborted.error).toMatchObject({ code: 'REQUEST_CANCELLED' });

    transport.sendError = new Error('broken');
    const unsent = track(protocol.request('ping'));
    await vi.advanceTimersByTimeAsync(0);
    expect(unsent.error).toMatchObject({ code: 'SEND_FAILED' });
    transport.sendError = undefined;

    // Four requests, each settled before the next: the first one's timer still serves them all.
    expect(setTimer.mock.calls.filter(([, delay]) => delay === 60_000)).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(1);
    // At its deadline it finds nothing due: no request is expired twice and no timer follows.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(vi.getTimerCount()).toBe(0);
    expect(failed.error).toMatchObject({ code: 1 });
    expect(aborted.error).toMatchObject({ code: 'REQUEST_CANCELLED' });
    expect(transport.sent.filter((frame) => (frame.message as { method?: string }).method === 'notifications/cancelled')).toHaveLength(1);

    const orphaned = track(protocol.request('ping'));
    await transport.next();
    expect(vi.getTimerCount()).toBe(1);
    await protocol.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(orphaned.error).toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(vi.getTimerCount()).toBe(0);
    setTimer.mockRestore();
  });
});

describe('PendingRequests', () => {
  const request = (id: number, overrides: Partial<PendingRequest> = {}): PendingRequest => ({
    id,
    method: 'ping',
    resultValidator: null,
    tracksProgress: true,
    timeoutMs: 10_000,
    resetOnProgress: true,
    resolve: () => undefined,
    reject: () => undefined,
    startedAt: 0,
    deadline: Infinity,
    total: false,
    ...overrides,
  });

  it('creates timers that do not keep the process alive', () => {
    const timers: NodeJS.Timeout[] = [];
    const original = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((...args: Parameters<typeof setTimeout>) => {
      const timer = original(...args);
      timers.push(timer);
      return timer;
    }) as typeof setTimeout);
    try {
      const pending = new PendingRequests(() => undefined);
      pending.add(request(1));
      pending.touch(1);
      expect(timers.length).toBeGreaterThan(0);
      expect(timers.every((timer) => !timer.hasRef())).toBe(true);
      pending.take(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('shares one timer among requests in flight and after, and clears it when all are rejected', () => {
    const started: NodeJS.Timeout[] = [];
    const original = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((...args: Parameters<typeof setTimeout>) => {
      const timer = original(...args);
      started.push(timer);
      return timer;
    }) as typeof setTimeout);
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    try {
      const pending = new PendingRequests(() => undefined);
      for (let id = 1; id <= 64; id++) pending.add(request(id));
      expect(started).toHaveLength(1);
      for (let id = 1; id <= 64; id++) pending.take(id);
      // None pending: the timer stays for the next requests, whose deadlines come later.
      for (let id = 65; id <= 128; id++) pending.add(request(id));
      expect(started).toHaveLength(1);
      expect(cleared).not.toHaveBeenCalled();
      pending.rejectAll(new Error('closed'));
      expect(cleared).toHaveBeenCalledWith(started[0]);
    } finally {
      spy.mockRestore();
      cleared.mockRestore();
    }
  });

  it('creates no timer for an infinite timeout', () => {
    vi.useFakeTimers();
    try {
      const pending = new PendingRequests(() => undefined);
      pending.add(request(1, { timeoutMs: Number.POSITIVE_INFINITY, resetOnProgress: false }));
      expect(vi.getTimerCount()).toBe(0);
      expect(pending.has(1)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('arms the earlier deadline of a request added while a later one is pending', () => {
    vi.useFakeTimers();
    try {
      const expired: number[] = [];
      const pending = new PendingRequests((request) => expired.push(request.id));
      pending.add(request(1, { timeoutMs: 10_000, resetOnProgress: false }));
      pending.add(request(2, { timeoutMs: 100, resetOnProgress: false }));
      vi.advanceTimersByTime(100);
      expect(expired).toEqual([2]);
      expect(pending.has(1)).toBe(true);
      vi.advanceTimersByTime(9_900);
      expect(expired).toEqual([2, 1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('expires a request at once when progress arrives past its total cap, before the timer fires', () => {
    vi.useFakeTimers();
    try {
      const expired: Array<[number, SdkError]> = [];
      const pending = new PendingRequests((request, error) => expired.push([request.id, error]));
      pending.add(request(1, { timeoutMs: 100, resetOnProgress: true, maxTotalTimeoutMs: 250 }));
      // The clock passes the cap while no timer runs (a busy event loop, say).
      vi.setSystemTime(Date.now() + 260);
      expect(pending.touch(1)).toBeUndefined();
      expect(pending.has(1)).toBe(false);
      expect(expired).toHaveLength(1);
      expect(expired[0]![1]).toMatchObject({ code: 'REQUEST_TIMEOUT', data: { maxTotalTimeout: 250 } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('ignores progress for requests that carry no token, and rejects all on demand', () => {
    const reject = vi.fn();
    const pending = new PendingRequests(() => undefined);
    pending.add(request(1, { tracksProgress: false, reject }));
    pending.add(request(2, { reject }));
    expect(pending.touch(1)).toBeUndefined();
    expect(pending.touch('2')).toBeUndefined();
    expect(pending.touch(2)?.id).toBe(2);
    const error = new Error('closed');
    pending.rejectAll(error);
    expect(reject).toHaveBeenCalledTimes(2);
    expect(reject).toHaveBeenCalledWith(error);
    expect(pending.size).toBe(0);
  });
});
