/** The per-request shallow copy, and the result envelope built with it. */
import { describe, expect, it } from 'vitest';
import { ownCopy } from '../../../runtime/era/own-copy.js';
import { finishResult } from '../../../runtime/era/meta.js';

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

describe('ownCopy', () => {
  it('copies own enumerable members in order, not inherited or hidden ones', () => {
    const proto = { inherited: 1 };
    const value = Object.create(proto) as Record<string, unknown>;
    value.b = 2;
    value.a = [1];
    Object.defineProperty(value, 'hidden', { value: 3, enumerable: false });
    const copy = ownCopy(value);
    expect(Object.keys(copy)).toEqual(['b', 'a']);
    expect(copy.a).toBe(value.a);
    expect(copy).not.toBe(value);
  });
});

describe('finishResult', () => {
  const serverInfo = { name: 's', version: '1' };

  it('adds resultType and the identity without touching the handler result', () => {
    const result = { content: [], _meta: { trace: 't' } };
    const finished = finishResult(result, serverInfo);
    expect(finished).toEqual({ content: [], resultType: 'complete', _meta: { trace: 't', [SERVER_INFO]: serverInfo } });
    expect(result).toEqual({ content: [], _meta: { trace: 't' } });
  });

  it('keeps a resultType of its own and fills cache hints only for complete cacheable results', () => {
    expect(finishResult({ tools: [], ttlMs: 5 }, serverInfo, true)).toMatchObject({ resultType: 'complete', ttlMs: 5, cacheScope: 'private' });
    expect(finishResult({ resultType: 'input_required' }, serverInfo, true)).not.toHaveProperty('ttlMs');
    expect(finishResult({}, serverInfo)._meta).toBe(finishResult({}, serverInfo)._meta);
  });
});
