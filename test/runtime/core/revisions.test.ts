// The revision sets endpoints speak: sets of the generated pins are shared per choice, since an
// endpoint is built per stateless HTTP request; sets of caller-supplied modules or loaders are not.
import { describe, expect, it } from 'vitest';
import { resolveRevisions } from '../../../runtime/core/revisions.js';
import { releasedRevisions } from '../../../generated/index.js';

describe('resolveRevisions', () => {
  it('hands out one set per choice of the generated pins, whatever order the revisions are named in', () => {
    const both = resolveRevisions(undefined, undefined, ['stateful', 'stateless']);
    expect(resolveRevisions(undefined, undefined, ['stateful', 'stateless'])).toBe(both);
    expect(resolveRevisions(undefined, undefined, ['stateful'])).not.toBe(both);
    const [older, newer] = releasedRevisions;
    const picked = resolveRevisions([older!, newer!], undefined, ['stateful', 'stateless']);
    expect(resolveRevisions([newer!, older!], undefined, ['stateful', 'stateless'])).toBe(picked);
    expect(picked.revisions).toEqual([older, newer].sort());
    expect(picked).not.toBe(both);
  });

  it('shares only sets whose choice names each revision once, so the shared table stays within the subsets of the released revisions', () => {
    const [older] = releasedRevisions;
    const repeated = Array.from({ length: 3 }, () => older!);
    const first = resolveRevisions(repeated, undefined, ['stateful', 'stateless']);
    expect(resolveRevisions(repeated, undefined, ['stateful', 'stateless'])).not.toBe(first);
    expect(first.revisions).toEqual(repeated);
  });

  it('builds a set of its own for a loader of the caller, and still refuses an unknown revision every time', () => {
    const loader = { load: () => Promise.reject(new Error('not here')) };
    const first = resolveRevisions(undefined, undefined, ['stateful'], loader);
    expect(resolveRevisions(undefined, undefined, ['stateful'], loader)).not.toBe(first);
    expect(() => resolveRevisions(['1999-01-01'], undefined, ['stateful'])).toThrow(RangeError);
    expect(() => resolveRevisions(['1999-01-01'], undefined, ['stateful'])).toThrow(RangeError);
  });

  it('answers ofEra from the set, oldest first', () => {
    const set = resolveRevisions(undefined, undefined, ['stateful', 'stateless']);
    expect(set.ofEra('stateful')).toBe(set.ofEra('stateful'));
    expect([...set.ofEra('stateful'), ...set.ofEra('stateless')].sort()).toEqual([...set.revisions].sort());
  });
});
