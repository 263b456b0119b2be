/**
 * The small request/reply abstraction the HTTP server core is written against. Adapters turn a
 * platform request (Fetch `Request`, Node `IncomingMessage`) into an {@link HttpRequestView}
 * and write an {@link HttpReply} back in the platform's own way, so the core never touches a
 * platform stream type and the Node adapter needs no Web-stream round trip.
 */

/** Response headers as plain name → value pairs. */
export type HeaderMap = Record<string, string>;

/** The outcome of reading a request body with a size limit. */
export type BodyText =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: 'too-large' | 'invalid-utf8' | 'unreadable' | 'busy' };

/**
 * The handler's share of request-body bytes in flight. Adapters take a declared
 * Content-Length up front, or each chunk as it arrives; `take` returning false means the body
 * must not be read (the reason is then `busy`).
 */
export interface BodyBudget {
  take(bytes: number): boolean;
}

/** An inbound HTTP request as the core handler sees it. Adapters build one per request. */
export interface HttpRequestView {
  /** The request method in upper case. */
  readonly method: string;
  /** The URL path without the query, e.g. `/mcp`. */
  readonly path: string;
  /** The query parameters. */
  readonly query: URLSearchParams;
  /** A header value by case-insensitive name; repeated headers are joined with `, `. */
  header(name: string): string | undefined;
  /**
   * Reads the whole body as UTF-8 text, giving up as soon as it exceeds `maxBytes` so that an
   * oversized body is never buffered. Called at most once per request. With a `budget`, the
   * bytes are taken from it first (see {@link BodyBudget}).
   */
  readBody(maxBytes: number, budget?: BodyBudget): Promise<BodyText>;
  /** Aborts when the client goes away before the reply was handed over, where the platform tells. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Calls `listener` once if the client goes away before the reply was handed over. Adapters
   * with a close event of their own provide it so that a request that never asks for `signal`
   * costs no AbortController; {@link onClientGone} falls back to `signal` without it.
   */
  whenGone?(listener: () => void): void;
  /** The local address the request arrived on (e.g. `127.0.0.1`), where the platform tells. */
  readonly localAddress?: string | undefined;
  /** Credentials verified by the endpoint's bearer check (`auth` option), passed on to handlers. */
  readonly authInfo?: unknown;
}

/**
 * Where a streamed reply goes. The adapter owns the platform stream; the core writes text
 * chunks, ends the stream, and learns when the client disconnected.
 */
export interface StreamSink {
  /** Writes one chunk; a no-op once the stream ended. */
  write(chunk: string): void;
  /** Ends the response. */
  end(): void;
  /** Registers the one listener called when the stream ends, from either side. */
  onclose(listener: () => void): void;
}

/** A reply whose whole body is known up front (JSON, an error, or no body at all). */
export interface BodyReply {
  readonly kind: 'body';
  readonly status: number;
  readonly headers: HeaderMap;
  /** The body text; absent for 202/204-style replies. */
  readonly body?: string | undefined;
  /** Closes the connection after the reply, where the platform allows (a body left unread). */
  readonly closeConnection?: boolean | undefined;
}

/**
 * A streamed reply (Server-Sent Events). The adapter writes status and headers, then calls
 * `open` exactly once with a sink for the body.
 */
export interface StreamReply {
  readonly kind: 'stream';
  readonly status: number;
  readonly headers: HeaderMap;
  open(sink: StreamSink): void;
}

/** What the core answers a request with. */
export type HttpReply = BodyReply | StreamReply;

/** Live resource counts of one handler, exposed for introspection and leak checks. */
export interface ResourceCounts {
  /** SSE responses currently open. */
  connections: number;
  /** Timers currently armed (keep-alive intervals, idle sweeps); reply holds are counted by their HoldClock. */
  timers: number;
}

/**
 * Most bytes an adapter buffers for an SSE client that stops reading; beyond it the response
 * is cut, as if the client had disconnected (with an event store, it can still resume).
 */
export const MAX_BUFFERED_SSE_BYTES = 16 * 1024 * 1024;

/**
 * Calls `listener` once if the client of `request` goes away before its reply was handed over,
 * through the view's `whenGone`, else its `signal`; a platform that tells neither never calls.
 */
export function onClientGone(request: Pick<HttpRequestView, 'signal' | 'whenGone'>, listener: () => void): void {
  if (request.whenGone !== undefined) {
    request.whenGone(listener);
    return;
  }
  const signal = request.signal;
  if (signal === undefined) return;
  if (signal.aborted) listener();
  else signal.addEventListener('abort', listener, { once: true });
}

/** Releases a reply nobody will deliver: a streamed one gets a sink that is already closed. */
export function discardReply(reply: HttpReply): void {
  if (reply.kind === 'stream') {
    reply.open({ write: () => undefined, end: () => undefined, onclose: (listener) => queueMicrotask(listener) });
  }
}

/** Returns `reply` with `extra` headers added (existing names win only when `extra` lacks them). */
export function withHeaders(reply: HttpReply, extra: HeaderMap): HttpReply {
  let empty = true;
  for (const name in extra) {
    if (Object.hasOwn(extra, name)) {
      empty = false;
      break;
    }
  }
  if (empty) return reply;
  // Object.assign, not spreads followed by members, which V8 builds on a slow path.
  return Object.assign({}, reply, { headers: Object.assign({}, reply.headers, extra) });
}
