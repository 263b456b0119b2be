/**
 * The module of the tasks extension's core revision (the revision whose definitions its schema
 * re-declares, and whose results answer a task's questions). The tasks entry imports no
 * revision module of its own: a build pinned to another revision must not carry this one in.
 */
import { coreRevision } from '../../../generated/extensions/tasks/index.js';
import type { RevisionModule } from '../../core/contract.js';
import { defaultLoader } from '../../core/revisions.js';
import type { ExtensionEndpoint as Endpoint } from '../../peers/extension.js';

/**
 * The core revision's module: the one `endpoint` negotiated when it speaks that revision (the
 * instance a statically pinned program supplied), else the process's lazily loaded copy.
 */
export async function coreRevisionModule(endpoint: Endpoint | undefined): Promise<RevisionModule> {
  const bound = endpoint?.protocol.revision;
  if (bound?.revision === coreRevision) return bound;
  return await defaultLoader.load(coreRevision);
}
