import type { RevisionModule } from './contract.js';
import type { Side } from './method-table.js';

/** The per-request timeout used when neither the engine nor the call sets one: 60 seconds. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

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
  /** Receives problems that have no caller to reject (see {@link Protocol.onerror}). */
  readonly onerror?: ((error: Error) => void) | undefined;
}
