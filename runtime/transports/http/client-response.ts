/**
 * The seam between the HTTP client transports and whatever moves their bytes: an
 * {@link HttpClient} sends one request and answers with a {@link ClientResponse}, the part of a
 * fetch `Response` the transports read. A fetch `Response` is one as it is, so fetch needs no
 * adapter; a Node client (mcpgen/node's `nodeHttpClient`) answers with a lighter object over
 * its socket, without web streams.
 */

/** A reader of a {@link ClientBody}, as a web stream's default reader is one. */
export interface ClientBodyReader {
  /** The next chunk, or `done` once the body ended; rejects when the body failed. */
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  /** Stops reading and discards the rest of the body. */
  cancel(reason?: unknown): Promise<void>;
  /** Gives the body up without discarding it. */
  releaseLock(): void;
}

/** A response body, read chunk by chunk (a web `ReadableStream<Uint8Array>` is one). */
export interface ClientBody {
  /** A reader; a body has one reader at a time. */
  getReader(): ClientBodyReader;
  /** Discards the body unread. */
  cancel(reason?: unknown): Promise<void>;
}

/** What the HTTP client transports read of a response; a fetch `Response` is one. */
export interface ClientResponse {
  /** True for a status in 200–299. */
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  /**
   * The response headers: `get` takes any case and joins repeated headers with `, `; `forEach`
   * visits each header once, its name lower-case.
   */
  readonly headers: {
    get(name: string): string | null;
    forEach(callback: (value: string, name: string) => void): void;
  };
  /** The body, or null when the response has none. */
  readonly body: ClientBody | null;
}

/**
 * How an {@link HttpClient} learns that a request was aborted, without an AbortSignal: see
 * {@link HttpClient.dispatch}.
 */
export interface AbortHook {
  readonly aborted: boolean;
  /** Why, once aborted. */
  readonly reason: unknown;
  /** Calls `listener` once when the request is aborted (at once if it is already); returns what detaches it. */
  whenAborted(listener: () => void): () => void;
}

/** One request an {@link HttpClient} sends. */
export interface HttpClientRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: URL;
  /** Every header to send, names lower-cased; the client adds only framing headers (host, length). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  /** Aborts the request and, once the response arrived, its body. */
  readonly signal: AbortSignal;
  /** Redirect policy, as fetch's `redirect`; default `'follow'`. */
  readonly redirect?: RequestRedirect | undefined;
}

/**
 * Sends the client transports' HTTP requests in place of fetch (the `httpClient` option).
 * mcpgen/node's `nodeHttpClient()` is one on `node:http` and `node:https` with keep-alive.
 *
 * @example
 * ```ts
 * import { StreamableHttpClientTransport } from 'mcpgen';
import type { HttpClient } from 'mcpgen/http';
 *
 * // An HttpClient that delegates to fetch and logs each request.
 * const logging: HttpClient = {
 *   request: (request) => {
 *     console.log(request.method, request.url.href);
 *     return fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal: request.signal });
 *   },
 * };
 * const transport = new StreamableHttpClientTransport('https://example.com/mcp', { httpClient: logging });
 * ```
 */
export interface HttpClient {
  /**
   * Resolves with the response once its headers arrived, whatever its status; rejects when no
   * response arrives (network failure, abort).
   */
  request(request: HttpClientRequest): Promise<ClientResponse>;
  /**
   * Optional: `request` with its abort as an {@link AbortHook} in place of `signal`. The
   * transports call it when present: most requests are never aborted, and this way none of
   * them pays for an AbortSignal (`nodeHttpClient` has it).
   */
  dispatch?(request: Omit<HttpClientRequest, 'signal'>, abort: AbortHook): Promise<ClientResponse>;
}
