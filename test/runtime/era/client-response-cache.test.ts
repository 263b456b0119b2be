// ResponseCache on its own: ttl, keys without _meta, eviction rules, bounds.
import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../../runtime/advanced.js';

describe('ResponseCache', () => {
  it('keeps complete results with a positive ttl, keyed without _meta, and hands out copies', () => {
    let now = 0;
    const cache = new ResponseCache({ now: () => now });
    expect(cache.store('tools/list', {}, { resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools: [] })).toBe(false);
    expect(cache.store('tools/call', {}, { resultType: 'input_required', ttlMs: 10 })).toBe(false);
    expect(cache.store('tools/list', { _meta: { a: 1 } }, { resultType: 'complete', ttlMs: 100, cacheScope: 'private', tools: [{ name: 't' }] })).toBe(true);
    const hit = cache.lookup('tools/list', { _meta: { b: 2 } }) as { tools: unknown[] };
    expect(hit.tools).toEqual([{ name: 't' }]);
    hit.tools.push('mutated');
    expect((cache.lookup('tools/list', {}) as { tools: unknown[] }).tools).toHaveLength(1);
    expect(cache.lookup('tools/list', { cursor: 'c' })).toBeUndefined();
    now = 100;
    expect(cache.lookup('tools/list', {})).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts lists on list_changed and reads on resources/updated', () => {
    const cache = new ResponseCache();
    const keep = (method: string, params: unknown): boolean => cache.store(method, params, { resultType: 'complete', ttlMs: 1_000, cacheScope: 'public', items: [] });
    keep('resources/list', {});
    keep('resources/list', { cursor: 'p2' });
    keep('resources/templates/list', {});
    keep('resources/read', { uri: 'a://1' });
    keep('resources/read', { uri: 'a://2' });
    keep('tools/list', {});
    expect(cache.evict('notifications/resources/list_changed', undefined)).toBe(3);
    expect(cache.evict('notifications/resources/updated', { uri: 'a://1' })).toBe(1);
    expect(cache.lookup('resources/read', { uri: 'a://2' })).toBeDefined();
    expect(cache.evict('notifications/message', {})).toBe(0);
    expect(cache.evict('notifications/tools/list_changed', {})).toBe(1);
    expect(cache.size).toBe(1);
  });

  it('forgets the oldest entries beyond maxEntries', () => {
    const cache = new ResponseCache({ maxEntries: 2 });
    for (const uri of ['a://1', 'a://2', 'a://3']) cache.store('resources/read', { uri }, { resultType: 'complete', ttlMs: 1_000, cacheScope: 'public', contents: [] });
    expect(cache.lookup('resources/read', { uri: 'a://1' })).toBeUndefined();
    expect(cache.lookup('resources/read', { uri: 'a://3' })).toBeDefined();
  });
});
