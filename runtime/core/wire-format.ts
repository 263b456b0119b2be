/**
 * Text encoding of JSON-RPC frames. This is the only place raw text becomes a value, so every
 * text-based transport reports undecodable input the same way.
 */
import type { JSONRPCMessage, RequestId } from './jsonrpc.js';

/** Why an inbound frame could not be turned into a value. */
export type ParseFailureKind = 'invalid-json' | 'oversized';

/** What the leading members of a cut frame tell. */
export interface FrameHead {
  /** The `id` member, when it came before the first structured member. */
  readonly id?: RequestId | undefined;
  /** The `method` member, when it came before the first structured member. */
  readonly method?: string | undefined;
  /** Whether a `result` or `error` member was reached, which makes the frame a response. */
  readonly response: boolean;
}

/** What a transport knows about an `oversized` frame besides its being too large. */
export interface OversizedFrame {
  /** The cap the frame exceeded, in bytes. */
  readonly limit: number;
  /** The envelope read from the frame's first bytes, when they start like an object. */
  readonly head?: FrameHead | undefined;
}

/**
 * Delivered through `Transport.onmessage` in place of a value when a frame cannot be decoded.
 * The engine answers it with an error whose id is null, because no id can be known, unless an
 * oversized frame's head names one: then a request is refused with its own id and a response
 * fails the outgoing request it answered.
 */
export class ParseFailure {
  readonly kind: ParseFailureKind;
  /** What went wrong, suitable for an error reply. */
  readonly detail: string;
  /** Set for `oversized` frames whose transport could measure and peek at them. */
  readonly oversized?: OversizedFrame | undefined;

  constructor(kind: ParseFailureKind, detail: string, oversized?: OversizedFrame) {
    this.kind = kind;
    this.detail = detail;
    if (oversized !== undefined) {
      this.oversized = oversized;
    }
  }
}

/** Serialises one message or a batch as compact JSON text (no trailing newline). */
export function encodeMessage(message: JSONRPCMessage | readonly JSONRPCMessage[]): string {
  return JSON.stringify(message);
}

/** Parses one frame of text into a JSON value, or a ParseFailure when it is not JSON. */
export function decodeMessage(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid JSON';
    return new ParseFailure('invalid-json', reason);
  }
}
