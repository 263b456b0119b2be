// The one timer behind a handler's held POST replies: holds expire in the order they began, each
// after the clock's delay, a released one never expires, releasing unlinks from anywhere in the
// list, and sequential requests set no timer of their own.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HoldClock } from '../../../../runtime/transports/http/hold-clock.js';

describe('HoldClock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('expires each hold after the delay, oldest first, and never one that was released', () => {
    const clock = new HoldClock(1_000);
    const expired: string[] = [];
    clock.hold(() => expired.push('a'));
    vi.advanceTimersByTime(300);
    const b = clock.hold(() => expired.push('b'));
    vi.advanceTimersByTime(300);
    clock.hold(() => expired.push('c'));
    clock.release(b);
    expect(clock.size).toBe(2);
    vi.advanceTimersByTime(399);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['a']);
    vi.advanceTimersByTime(599);
    expect(expired).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['a', 'c']);
    expect(clock.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sets one timer for any number of holds released in turn, and none once nothing is held', () => {
    const clock = new HoldClock(15_000);
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    for (let i = 0; i < 1_000; i++) clock.release(clock.hold(() => expect.fail('released')));
    expect(setTimer).toHaveBeenCalledTimes(1);
    expect(clock.size).toBe(0);
    vi.advanceTimersByTime(15_000);
    expect(vi.getTimerCount()).toBe(0);
    setTimer.mockRestore();
  });

  it('expires the holds still held, in order, when others are released from anywhere in the list', () => {
    const clock = new HoldClock(1_000);
    const expired: number[] = [];
    const holds = Array.from({ length: 100 }, (_, index) => {
      vi.advanceTimersByTime(1);
      return clock.hold(() => expired.push(index));
    });
    const released = new Set([0, 1, 50, 51, 98, 99, ...Array.from({ length: 20 }, (_, k) => 10 + 2 * k)]);
    for (const index of [...released].reverse()) clock.release(holds[index]!);
    for (const index of released) clock.release(holds[index]!);
    expect(clock.size).toBe(100 - released.size);
    vi.advanceTimersByTime(1_000);
    expect(expired).toEqual(Array.from({ length: 100 }, (_, index) => index).filter((index) => !released.has(index)));
    expect(clock.size).toBe(0);
  });

  it('takes a hold begun in an expiry, and releasing an expired hold does nothing', () => {
    const clock = new HoldClock(100);
    const expired: string[] = [];
    const first = clock.hold(() => {
      expired.push('first');
      clock.hold(() => expired.push('second'));
    });
    vi.advanceTimersByTime(100);
    clock.release(first);
    expect(clock.size).toBe(1);
    vi.advanceTimersByTime(100);
    expect(expired).toEqual(['first', 'second']);
    expect(clock.size).toBe(0);
  });
});
