import { describe, expect, it } from 'vitest';
import { InboundQueue } from '../../../runtime/core/inbound-queue.js';

/** A preparation the test settles by hand. */
function gate(): { promise: Promise<void>; open: () => void; fail: (error: Error) => void } {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

describe('InboundQueue', () => {
  it('delivers synchronously while preparation is synchronous (no microtask on the fast path)', () => {
    const delivered: number[] = [];
    const queue = new InboundQueue<number>({ prepare: () => undefined, deliver: (item) => delivered.push(item), report: () => undefined });
    queue.push(1);
    queue.push(2);
    expect(delivered).toEqual([1, 2]);
  });

  it('holds later items behind a pending preparation and delivers all in arrival order', async () => {
    const delivered: number[] = [];
    const first = gate();
    const queue = new InboundQueue<number>({ prepare: (item) => (item === 1 ? first.promise : undefined), deliver: (item) => delivered.push(item), report: () => undefined });
    queue.push(1);
    queue.push(2);
    queue.push(3);
    expect(delivered).toEqual([]);
    expect(queue.waiting).toBe(2);
    first.open();
    await first.promise;
    await Promise.resolve();
    expect(delivered).toEqual([1, 2, 3]);
    queue.push(4);
    expect(delivered).toEqual([1, 2, 3, 4]);
  });

  it('keeps the order when a waiting item starts a preparation of its own', async () => {
    const delivered: number[] = [];
    const gates = new Map([[1, gate()], [3, gate()]]);
    const queue = new InboundQueue<number>({ prepare: (item) => { const g = gates.get(item); gates.delete(item); return g?.promise; }, deliver: (item) => delivered.push(item), report: () => undefined });
    const one = gates.get(1)!;
    const three = gates.get(3)!;
    for (const item of [1, 2, 3, 4, 5]) queue.push(item);
    one.open();
    await one.promise;
    await Promise.resolve();
    expect(delivered).toEqual([1, 2]);
    queue.push(6);
    three.open();
    await three.promise;
    await Promise.resolve();
    expect(delivered).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('reports a failed preparation and still delivers the item (its handler answers the failure)', async () => {
    const delivered: number[] = [];
    const reported: string[] = [];
    const failing = gate();
    const queue = new InboundQueue<number>({ prepare: (item) => (item === 1 ? failing.promise : undefined), deliver: (item) => delivered.push(item), report: (error) => reported.push(error.message) });
    queue.push(1);
    failing.fail(new Error('import failed'));
    await failing.promise.catch(() => undefined);
    await Promise.resolve();
    await Promise.resolve();
    expect(reported).toEqual(['import failed']);
    expect(delivered).toEqual([1]);
  });

  it('drops and reports what exceeds the backlog limit', async () => {
    const delivered: number[] = [];
    const reported: number[] = [];
    const first = gate();
    const queue = new InboundQueue<number>({ prepare: (item) => (item === 0 ? first.promise : undefined), deliver: (item) => delivered.push(item), report: (_error, item) => reported.push(item) }, 2);
    for (const item of [0, 1, 2, 3]) queue.push(item);
    expect(reported).toEqual([3]);
    first.open();
    await first.promise;
    await Promise.resolve();
    expect(delivered).toEqual([0, 1, 2]);
  });
});
