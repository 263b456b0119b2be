import { revisionModules } from '../../generated/all.js';
import type { RevisionModule } from './contract.js';
import { eras, releasedRevisions } from '../../generated/index.js';

/**
 * Released revisions of the stateful era, oldest first: the versions a Client or Server
 * negotiates over `initialize` unless told otherwise. Comes from codegen's pin list, so a new
 * revision needs no edit here.
 */
export const statefulRevisions: readonly string[] = releasedRevisions.filter((revision) => eras[revision] === 'stateful');

/**
 * Released revisions of the stateless era (2026-07-28 on), oldest first: served per request
 * from the `_meta` every request carries, with no handshake.
 */
export const statelessRevisions: readonly string[] = releasedRevisions.filter((revision) => eras[revision] === 'stateless');

/** The module of a pinned revision; throws for an unknown one. */
export function revisionModule(revision: string): RevisionModule {
  const module = revisionModules[revision];
  if (module === undefined) throw new RangeError(`Unknown MCP protocol revision ${JSON.stringify(revision)}`);
  return module;
}

/**
 * The stateful revisions an endpoint speaks, oldest first. Without a `pool` they come from the
 * generated pins (released ones only); with one, from the modules the caller supplies, which is
 * how a freshly generated revision is used before it is pinned. `requested` narrows the choice.
 */
export function resolveSupported(requested: readonly string[] | undefined, pool?: readonly RevisionModule[]): RevisionModule[] {
  return resolveRevisions(requested, pool, ['stateful']);
}

/**
 * Like {@link resolveSupported}, for the eras given: a dual-era Server resolves both, so that
 * one server object speaks every revision. The result is sorted oldest first.
 */
export function resolveRevisions(requested: readonly string[] | undefined, pool: readonly RevisionModule[] | undefined, allowed: readonly RevisionModule['era'][]): RevisionModule[] {
  const candidates = (pool ?? Object.values(revisionModules).filter((module) => module.status === 'released'))
    .filter((module) => allowed.includes(module.era))
    .sort((a, b) => (a.revision < b.revision ? -1 : a.revision > b.revision ? 1 : 0));
  if (candidates.length === 0) throw new RangeError(`No ${allowed.join(' or ')} protocol revision is available`);
  if (requested === undefined) return candidates;
  if (requested.length === 0) throw new RangeError('At least one protocol revision must be supported');
  return [...requested].sort().map((revision) => {
    const module = candidates.find((candidate) => candidate.revision === revision);
    if (module === undefined) {
      throw new RangeError(`Protocol revision ${revision} is not a released ${allowed.join(' or ')} revision (${candidates.map((c) => c.revision).join(', ')})`);
    }
    return module;
  });
}
