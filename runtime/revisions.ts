import { revisionModules } from '../generated/all.js';
import type { RevisionModule } from './contract.js';
import { eras, releasedRevisions } from '../generated/index.js';

/**
 * Released revisions of the stateful era, oldest first: the versions a Client or Server
 * negotiates over `initialize` unless told otherwise. Comes from codegen's pin list, so a new
 * revision needs no edit here.
 */
export const statefulRevisions: readonly string[] = releasedRevisions.filter((revision) => eras[revision] === 'stateful');

/** The module of a pinned revision; throws for an unknown one. */
export function revisionModule(revision: string): RevisionModule {
  const module = revisionModules[revision];
  if (module === undefined) throw new RangeError(`Unknown MCP protocol revision ${JSON.stringify(revision)}`);
  return module;
}

/** Checks a user-supplied list of revisions against the era and the pins; returns it oldest first. */
export function resolveSupported(requested: readonly string[] | undefined): string[] {
  const list = requested ?? statefulRevisions;
  if (list.length === 0) throw new RangeError('At least one protocol revision must be supported');
  for (const revision of list) {
    revisionModule(revision);
    if (!statefulRevisions.includes(revision)) {
      throw new RangeError(`Protocol revision ${revision} is not a released stateful revision (${statefulRevisions.join(', ')})`);
    }
  }
  return [...list].sort();
}
