/**
 * The facts of a revision that decide how a transport moves its messages, read from the loaded
 * RevisionModule. The engine hands them to the transport with every outgoing message, and a
 * server transport reads them from the session it serves, so no transport compares revision
 * dates or looks revisions up itself.
 */
import type { Era, RevisionModule } from './contract.js';

/** What a transport needs to know about the revision a message belongs to. */
export interface RevisionFacts {
  /** The revision string (what HTTP mirrors into `MCP-Protocol-Version`). */
  readonly revision: string;
  /** `stateful` (initialize handshake, sessions) or `stateless` (per-request `_meta`, no session). */
  readonly era: Era;
  /** Whether JSON-RPC batches are allowed on the wire. */
  readonly batching: boolean;
  /**
   * Whether the revision's HTTP event streams start with a priming event (an event id with
   * empty data), which makes them resumable from their start and lets the server close a
   * connection for the client to reconnect later (SEP-1699 polling).
   */
  readonly primesStreams: boolean;
}

const cache = new WeakMap<RevisionModule, RevisionFacts>();

/** The transport facts of `module` (computed once per module). */
export function revisionFacts(module: RevisionModule): RevisionFacts {
  let facts = cache.get(module);
  if (facts === undefined) {
    // A stream is primed (an event id, empty data, `retry`) where the revision's transport has priming events and SSE polling.
    const primesStreams = module.features.primingEvents && module.features.ssePolling;
    facts = { revision: module.revision, era: module.era, batching: module.batching, primesStreams };
    cache.set(module, facts);
  }
  return facts;
}
