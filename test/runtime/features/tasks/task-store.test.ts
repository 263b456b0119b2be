import { describe, expect, it } from 'vitest';
import { applyTaskChange, InMemoryTaskStore, type StoredTask } from '../../../../runtime/features/tasks/index.js';

const T0 = '2026-01-01T00:00:00.000Z';
const base: StoredTask = { taskId: 't1', owner: null, status: 'working', createdAt: T0, lastUpdatedAt: T0, ttlMs: 1000, expiresAt: 1000 };

describe('applyTaskChange', () => {
  it('asks, answers partially (staying input_required), then all (back to working)', () => {
    const asked = applyTaskChange(base, { ask: { a: { method: 'elicitation/create' }, b: { method: 'elicitation/create' } } }, 'T1');
    expect(asked.status).toBe('input_required');
    const partial = applyTaskChange(asked, { answer: { a: { action: 'accept' }, unknown: 1 } }, 'T2');
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests!)).toEqual(['b']);
    expect(partial.inputResponses).toEqual({ a: { action: 'accept' } });
    const done = applyTaskChange(partial, { answer: { b: { action: 'decline' } } }, 'T3');
    expect(done.status).toBe('working');
    expect(done.lastUpdatedAt).toBe('T3');
  });

  it('keeps the first terminal status: a cancelled task does not complete', () => {
    const cancelled = applyTaskChange(base, { status: 'cancelled' }, 'T1');
    const late = applyTaskChange(cancelled, { status: 'completed', result: { content: [] } }, 'T2');
    expect(late.status).toBe('cancelled');
    expect(late.result).toBeUndefined();
  });

  it('inlines the result only on completion and the error only on failure', () => {
    expect(applyTaskChange(base, { status: 'completed', result: { x: 1 } }, 'T1').result).toEqual({ x: 1 });
    const failed = applyTaskChange(base, { status: 'failed', error: { code: -32603, message: 'boom' }, result: { x: 1 } }, 'T1');
    expect(failed.error).toEqual({ code: -32603, message: 'boom' });
    expect(failed.result).toBeUndefined();
  });
});

describe('InMemoryTaskStore', () => {
  it('stores copies, applies changes and forgets expired tasks', async () => {
    let now = 0;
    const store = new InMemoryTaskStore(() => now);
    await store.create(base);
    await expect(store.create(base)).rejects.toThrow(/already exists/);
    const updated = await store.update('t1', { status: 'completed', result: { ok: true } });
    expect(updated?.status).toBe('completed');
    expect((await store.get('t1'))?.result).toEqual({ ok: true });
    now = 999;
    expect(await store.get('t1')).toBeDefined();
    now = 1000;
    expect(await store.get('t1')).toBeUndefined();
    expect(await store.update('t1', { status: 'failed' })).toBeUndefined();
  });
});
