// A revision set's answers about methods: the capability gate of a method comes from the first
// revision of the set (oldest first) that gates it, and stays the same however often it is asked.
import { describe, expect, it } from 'vitest';
import { resolveRevisions } from '../../../runtime/core/revisions.js';
import { revisionFacts } from '../../../generated/facts.js';
import type { CapabilityGate } from '../../../generated/contract.js';

/** The gate the first of `revisions` that gates `method` names, read from the generated facts. */
function firstGate(revisions: readonly string[], method: string): CapabilityGate | null {
  for (const revision of revisions) {
    const gate = revisionFacts[revision]!.methods[method]?.capability;
    if (gate) return gate;
  }
  return null;
}

describe('RevisionSet.gateOf', () => {
  it('names the gate of the first revision that gates a method, on every asking', () => {
    const set = resolveRevisions(undefined, undefined, ['stateful', 'stateless']);
    const methods = new Set(set.revisions.flatMap((revision) => Object.keys(revisionFacts[revision]!.methods)));
    expect(methods.size).toBeGreaterThan(20);
    for (const method of [...methods, 'no/such/method']) {
      const expected = firstGate(set.revisions, method);
      expect(set.gateOf(method), method).toEqual(expected);
      expect(set.gateOf(method), `${method}, asked again`).toEqual(expected);
    }
  });

  it('answers from its own revisions only: a set without the revision that gates a method finds no gate', () => {
    const both = resolveRevisions(undefined, undefined, ['stateful', 'stateless']);
    const gated = both.revisions.flatMap((revision) => Object.keys(revisionFacts[revision]!.methods).map((method) => ({ revision, method })))
      .find(({ method }) => both.revisions.some((revision) => revisionFacts[revision]!.methods[method] === undefined) && firstGate(both.revisions, method) !== null);
    expect(gated).toBeDefined();
    const without = both.revisions.filter((revision) => revisionFacts[revision]!.methods[gated!.method] === undefined);
    expect(both.gateOf(gated!.method)).not.toBeNull();
    expect(resolveRevisions(without, undefined, ['stateful', 'stateless']).gateOf(gated!.method)).toBeNull();
  });
});

describe('RevisionSet.module', () => {
  it('answers each revision with its own module however the asking alternates, and a revision not loaded with nothing', async () => {
    const set = resolveRevisions(undefined, undefined, ['stateful', 'stateless']);
    const [older, newer] = [set.revisions[0]!, set.revisions[set.revisions.length - 1]!];
    const first = await set.load(newer);
    expect(set.module(newer)).toBe(first);
    // The last module found must not answer for another revision (the loader may hold this one already).
    const before = set.module(older);
    expect(before === undefined || before.revision === older).toBe(true);
    const second = await set.load(older);
    for (const [revision, module] of [[older, second], [newer, first], [newer, first], [older, second]] as const) {
      expect(set.module(revision)?.revision).toBe(revision);
      expect(set.module(revision)).toBe(module);
    }
    expect(set.module('1999-01-01')).toBeUndefined();
  });
});
