/**
 * The client side of MCP over WebSocket (subprotocol `mcp`): one JSON-RPC message or batch per
 * text frame, both ways. Runtime-neutral: it needs a WebSocket class (see socket.ts), timers
 * and, for an `authProvider`, fetch.
 */
import { SdkError, TransportError, asError } from '../../core/errors.js';
import { JSONRPC_VERSION, type JSONRPCMessage, type RequestId } from '../../core/jsonrpc.js';
import { FRAME_HEAD_BYTES, readFrameHead } from '../http/frame-head.js';
import type { MessageExtra, Transport, TransportSendOptions } from '../../core/transport.js';
import { decodeMessage, encodeMessage, ParseFailure } from '../../core/wire-format.js';
import { isInitializeRequest, isNotificationOf, requestIdsOf, responseIdOf } from '../http/client-messages.js';
import { reconnectDelay, reconnectPolicy, type ReconnectPolicy } from '../http/client-reconnect.js';
import { TRANSPORT_LOST_RESPONSE_CODE } from '../http/client-transport.js';
import { authorizedHandshake } from './client-auth.js';
import {
  DEFAULT_WS_CONNECT_TIMEOUT_MS,
  DEFAULT_WS_MAX_BUFFERED_BYTES,
  DEFAULT_WS_MAX_MESSAGE_BYTES,
  DEFAULT_WS_MAX_QUEUED_MESSAGES,
  MCP_SUBPROTOCOL,
  type WebSocketClientTransportOptions,
} from './client-options.js';
import { globalWebSocket, isNodeWebSocket, openSocket, type OpenSocket, type SocketEvents, type WebSocketConstructor } from './socket.js';
import { Method } from '../../../generated/methods.js';

export type { WebSocketClientTransportOptions } from './client-options.js';

/** Close codes after which the server meant the end: no reconnection (RFC 6455 §7.4.1). */
const FINAL_CLOSE_CODES = new Set([1000, 1002, 1003, 1005, 1007, 1008, 1010]);

/** A message waiting for a reconnection. */
interface Waiting {
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * A WebSocket client transport. Requests whose answer the socket took with it when it dropped
 * get a synthesised error response (code `TRANSPORT_LOST_RESPONSE_CODE`), so none waits
 * forever; the transport then reconnects with the Streamable HTTP client's backoff and, in the
 * stateful era, replays the `initialize` handshake it carried (hidden from the engine), since
 * a new connection is a new session. Messages sent meanwhile wait, up to `maxQueuedMessages`.
 * When every attempt failed, the transport closes with the last failure as `closeReason`.
 *
 * @example
 * ```ts
 * import { Client } from 'mcpgen';
 * import { WebSocketClientTransport } from 'mcpgen/ws';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 * await client.connect(new WebSocketClientTransport('wss://example.com/mcp'));
 * const { tools } = await client.listTools();
 * await client.close();
 * ```
 */
export class WebSocketClientTransport implements Transport {
  onmessage?: (message: unknown, extra?: MessageExtra) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  /** The server's WebSocket URL (`ws:` or `wss:`). */
  readonly url: URL;
  private readonly options: WebSocketClientTransportOptions;
  private readonly policy: ReconnectPolicy;
  private readonly maxMessageBytes: number;
  private socket: OpenSocket | undefined;
  /** Bumped per socket, so that a dropped socket's late events are ignored. */
  private generation = 0;
  private state: 'new' | 'open' | 'reconnecting' | 'closed' = 'new';
  private readonly unanswered = new Set<RequestId>();
  private readonly waiting: Waiting[] = [];
  /** Responses to the transport's own replayed `initialize`, by id. */
  private readonly hidden = new Map<RequestId, { resolve: (response: unknown) => void; reject: (error: Error) => void }>();
  private initializeMessage: JSONRPCMessage | undefined;
  private initializedMessage: JSONRPCMessage | undefined;
  private renewals = 0;
  /** Aborted by close(): ends a handshake or a backoff wait in progress. */
  private readonly master = new AbortController();
  private closeReasonValue: Error | undefined;
  /** The current socket's last error (a frame over maxMessageBytes, say), told with its drop. */
  private socketError: Error | undefined;

  constructor(url: string | URL, options: WebSocketClientTransportOptions = {}) {
    this.url = new URL(url);
    if (this.url.protocol !== 'ws:' && this.url.protocol !== 'wss:') {
      throw new SdkError('INVALID_ARGUMENT', `A WebSocket URL starts with ws: or wss:, not ${this.url.protocol}`);
    }
    this.options = options;
    this.policy = reconnectPolicy(options.reconnect);
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_WS_MAX_MESSAGE_BYTES;
  }

  /** Why the transport closed by itself (the socket dropped and stayed down); undefined after `close()`. */
  get closeReason(): Error | undefined {
    return this.closeReasonValue;
  }

  /** Opens the socket; rejects with a TransportError (its `status` set where the runtime tells it) when the handshake fails. */
  async start(): Promise<void> {
    if (this.state !== 'new') throw new SdkError('ALREADY_CONNECTED', 'WebSocketClientTransport already started');
    this.state = 'reconnecting';
    let socket: OpenSocket;
    try {
      socket = await this.connectOnce();
    } catch (error) {
      this.state = 'closed';
      throw error;
    }
    // close() during the handshake: the socket that opened anyway goes at once.
    if (this.master.signal.aborted) {
      socket.close(1000);
      return;
    }
    this.socket = socket;
    this.state = 'open';
  }

  /** Sends one message or batch as one text frame; waits while the transport reconnects. */
  async send(message: JSONRPCMessage | JSONRPCMessage[], _options?: TransportSendOptions): Promise<void> {
    if (this.state === 'reconnecting') await this.waitForReconnection();
    if (this.state !== 'open' || this.socket === undefined) throw new SdkError('NOT_CONNECTED', 'WebSocketClientTransport is closed');
    const maxBuffered = this.options.maxBufferedBytes ?? DEFAULT_WS_MAX_BUFFERED_BYTES;
    if (this.socket.bufferedAmount > maxBuffered) {
      throw new SdkError('SEND_FAILED', `The WebSocket holds more than ${maxBuffered} unsent bytes; the server is not reading`);
    }
    if (isInitializeRequest(message)) this.initializeMessage = message as JSONRPCMessage;
    if (isNotificationOf(message, Method.NotificationsInitialized)) this.initializedMessage = message as JSONRPCMessage;
    for (const id of requestIdsOf(message)) this.unanswered.add(id);
    this.socket.send(encodeMessage(message));
  }

  /** Closes the socket (normal closure) and fires `onclose` once. */
  async close(): Promise<void> {
    this.finish(undefined);
  }

  /** One handshake, with the `authProvider`'s token where there is one. */
  private async connectOnce(): Promise<OpenSocket> {
    const generation = ++this.generation;
    const constructor = this.options.WebSocket ?? (await this.options.loadWebSocket?.()) ?? globalWebSocket();
    if (constructor === undefined) {
      throw new SdkError('INVALID_ARGUMENT', 'This runtime has no WebSocket class: install the `ws` package and pass it as the WebSocket option');
    }
    const timeout = AbortSignal.timeout(this.options.connectTimeoutMs ?? DEFAULT_WS_CONNECT_TIMEOUT_MS);
    const signal = AbortSignal.any([this.master.signal, timeout]);
    const events = this.eventsFor(generation);
    const open = async (headers: Record<string, string>) => openSocket(constructor, {
      url: this.url, protocols: [MCP_SUBPROTOCOL], headers, maxPayloadBytes: this.maxMessageBytes, signal, events,
    });
    const headers = await this.baseHeaders();
    if (this.options.authProvider !== undefined && !isNodeWebSocket(constructor)) {
      throw new SdkError('INVALID_ARGUMENT', 'An authProvider needs a WebSocket class that sends headers: pass the `ws` package\'s class as the WebSocket option');
    }
    if (this.options.authProvider === undefined) {
      const outcome = await open(headers);
      if (outcome.ok) return this.checked(outcome.socket);
      throw new TransportError(`WebSocket handshake with ${this.url.href} refused with HTTP ${outcome.status}`, { status: outcome.status });
    }
    const outcome = await authorizedHandshake(this.url, this.options.authProvider, open, headers, signal, this.options.fetch);
    if ('socket' in outcome) return this.checked(outcome.socket);
    throw new TransportError(`WebSocket handshake with ${this.url.href} refused with HTTP ${outcome.status}`, { status: outcome.status });
  }

  /** The socket, when the server selected the `mcp` subprotocol. */
  private checked(socket: OpenSocket): OpenSocket {
    if (socket.protocol === MCP_SUBPROTOCOL) return socket;
    socket.close(1002, 'the mcp subprotocol is required');
    throw new TransportError(`The WebSocket server at ${this.url.href} did not select the mcp subprotocol (selected ${JSON.stringify(socket.protocol)})`);
  }

  private async baseHeaders(): Promise<Record<string, string>> {
    const source = this.options.headers;
    const init = typeof source === 'function' ? await source() : source;
    const out: Record<string, string> = {};
    new Headers(init).forEach((value, name) => {
      out[name] = value;
    });
    return out;
  }

  private eventsFor(generation: number): SocketEvents {
    const current = () => generation === this.generation && this.state !== 'closed';
    return {
      onframe: (data) => {
        if (current()) this.receive(data);
      },
      onclose: (code, reason) => {
        if (current()) this.dropped(code, reason);
      },
      onerror: (error) => {
        if (!current()) return;
        this.socketError = error;
        this.onerror?.(error);
      },
    };
  }

  private receive(data: string | ArrayBuffer | Uint8Array | Blob): void {
    if (typeof data !== 'string') {
      this.onmessage?.(new ParseFailure('invalid-json', 'a binary WebSocket frame carries no JSON-RPC text'));
      return;
    }
    // A string of n UTF-16 units has between n and 3n UTF-8 bytes: measure only when it matters.
    if (data.length > this.maxMessageBytes || (data.length * 3 > this.maxMessageBytes && new TextEncoder().encode(data).length > this.maxMessageBytes)) {
      this.onmessage?.(new ParseFailure('oversized', `message exceeds the ${this.maxMessageBytes}-byte limit`, { limit: this.maxMessageBytes, head: readFrameHead(data.slice(0, FRAME_HEAD_BYTES)) }));
      return;
    }
    const value = decodeMessage(data);
    for (const item of Array.isArray(value) ? value : [value]) {
      const id = responseIdOf(item);
      if (id === undefined) continue;
      const receiver = this.hidden.get(id);
      if (receiver !== undefined) {
        this.hidden.delete(id);
        receiver.resolve(item);
        return;
      }
      this.unanswered.delete(id);
    }
    this.onmessage?.(value);
  }

  /** The socket closed by itself: answer what it took along, then reconnect or give up. */
  private dropped(code: number, reason: string): void {
    this.socket = undefined;
    const lost = [...this.unanswered];
    this.unanswered.clear();
    const why = reason !== '' ? `: ${reason}` : this.socketError === undefined ? '' : `: ${this.socketError.message}`;
    this.socketError = undefined;
    const cause = new TransportError(`The WebSocket to ${this.url.href} closed (code ${code}${why})`);
    for (const id of lost) {
      this.onmessage?.({ jsonrpc: JSONRPC_VERSION, id, error: { code: TRANSPORT_LOST_RESPONSE_CODE, message: `${cause.message} before the answer arrived` } });
    }
    for (const receiver of this.hidden.values()) receiver.reject(cause);
    this.hidden.clear();
    // Dropped while a reconnection replays the handshake: that attempt fails and the next one runs.
    if (this.state === 'closed' || this.state === 'reconnecting') return;
    if (FINAL_CLOSE_CODES.has(code) || this.policy.maxRetries === 0) {
      this.finish(cause);
      return;
    }
    this.onerror?.(cause);
    this.state = 'reconnecting';
    void this.reconnect(cause);
  }

  private async reconnect(cause: Error): Promise<void> {
    let last = cause;
    for (let failures = 0; failures < this.policy.maxRetries; failures++) {
      if (!(await this.pause(reconnectDelay(this.policy, failures, undefined)))) return;
      try {
        const socket = await this.connectOnce();
        if (this.state === 'closed') {
          socket.close(1000);
          return;
        }
        this.socket = socket;
        await this.replayHandshake();
        this.state = 'open';
        for (const entry of this.waiting.splice(0)) entry.resolve();
        return;
      } catch (error) {
        if (this.state === 'closed') return;
        last = asError(error);
        this.socket?.close(1000);
        this.socket = undefined;
        this.onerror?.(last);
      }
    }
    this.finish(new TransportError(`The WebSocket to ${this.url.href} stayed down after ${this.policy.maxRetries} reconnection attempts: ${last.message}`, { cause: last }));
  }

  /** A new socket is a new session: the `initialize` exchange this transport carried goes again, unseen by the engine. */
  private async replayHandshake(): Promise<void> {
    const initialize = this.initializeMessage as { method: string; params?: unknown } | undefined;
    if (initialize === undefined) return;
    const id = `ws-renewal-${++this.renewals}`;
    const answered = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.hidden.delete(id);
        reject(new TransportError('The server did not answer the replayed initialize request'));
      }, this.options.connectTimeoutMs ?? DEFAULT_WS_CONNECT_TIMEOUT_MS);
      this.hidden.set(id, {
        resolve: (response) => {
          clearTimeout(timer);
          resolve(response);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
    this.socket!.send(encodeMessage({ jsonrpc: JSONRPC_VERSION, id, method: initialize.method, params: initialize.params } as JSONRPCMessage));
    const response = await answered;
    if (typeof response === 'object' && response !== null && 'error' in response) {
      throw new TransportError('The server refused the replayed initialize request', { rpcError: (response as { error: never }).error });
    }
    if (this.initializedMessage !== undefined) this.socket!.send(encodeMessage(this.initializedMessage));
  }

  /** Waits `ms`; false when the transport closed meanwhile. */
  private pause(ms: number): Promise<boolean> {
    const signal = this.master.signal;
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        resolve(false);
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private waitForReconnection(): Promise<void> {
    const limit = this.options.maxQueuedMessages ?? DEFAULT_WS_MAX_QUEUED_MESSAGES;
    if (this.waiting.length >= limit) {
      return Promise.reject(new SdkError('SEND_FAILED', `${limit} messages already wait for the WebSocket to reconnect`));
    }
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** Ends the transport once: `reason` when it ended by itself, undefined for `close()`. */
  private finish(reason: Error | undefined): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.closeReasonValue = reason;
    this.master.abort();
    this.socket?.close(1000);
    this.socket = undefined;
    this.hidden.clear();
    const failure = new SdkError('NOT_CONNECTED', 'WebSocketClientTransport is closed', { cause: reason });
    for (const entry of this.waiting.splice(0)) entry.reject(failure);
    if (reason !== undefined) this.onerror?.(reason);
    this.onclose?.();
  }
}

export type { WebSocketConstructor };
