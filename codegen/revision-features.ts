/**
 * A revision's transport features. The schema tells the eras apart (a stateful revision has
 * `initialize`); the stateless Streamable HTTP has no resumable streams at all, and for a
 * stateful revision TRANSPORT_OVERLAY holds what its transport page states.
 */
import type { MethodSpec } from './method-spec.js';
import type { RevisionModel } from './model.js';
import { TRANSPORT_OVERLAY, type TransportOverlayEntry } from './overlay.js';
import type { RevisionFeatures } from './templates/contract.js';

const NONE: RevisionFeatures = { primingEvents: false, ssePolling: false, resumableStreams: false };

/** The transport page of a revision, the key of its TRANSPORT_OVERLAY entry. */
export function transportPage(revision: string): string {
  return `docs/specification/${revision}/basic/transports.mdx`;
}

/** Derives the features; `warnings` receives a stateful revision the overlay does not know. */
export function revisionFeatures(model: RevisionModel, methods: readonly MethodSpec[], warnings: string[], overlay: Readonly<Record<string, TransportOverlayEntry>> = TRANSPORT_OVERLAY): RevisionFeatures {
  const stateful = methods.some((spec) => spec.definition === 'InitializeRequest');
  if (!stateful) return NONE;
  const page = transportPage(model.pin.revision);
  const entry = overlay[page];
  if (entry === undefined) {
    warnings.push(`revision ${model.pin.revision}: TRANSPORT_OVERLAY has no entry for ${page}; primingEvents, ssePolling and resumableStreams are false`);
    return NONE;
  }
  return { primingEvents: entry.primingEvents, ssePolling: entry.ssePolling, resumableStreams: entry.resumableStreams };
}
