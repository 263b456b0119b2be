import type { RevisionModule } from './contract.js';
import type { MethodTable, Side } from './method-table.js';
import type { PendingRequests } from './pending-requests.js';

/** The per-request timeout used when neither the engine nor the call sets one: 60 seconds. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** What the parts of one engine share, settled once from its options. */
export interface EngineParts {
  readonly side: Side;
  readonly methods: MethodTable;
  /** Outgoing requests, which incoming responses and progress notifications settle. */
  readonly pending: PendingRequests;
  readonly validateIncoming: boolean;
  readonly validateOutgoing: boolean;
  /** Receives problems nobody can be answered about. */
  report(error: Error): void;
}

/** Construction options of a {@link Protocol}. */
export interface ProtocolOptions {
  /** The role this engine plays; it accepts only methods the other role may send. */
  readonly side: Side;
  /** The revision to speak; may be bound later with `setRevision()` once negotiated. */
  readonly revision?: RevisionModule | undefined;
  /**
   * Validate everything incoming: request params, response results and notification params.
   * Default true; `false` turns all incoming checks off (method lookup still applies).
   */
  readonly validate?: boolean | undefined;
  /**
   * Validate everything this side sends: handler results (a bad one is answered with an internal
   * error and reported), and params of outgoing requests and notifications (rejected locally
   * with SdkError('INVALID_PARAMS')). Default true.
   */
  readonly validateOutgoing?: boolean | undefined;
  /**
   * How deeply objects and arrays may nest in an inbound message, the message itself being
   * level 1: default 100 (`DEFAULT_MAX_NESTING_DEPTH`), an integer from 2 to 1,000. A
   * deeper request is answered -32602 naming the path before any handler, validator or digest
   * reads it; a deeper notification is dropped and a deeper response fails its request, both
   * reported. Validators, request-state digests and JSON.stringify recurse, and a deep enough
   * value would overflow their stack.
   */
  readonly maxNestingDepth?: number | undefined;
  /** Timeout of outgoing requests that set none themselves; default {@link DEFAULT_REQUEST_TIMEOUT_MS}. */
  readonly defaultTimeoutMs?: number | undefined;
  /**
   * Most of the peer's requests whose handlers run at once on this connection; default 16 for
   * a client and 256 for a server (see DEFAULT_INBOUND_LIMITS). A request finds its place
   * taken until its reply has been handed to the transport; later requests wait in arrival
   * order. `Infinity` removes the bound.
   */
  readonly maxConcurrentInbound?: number | undefined;
  /**
   * Most requests that wait for a place beyond those; default 1,000 for a client and 10,000
   * for a server. A request beyond both is answered at once with an internal error (-32603)
   * saying the endpoint is overloaded, never dropped. A waiting request the peer cancels
   * leaves the queue unanswered, as cancellation requires.
   */
  readonly maxQueuedInbound?: number | undefined;
  /** Receives problems that have no caller to reject (see {@link Protocol.onerror}). */
  readonly onerror?: ((error: Error) => void) | undefined;
}
