/**
 * The error HTTP client transports raise when an HTTP exchange fails: a non-success status, a
 * body that cannot be used, a network failure or a timeout. It keeps the status so that
 * callers (and the Streamable HTTP → HTTP+SSE fallback) can tell the cases apart.
 */
import { TransportError } from '../../core/errors.js';
import { isJsonObject, type JSONRPCErrorObject } from '../../core/jsonrpc.js';
import { ERROR_BODY_BYTES, readBoundedText } from './client-limits.js';
import type { ClientResponse } from './client-response.js';

/** How much of an error body the error keeps and quotes. */
const BODY_EXCERPT_CHARS = 1_000;

/** Construction details of an {@link HttpTransportError}. */
export interface HttpTransportErrorDetails {
  /** The HTTP method of the failed exchange. */
  readonly method: string;
  /** The URL it was sent to. */
  readonly url: string;
  /** The response status; absent when no response arrived (network failure, timeout). */
  readonly status?: number | undefined;
  /** The response's status text. */
  readonly statusText?: string | undefined;
  /** The start of the response body, when there was one. */
  readonly body?: string | undefined;
  /** The JSON-RPC error object the body carried, if it was a JSON-RPC error response. */
  readonly rpcError?: JSONRPCErrorObject | undefined;
  /** How long the response's `Retry-After` asked to wait, in milliseconds, if it did. */
  readonly retryAfterMs?: number | undefined;
  /** The underlying failure (the fetch rejection, the abort reason…). */
  readonly cause?: unknown;
}

/**
 * An HTTP exchange of a client transport failed. Its `status` and `rpcError` are those of the
 * core {@link TransportError}, which is what peers read.
 */
export class HttpTransportError extends TransportError {
  /** The HTTP method of the failed exchange. */
  readonly method: string;
  /** The URL it was sent to. */
  readonly url: string;
  /** The response's status text, if any. */
  readonly statusText: string | undefined;
  /** The start of the response body (at most 1000 characters), if any. */
  readonly body: string | undefined;
  /** How long the response's `Retry-After` asked to wait, in milliseconds, if it did. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, details: HttpTransportErrorDetails) {
    super(message, details);
    this.name = 'HttpTransportError';
    this.method = details.method;
    this.url = details.url;
    this.statusText = details.statusText;
    this.body = details.body;
    this.retryAfterMs = details.retryAfterMs;
  }

  /**
   * Builds the error for a response with an unexpected status, reading (and so releasing)
   * its body. The message names the status and quotes the JSON-RPC error or the body text,
   * because that is usually what tells a user what went wrong. At most `maxBytes` of the body
   * are read (default {@link ERROR_BODY_BYTES}); the rest is discarded unread.
   */
  static async fromResponse(method: string, url: URL | string, response: ClientResponse, what?: string, maxBytes = ERROR_BODY_BYTES): Promise<HttpTransportError> {
    const text = await readText(response, maxBytes);
    const rpcError = rpcErrorOf(text);
    const body = text === undefined || text.length <= BODY_EXCERPT_CHARS ? text : `${text.slice(0, BODY_EXCERPT_CHARS)}…`;
    const status = `HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
    const detail = rpcError !== undefined ? `: ${rpcError.message}` : body === undefined || body.trim() === '' ? '' : `: ${body.trim()}`;
    return new HttpTransportError(`${what ?? `${method} ${String(url)}`} failed with ${status}${detail}`, {
      method,
      url: String(url),
      status: response.status,
      statusText: response.statusText,
      body,
      rpcError,
      retryAfterMs: retryAfterOf(response.headers.get('retry-after')),
    });
  }
}

/** A `Retry-After` value (seconds, or an HTTP date) in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterOf(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d{1,9}$/.test(value.trim())) return Number(value.trim()) * 1_000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Finds an HttpTransportError in an error or its `cause` chain (SdkError wraps it as its cause). */
export function findHttpTransportError(error: unknown): HttpTransportError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (current instanceof HttpTransportError) {
      return current;
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

async function readText(response: ClientResponse, maxBytes: number): Promise<string | undefined> {
  try {
    return (await readBoundedText(response, maxBytes)).text;
  } catch {
    return undefined;
  }
}

function rpcErrorOf(body: string | undefined): JSONRPCErrorObject | undefined {
  if (body === undefined || body.trim() === '') {
    return undefined;
  }
  try {
    const value = JSON.parse(body) as unknown;
    const error = isJsonObject(value) ? value.error : undefined;
    if (isJsonObject(error) && typeof error.code === 'number' && typeof error.message === 'string') {
      return { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
    }
  } catch {
    // Not JSON: the text excerpt is all there is.
  }
  return undefined;
}
