/** The options of the Streamable HTTP client transport. */
import type { AnswerOptions } from './client-answers.js';
import type { AuthProviderOption } from './auth-hooks.js';
import type { ReconnectOptions } from './client-reconnect.js';
import type { HttpClientOptions } from './client-request.js';
import type { PostRetryOptions } from './client-post-retry.js';

/** Options of a {@link StreamableHttpClientTransport}. */
export interface StreamableHttpClientTransportOptions extends HttpClientOptions, AuthProviderOption, AnswerOptions {
  /**
   * How a POST of a request or notification that the server refused for the moment (HTTP 503
   * or 429: it did not take the message) is retried; the same schedule as `answerRetry`. A
   * request's retries stop when it is cancelled or times out.
   */
  readonly requestRetry?: PostRetryOptions | undefined;
  /** How dropped event streams are re-established (see {@link ReconnectOptions}). */
  readonly reconnect?: ReconnectOptions | undefined;
  /** A session id to use from the first request on, e.g. to continue a session of an earlier process. */
  readonly sessionId?: string | undefined;
  /**
   * The `MCP-Protocol-Version` to send until the transport sees a negotiation itself; it is
   * only needed together with `sessionId`, as the transport otherwise learns the version from
   * the `initialize` result it carries.
   */
  readonly protocolVersion?: string | undefined;
  /** Open the server's standalone GET stream after initialization (default true). */
  readonly openStandaloneStream?: boolean | undefined;
  /**
   * On HTTP 404 for a request that carried a session id (the session expired), start a new
   * session by replaying the `initialize` request and `notifications/initialized` this
   * transport carried earlier, hiding that handshake from the engine, then send the failed
   * message again, once (default true).
   */
  readonly reinitializeOnExpiry?: boolean | undefined;
  /** Called after a transparent re-initialization replaced an expired session. */
  readonly onsessionrenewed?: ((renewal: SessionRenewal) => void) | undefined;
  /** How long `close()` waits for the DELETE that ends the session; default 2000 ms. */
  readonly closeTimeoutMs?: number | undefined;
}

/** Reported through `onsessionrenewed`. */
export interface SessionRenewal {
  readonly expiredSessionId: string;
  /** The new session's id; undefined when the server stopped using sessions. */
  readonly sessionId: string | undefined;
}
