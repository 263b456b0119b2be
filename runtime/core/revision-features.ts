import type { RevisionFeatures } from './contract.js';
import { revisionFeatures } from '../../generated/index.js';

const NONE: RevisionFeatures = { primingEvents: false, ssePolling: false, resumableStreams: false };

/**
 * The transport features of a pinned revision, read from the generated table without loading
 * the revision's module (a transport knows the negotiated revision by its name only). An
 * unknown or absent revision has none, so nothing optional is sent to a peer that may not
 * expect it.
 */
export function featuresOf(revision: string | undefined): RevisionFeatures {
  if (revision === undefined || !Object.hasOwn(revisionFeatures, revision)) return NONE;
  return revisionFeatures[revision as keyof typeof revisionFeatures];
}
