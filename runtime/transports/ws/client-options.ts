/** The options of the WebSocket client transport, with their defaults. */
import type { AuthProviderOption } from '../http/auth-hooks.js';
import type { ReconnectOptions } from '../http/client-reconnect.js';
import type { FetchLike, HeadersSource } from '../http/client-request.js';
import type { WebSocketConstructor } from './socket.js';

/** The WebSocket subprotocol of MCP. */
export const MCP_SUBPROTOCOL = 'mcp';
/** Default cap on one inbound message: 16 MiB, as the HTTP client's answers. */
export const DEFAULT_WS_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Default cap on the bytes a socket may hold unsent before `send()` refuses more: 16 MiB. */
export const DEFAULT_WS_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Default cap on the messages waiting for a reconnection: 1000. */
export const DEFAULT_WS_MAX_QUEUED_MESSAGES = 1_000;
/** Default wait for a handshake (and the replayed `initialize` after a reconnection): 30 s. */
export const DEFAULT_WS_CONNECT_TIMEOUT_MS = 30_000;

/** Options of a {@link WebSocketClientTransport}. */
export interface WebSocketClientTransportOptions extends AuthProviderOption {
  /**
   * The WebSocket class: default the runtime's `WebSocket` (browsers, Deno, Bun, Node 22 on).
   * On Node 20, which has none, pass the `ws` package's class (`import WebSocket from 'ws'`);
   * it is also the one that can send `headers` and an `authProvider`'s token, which the
   * standard class cannot.
   */
  readonly WebSocket?: WebSocketConstructor | undefined;
  /**
   * Loads the WebSocket class on the first handshake instead (when `WebSocket` is not given),
   * e.g. `() => import('ws').then((module) => module.WebSocket)`, so that code which may never
   * open a socket does not import the package.
   */
  readonly loadWebSocket?: (() => Promise<WebSocketConstructor>) | undefined;
  /** Headers of every handshake (the `ws` class only), fixed or computed before each. */
  readonly headers?: HeadersSource | undefined;
  /** The fetch for an `authProvider`'s own requests (metadata, tokens); default `globalThis.fetch`. */
  readonly fetch?: FetchLike | undefined;
  /**
   * Reconnection after the socket dropped (closed by anything but a normal closure): the
   * Streamable HTTP client's backoff schedule. `{ maxRetries: 0 }` turns it off.
   */
  readonly reconnect?: ReconnectOptions | undefined;
  /**
   * Largest inbound message in bytes (default {@link DEFAULT_WS_MAX_MESSAGE_BYTES}). With the
   * `ws` class a larger frame is refused before it is buffered and the socket is dropped (its
   * lost answers fail, and the transport reconnects); with the standard class the message is
   * dropped on arrival and the request it answered fails.
   */
  readonly maxMessageBytes?: number | undefined;
  /** Bytes a socket may hold unsent before `send()` rejects (default {@link DEFAULT_WS_MAX_BUFFERED_BYTES}). */
  readonly maxBufferedBytes?: number | undefined;
  /** Messages that may wait for a reconnection before `send()` rejects (default {@link DEFAULT_WS_MAX_QUEUED_MESSAGES}). */
  readonly maxQueuedMessages?: number | undefined;
  /** Wait for each handshake, in milliseconds (default {@link DEFAULT_WS_CONNECT_TIMEOUT_MS}). */
  readonly connectTimeoutMs?: number | undefined;
}
