import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { childController } from '../../../../runtime/transports/http/client-request.js';

describe('childController', () => {
  it('keeps one listener on the parent however many children are in flight', () => {
    const parent = new AbortController();
    const children = Array.from({ length: 64 }, () => childController(parent.signal));
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);
    for (const child of children.slice(0, 32)) child.release();
    parent.abort(new Error('transport closed'));
    // Released children stay untouched; linked ones are aborted with the parent's reason.
    expect(children.slice(0, 32).every((child) => !child.signal.aborted)).toBe(true);
    expect(children.slice(32).every((child) => child.signal.aborted && (child.signal.reason as Error).message === 'transport closed')).toBe(true);
  });

  it('starts aborted when the parent already is', () => {
    const parent = new AbortController();
    parent.abort('gone');
    const child = childController(parent.signal);
    expect(child.signal.aborted).toBe(true);
    expect(child.signal.reason).toBe('gone');
    child.release();
  });
});
