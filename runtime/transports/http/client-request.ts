/**
 * The HTTP plumbing shared by the client transports: header assembly (user headers, which may
 * be computed per request, under the transport's protocol headers), the user's `fetch` and
 * `RequestInit` or `httpClient`, and a timeout that covers the wait for the response headers only, so that a
 * long-lived event stream is never cut by it.
 */
import { messageOf } from '../../core/errors.js';
import { decodeMessage, ParseFailure } from '../../core/wire-format.js';
import { HttpTransportError } from './client-errors.js';
import { clientLimits, readBoundedText, type ClientLimitOptions, type ClientLimits } from './client-limits.js';
import type { AbortHook, ClientResponse, HttpClient } from './client-response.js';

/** The subset of `fetch` the transports call; pass a wrapper to add auth, logging or proxies. */
export type FetchLike = (url: URL, init: RequestInit) => Promise<Response>;

/**
 * Extra headers for every request: fixed, or a function called before each request (e.g. to
 * attach a fresh access token).
 */
export type HeadersSource = HeadersInit | (() => HeadersInit | Promise<HeadersInit>);

/** Options every HTTP client transport accepts, its read limits included. */
export interface HttpClientOptions extends ClientLimitOptions {
  /** The fetch implementation; default `globalThis.fetch`. Takes precedence over `httpClient`. */
  readonly fetch?: FetchLike | undefined;
  /**
   * Sends the requests in place of fetch, e.g. mcpgen/node's `nodeHttpClient()` (keep-alive
   * `node:http`, much cheaper per message than fetch on Node). A `fetch` option takes
   * precedence; with `authProvider`, OAuth wraps a fetch over this client, so its requests
   * still travel on it. Of `requestInit` it honours `headers` and `redirect` only.
   */
  readonly httpClient?: HttpClient | undefined;
  /** Headers added to every request; the transport's protocol headers take precedence. */
  readonly headers?: HeadersSource | undefined;
  /**
   * Base `RequestInit` for every request (credentials, mode, a dispatcher…). `method`, `body`
   * and `signal` are the transport's own; its `headers` come first, under `headers` above.
   */
  readonly requestInit?: RequestInit | undefined;
  /**
   * How long to wait for the response headers of each HTTP request, in milliseconds; no limit
   * by default, because a server answering with `application/json` sends its headers only once
   * the result is ready. Streams that are already open are never timed out.
   */
  readonly requestTimeoutMs?: number | undefined;
}

/** One HTTP request the transports make. */
export interface OutgoingHttpRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: URL;
  /** Protocol headers; they override user headers of the same name. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  /**
   * Aborts the request and, later, its response body. The requester aborts it itself when
   * the headers do not arrive in time, so it must belong to this one request.
   */
  readonly abort: RequestAbort;
  /** Overrides the requester's `requestTimeoutMs` for this request. */
  readonly timeoutMs?: number | undefined;
}

/** Sends the transports' HTTP requests with the user's fetch, headers and init. */
export class HttpRequester {
  /** The bounds on what is read of the answers, with defaults applied. */
  readonly limits: ClientLimits;
  private readonly options: HttpClientOptions;

  constructor(options: HttpClientOptions) {
    this.options = options;
    this.limits = clientLimits(options);
  }

  /**
   * Sends `request` and resolves with the response once its headers arrived, whatever its
   * status. Rejects with an HttpTransportError (no status) when no response arrives: network
   * failure, timeout or abort.
   */
  async send(request: OutgoingHttpRequest): Promise<ClientResponse> {
    const { method, url, body, abort } = request;
    const timeoutMs = request.timeoutMs ?? this.options.requestTimeoutMs;
    let timedOut = false;
    const timer = timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
        timedOut = true;
        abort.abort(new Error(`no response within ${timeoutMs} ms`));
      }, timeoutMs);
    try {
      const client = this.options.fetch === undefined ? this.options.httpClient : undefined;
      if (client !== undefined) {
        // Without user headers the protocol headers (lower-case already) go as they are, with no
        // Headers object and no extra await.
        const headers = this.options.headers === undefined && this.options.requestInit?.headers === undefined
          ? request.headers
          : await this.headerRecordFor(request.headers);
        const redirect = this.options.requestInit?.redirect;
        return await (client.dispatch !== undefined
          ? client.dispatch({ method, url, headers, body, redirect }, abort)
          : client.request({ method, url, headers, body, signal: abort.signal, redirect }));
      }
      const headers = await this.headersFor(request.headers);
      const fetchImpl = this.options.fetch ?? defaultFetch;
      // Object.assign, not a spread followed by members, which V8 builds on a slow path.
      return await fetchImpl(url, Object.assign({}, this.options.requestInit, { method, headers, body, signal: abort.signal }));
    } catch (error) {
      const reason = timedOut ? `timed out after ${timeoutMs} ms` : abort.aborted ? 'aborted' : messageOf(error);
      throw new HttpTransportError(`${method} ${url.href} failed: ${reason}`, { method, url: url.href, cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  private async headersFor(protocolHeaders: Readonly<Record<string, string>>): Promise<Headers> {
    const headers = new Headers(this.options.requestInit?.headers);
    const source = this.options.headers;
    const user = typeof source === 'function' ? await source() : source;
    new Headers(user).forEach((value, name) => headers.set(name, value));
    for (const [name, value] of Object.entries(protocolHeaders)) {
      headers.set(name, value);
    }
    return headers;
  }

  /** The headers for an {@link HttpClient} when the user adds some, names lower-cased. */
  private async headerRecordFor(protocolHeaders: Readonly<Record<string, string>>): Promise<Readonly<Record<string, string>>> {
    const record: Record<string, string> = {};
    (await this.headersFor(protocolHeaders)).forEach((value, name) => {
      record[name] = value;
    });
    return record;
  }
}

/** Resolves `fetch` at call time, so that a test or polyfill installed later is honoured. */
const defaultFetch: FetchLike = (url, init) => globalThis.fetch(url, init);

/**
 * Discards a response body that carries nothing of interest, so that the connection can be
 * reused; failures are irrelevant because the body is not wanted.
 */
export async function discardBody(response: ClientResponse): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // The body is unwanted either way.
  }
}

/**
 * The decoded JSON answer of a POST whose response has media type `type`; an
 * HttpTransportError when it is no JSON, is larger than `maxBytes` (reading stops there),
 * cannot be read or does not parse.
 */
export async function readJsonAnswer(response: ClientResponse, type: string | undefined, url: URL, maxBytes: number): Promise<unknown> {
  if (type !== 'application/json') {
    await discardBody(response);
    throw new HttpTransportError(
      `POST ${url.href} answered a request with HTTP ${response.status} and content type ${JSON.stringify(type)} instead of JSON or an event stream`,
      { method: 'POST', url: url.href, status: response.status, statusText: response.statusText },
    );
  }
  let value: unknown;
  try {
    const body = await readBoundedText(response, maxBytes);
    if (body.overflow !== undefined) {
      const size = body.overflow.declared !== undefined && body.overflow.read === 0
        ? `its Content-Length declares ${body.overflow.declared} bytes`
        : `reading stopped after ${body.overflow.read} bytes`;
      throw new HttpTransportError(`The JSON answer of POST ${url.href} is larger than maxResponseBytes (${maxBytes} bytes): ${size}`, {
        method: 'POST', url: url.href, status: response.status,
      });
    }
    value = decodeMessage(body.text);
  } catch (error) {
    if (error instanceof HttpTransportError) throw error;
    throw new HttpTransportError(`Reading the JSON answer of POST ${url.href} failed: ${messageOf(error)}`, {
      method: 'POST', url: url.href, status: response.status, cause: error,
    });
  }
  if (value instanceof ParseFailure) {
    throw new HttpTransportError(`POST ${url.href} answered with invalid JSON: ${value.detail}`, { method: 'POST', url: url.href, status: response.status });
  }
  return value;
}

/** The media type of a response, lower-cased and without parameters ('' when absent). */
export function mediaTypeOf(response: ClientResponse): string {
  const value = response.headers.get('content-type') ?? '';
  // The two types MCP servers answer with, spelled as most send them, need no parsing.
  if (value === 'application/json' || value === 'text/event-stream') return value;
  return value.split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * The live children of each parent signal, so a parent carries one listener however many
 * requests are in flight. Each child keeps its index, so that joining and leaving, once per
 * request, allocate nothing (a Set rehashed as its deleted entries piled up).
 */
const childrenOf = new WeakMap<AbortSignal, RequestAbort[]>();

/**
 * Aborts one request and, later, its response body; also aborted when its parent signal (the
 * transport's) aborts. Its AbortSignal is built only when something asks for it: most requests
 * are never aborted, and an AbortSignal with its first listener is among the costliest objects
 * of a POST. {@link HttpClient}s that take an {@link AbortHook} never ask.
 *
 * A parent lives as long as the transport, so it holds one shared listener rather than one per
 * request (64 requests in flight would otherwise trip the runtime's listener-leak warning);
 * `release()` unlinks the child once its request and body are done.
 */
export class RequestAbort implements AbortHook {
  private controller: AbortController | undefined;
  private state: { readonly reason: unknown } | undefined;
  /** The one listener of most requests (the HTTP client's), without an array for it. */
  private listener: (() => void) | undefined;
  private listeners: (() => void)[] | undefined;
  private siblings: RequestAbort[] | undefined;
  /** This abort's index in `siblings`. */
  private slot = -1;

  constructor(parent?: AbortSignal) {
    if (parent === undefined) return;
    if (parent.aborted) {
      this.state = { reason: parent.reason };
      return;
    }
    let children = childrenOf.get(parent);
    if (children === undefined) {
      const created: RequestAbort[] = [];
      children = created;
      childrenOf.set(parent, created);
      parent.addEventListener('abort', () => {
        const all = created.splice(0);
        for (const child of all) child.unlink();
        for (const child of all) child.abort(parent.reason);
      }, { once: true });
    }
    this.slot = children.length;
    children.push(this);
    this.siblings = children;
  }

  get aborted(): boolean {
    return this.state !== undefined;
  }

  get reason(): unknown {
    return this.state?.reason;
  }

  /** An AbortSignal that follows this abort, built on first use. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.state !== undefined) this.controller.abort(this.state.reason);
    }
    return this.controller.signal;
  }

  /** Aborts with `reason` (default: an AbortError, as AbortController's); later calls do nothing. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.state !== undefined) return;
    this.state = { reason };
    this.controller?.abort(reason);
    const first = this.listener;
    const listeners = this.listeners;
    this.listener = undefined;
    this.listeners = undefined;
    first?.();
    if (listeners !== undefined) for (const listener of listeners) listener();
  }

  whenAborted(listener: () => void): () => void {
    if (this.state !== undefined) {
      listener();
      return () => undefined;
    }
    if (this.listener === undefined && this.listeners === undefined) {
      this.listener = listener;
    } else {
      (this.listeners ??= []).push(listener);
    }
    return () => {
      if (this.listener === listener) {
        this.listener = undefined;
        return;
      }
      const index = this.listeners?.indexOf(listener) ?? -1;
      if (index >= 0) this.listeners!.splice(index, 1);
    };
  }

  /** Unlinks it from the parent; call once the request and its body are done. */
  release(): void {
    const siblings = this.siblings;
    if (siblings === undefined) return;
    // The last child takes this one's place.
    const last = siblings.pop()!;
    if (last !== this) {
      siblings[this.slot] = last;
      last.slot = this.slot;
    }
    this.unlink();
  }

  private unlink(): void {
    this.siblings = undefined;
    this.slot = -1;
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
