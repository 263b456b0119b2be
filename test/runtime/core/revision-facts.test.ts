import { describe, expect, it } from 'vitest';
import { revisionModules } from '../../../generated/all.js';
import { statefulRevisions, statelessRevisions } from '../../../runtime/core/revisions.js';
const revisionModule = (revision: string) => revisionModules[revision]!;
import { revisionFacts } from '../../../runtime/core/revision-facts.js';

describe('revisionFacts', () => {
  it('reads the revision, era and batching from the module, once per module', () => {
    const module = revisionModule(statefulRevisions[0]!);
    const facts = revisionFacts(module);
    expect(facts).toMatchObject({ revision: module.revision, era: 'stateful', batching: module.batching });
    expect(revisionFacts(module)).toBe(facts);
  });

  it('primes streams in the stateful revisions that have SSE polling and never in the stateless era', () => {
    expect(revisionFacts(revisionModule('2025-11-25')).primesStreams).toBe(true);
    expect(revisionFacts(revisionModule('2025-06-18')).primesStreams).toBe(false);
    for (const revision of statelessRevisions) expect(revisionFacts(revisionModule(revision)).primesStreams).toBe(false);
  });
});
