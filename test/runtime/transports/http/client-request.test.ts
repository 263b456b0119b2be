import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RequestAbort } from '../../../../runtime/transports/http/client-request.js';

describe('RequestAbort', () => {
  it('keeps one listener on the parent however many children are in flight', () => {
    const parent = new AbortController();
    const children = Array.from({ length: 64 }, () => new RequestAbort(parent.signal));
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);
    for (const child of children.slice(0, 32)) child.release();
    parent.abort(new Error('transport closed'));
    // Released children stay untouched; linked ones are aborted with the parent's reason.
    expect(children.slice(0, 32).every((child) => !child.aborted && !child.signal.aborted)).toBe(true);
    expect(children.slice(32).every((child) => child.aborted && (child.reason as Error).message === 'transport closed')).toBe(true);
    expect(children.slice(32).every((child) => child.signal.aborted && (child.signal.reason as Error).message === 'transport closed')).toBe(true);
  });

  it('aborts exactly the children still linked when they join and leave in any order', () => {
    const parent = new AbortController();
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const linked = new Set<RequestAbort>();
    const released: RequestAbort[] = [];
    for (let step = 0; step < 5_000; step++) {
      if (linked.size > 0 && random() < 0.5) {
        const child = [...linked][Math.floor(random() * linked.size)]!;
        child.release();
        child.release();
        linked.delete(child);
        released.push(child);
      } else {
        linked.add(new RequestAbort(parent.signal));
      }
    }
    parent.abort('closed');
    expect(linked.size).toBeGreaterThan(0);
    expect([...linked].every((child) => child.aborted && child.reason === 'closed')).toBe(true);
    expect(released.every((child) => !child.aborted)).toBe(true);
  });

  it('starts aborted when the parent already is', () => {
    const parent = new AbortController();
    parent.abort('gone');
    const child = new RequestAbort(parent.signal);
    expect([child.aborted, child.reason]).toEqual([true, 'gone']);
    expect(child.signal.aborted).toBe(true);
    expect(child.signal.reason).toBe('gone');
    child.release();
  });

  it('tells hooks and a signal asked for before or after, once, with the first reason', () => {
    const abort = new RequestAbort();
    const early = abort.signal;
    const heard: string[] = [];
    abort.whenAborted(() => heard.push('kept'));
    const detach = abort.whenAborted(() => heard.push('detached'));
    detach();
    abort.abort('first');
    abort.abort('second');
    abort.whenAborted(() => heard.push('late'));
    expect(heard).toEqual(['kept', 'late']);
    expect([early.aborted, early.reason, abort.reason]).toEqual([true, 'first', 'first']);
    expect(abort.signal.reason).toBe('first');
  });

  it('tells each of several hooks once, in the order given, and not those detached, whichever came first', () => {
    const abort = new RequestAbort();
    const heard: string[] = [];
    const detachFirst = abort.whenAborted(() => heard.push('first'));
    abort.whenAborted(() => heard.push('second'));
    detachFirst();
    abort.whenAborted(() => heard.push('third'));
    const detachFourth = abort.whenAborted(() => heard.push('fourth'));
    detachFourth();
    abort.abort('gone');
    expect(heard).toEqual(['second', 'third']);
  });

  it('aborts with an AbortError when no reason is given, as AbortController does', () => {
    const abort = new RequestAbort();
    abort.abort();
    expect((abort.reason as DOMException).name).toBe('AbortError');
    expect((abort.signal.reason as DOMException).name).toBe('AbortError');
  });
});
