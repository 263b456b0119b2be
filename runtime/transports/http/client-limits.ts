/**
 * The bounds on what the HTTP client transports read from a server: a JSON answer, one event
 * of an event stream, an error body. A server that sends more is cut off as soon as the bound
 * is passed (the body is cancelled), so a hostile or broken server cannot grow the client's
 * memory without bound.
 */
import { SdkError } from '../../core/errors.js';
import type { ClientResponse } from './client-response.js';

/** Default `maxResponseBytes`: 16 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Default `maxEventBytes`: 16 MiB. */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;
/**
 * Most bytes read of an error answer's body (or `maxResponseBytes` when that is smaller): the
 * error keeps an excerpt only, so the rest is discarded unread.
 */
export const ERROR_BODY_BYTES = 64 * 1024;

/** The limits of one transport, with defaults applied. */
export interface ClientLimits {
  readonly maxResponseBytes: number;
  readonly maxEventBytes: number;
  /** Most bytes read of an error body: {@link ERROR_BODY_BYTES}, or `maxResponseBytes` when smaller. */
  readonly errorBodyBytes: number;
}

/** The limit options every HTTP client transport accepts. */
export interface ClientLimitOptions {
  /**
   * Most bytes of a JSON answer (a POST answered with `application/json`); default
   * {@link DEFAULT_MAX_RESPONSE_BYTES} (16 MiB). A larger answer fails its request at once
   * with SdkError('SEND_FAILED') naming this option, and is not read further; one whose
   * `Content-Length` declares more is not read at all.
   */
  readonly maxResponseBytes?: number | undefined;
  /**
   * Most bytes of one event of an event stream, and so of any line of it; default
   * {@link DEFAULT_MAX_EVENT_BYTES} (16 MiB), counted in the stream's UTF-8 bytes. An answer stream that
   * passes it fails its requests at once and is not resumed; the standalone stream is given
   * up; the HTTP+SSE transport closes, because its one stream is the session.
   */
  readonly maxEventBytes?: number | undefined;
}

/** Applies the defaults; refuses a bound that is not a positive integer. */
export function clientLimits(options: ClientLimitOptions): ClientLimits {
  const maxResponseBytes = positive('maxResponseBytes', options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES);
  return {
    maxResponseBytes,
    maxEventBytes: positive('maxEventBytes', options.maxEventBytes, DEFAULT_MAX_EVENT_BYTES),
    errorBodyBytes: Math.min(ERROR_BODY_BYTES, maxResponseBytes),
  };
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new SdkError('INVALID_ARGUMENT', `${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/** A body read up to a bound. */
export interface BoundedText {
  /** The text read: all of it, or the first `maxBytes` bytes when the body was longer. */
  readonly text: string;
  /** Set when the body was longer than the bound, with what was known of its size. */
  readonly overflow?: {
    /** Bytes received before reading stopped (0 when the declared length alone refused it). */
    readonly read: number;
    /** The `Content-Length` the response declared, if it declared one. */
    readonly declared: number | undefined;
  } | undefined;
}

/**
 * Reads `response`'s body as UTF-8 text, at most `maxBytes` of it: once more arrives, or the
 * declared `Content-Length` is larger, the body is cancelled, which ends the connection. A
 * failure of the body itself (reset, abort) rejects.
 */
export async function readBoundedText(response: ClientResponse, maxBytes: number): Promise<BoundedText> {
  const declared = declaredLength(response);
  const body = response.body;
  if (declared !== undefined && declared > maxBytes) {
    await cancel(body?.cancel());
    return { text: '', overflow: { read: 0, declared } };
  }
  if (body === null) return { text: '' };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.byteLength;
      if (read > maxBytes) {
        chunks.push(value.subarray(0, value.byteLength - (read - maxBytes)));
        await cancel(reader.cancel());
        return { text: decode(chunks), overflow: { read, declared } };
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return { text: decode(chunks) };
}

function declaredLength(response: ClientResponse): number | undefined {
  const value = response.headers.get('content-length');
  if (value === null || !/^[0-9]+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** Decodes whole bodies: without `stream`, decoding keeps no state between calls. */
const WHOLE = /* @__PURE__ */ new TextDecoder();

function decode(chunks: readonly Uint8Array[]): string {
  // Most answers arrive in one chunk; a body in several needs a decoder of its own, whose
  // state carries a character split between chunks.
  if (chunks.length === 1) return WHOLE.decode(chunks[0]);
  const decoder = new TextDecoder();
  let text = '';
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** Awaits a cancellation whose failure does not matter: the body is unwanted either way. */
async function cancel(cancelling: Promise<void> | undefined): Promise<void> {
  try {
    await cancelling;
  } catch {
    // Nothing more is read from it.
  }
}
