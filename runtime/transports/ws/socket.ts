/**
 * Opening a client WebSocket the same way on every runtime. The standard `WebSocket` class
 * (browsers, Deno, Bun, Node 22 and later) takes no request headers and hides the status of a
 * refused handshake; the `ws` package (Node 20's optional peer) takes headers and a payload
 * cap and reports the refusal's status and headers. Both are told apart by shape, so this
 * module imports neither.
 */
import { SdkError, TransportError } from '../../core/errors.js';

/** The `ready` state of an open socket in both APIs. */
const OPEN = 1;

/** A WebSocket class: the standard one, or the `ws` package's (`import WebSocket from 'ws'`). */
export type WebSocketConstructor = abstract new (url: string, protocols?: string | string[], options?: never) => unknown;

/** An open socket as the transports use it. */
export interface OpenSocket {
  /** The subprotocol the server selected. */
  readonly protocol: string;
  /** Bytes queued but not yet sent. */
  readonly bufferedAmount: number;
  send(text: string): void;
  close(code?: number, reason?: string): void;
}

/** What an open socket reports. */
export interface SocketEvents {
  /** A text frame (a string) or a binary frame (anything else). */
  readonly onframe: (data: string | ArrayBuffer | Uint8Array | Blob) => void;
  readonly onclose: (code: number, reason: string) => void;
  readonly onerror: (error: Error) => void;
}

/** The handshake a {@link openSocket} call makes. */
export interface SocketRequest {
  readonly url: URL;
  readonly protocols: readonly string[];
  /** Request headers; only the `ws` package can send them. */
  readonly headers: Readonly<Record<string, string>>;
  /** The largest inbound frame; the `ws` package enforces it before buffering, with close code 1009. */
  readonly maxPayloadBytes: number;
  readonly signal: AbortSignal;
  readonly events: SocketEvents;
}

/** How a handshake ended: an open socket, or a refusal with its HTTP status where the runtime tells it. */
export type SocketOutcome =
  | { readonly ok: true; readonly socket: OpenSocket }
  | { readonly ok: false; readonly status: number; readonly headers: Headers };

/** The `ws` package's socket, as far as this module uses it. */
interface NodeSocketShape {
  readonly readyState: number;
  readonly protocol: string;
  readonly bufferedAmount: number;
  on(event: string, listener: (...args: never[]) => void): void;
  removeAllListeners(): void;
  send(text: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
}

/** The standard socket, as far as this module uses it. */
interface StandardSocketShape {
  readonly readyState: number;
  readonly protocol: string;
  readonly bufferedAmount: number;
  binaryType: string;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
  onclose: ((event: { readonly code: number; readonly reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(text: string): void;
  close(code?: number, reason?: string): void;
}

/** True for the `ws` package's class, whose sockets are event emitters. */
export function isNodeWebSocket(constructor: WebSocketConstructor): boolean {
  return typeof (constructor.prototype as { on?: unknown } | undefined)?.on === 'function';
}

/** The runtime's standard `WebSocket`, if it has one. */
export function globalWebSocket(): WebSocketConstructor | undefined {
  return (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
}

/** Opens a socket with `constructor`; rejects with a TransportError when no connection comes about. */
export function openSocket(constructor: WebSocketConstructor, request: SocketRequest): Promise<SocketOutcome> {
  if (request.signal.aborted) return Promise.reject(abortError(request));
  return isNodeWebSocket(constructor) ? openNode(constructor, request) : openStandard(constructor, request);
}

function openNode(constructor: WebSocketConstructor, request: SocketRequest): Promise<SocketOutcome> {
  const Construct = constructor as unknown as new (url: string, protocols: string[], options: object) => NodeSocketShape;
  const socket = new Construct(request.url.href, [...request.protocols], { headers: request.headers, maxPayload: request.maxPayloadBytes });
  return new Promise<SocketOutcome>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: SocketOutcome | Error): void => {
      if (settled) return;
      settled = true;
      request.signal.removeEventListener('abort', onAbort);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onAbort = (): void => {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
      settle(abortError(request));
    };
    request.signal.addEventListener('abort', onAbort, { once: true });
    socket.on('unexpected-response', ((clientRequest: { destroy(): void }, response: { statusCode?: number; headers: Record<string, string | string[] | undefined>; resume(): void }) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      response.resume();
      clientRequest.destroy();
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      settle({ ok: false, status: response.statusCode ?? 0, headers });
    }) as (...args: never[]) => void);
    socket.on('open', () => {
      socket.on('message', ((data: Uint8Array | Uint8Array[] | ArrayBuffer, isBinary: boolean) => {
        request.events.onframe(isBinary ? new Uint8Array(0) : textOf(data));
      }) as (...args: never[]) => void);
      socket.on('close', ((code: number, reason: Uint8Array) => request.events.onclose(code, new TextDecoder().decode(reason))) as (...args: never[]) => void);
      settle({ ok: true, socket: nodeSocket(socket) });
    });
    socket.on('error', ((error: Error) => {
      if (settled) request.events.onerror(error);
      else settle(new TransportError(`WebSocket connection to ${request.url.href} failed: ${error.message}`, { cause: error }));
    }) as (...args: never[]) => void);
    socket.on('close', ((code: number) => {
      if (!settled) settle(new TransportError(`WebSocket connection to ${request.url.href} closed during the handshake (code ${code})`));
    }) as (...args: never[]) => void);
  });
}

function nodeSocket(socket: NodeSocketShape): OpenSocket {
  return {
    get protocol() {
      return socket.protocol;
    },
    get bufferedAmount() {
      return socket.bufferedAmount;
    },
    send: (text) => socket.send(text),
    close: (code, reason) => {
      if (socket.readyState === OPEN) socket.close(code, reason);
      else socket.terminate();
    },
  };
}

function openStandard(constructor: WebSocketConstructor, request: SocketRequest): Promise<SocketOutcome> {
  if (Object.keys(request.headers).length > 0) {
    return Promise.reject(new SdkError('INVALID_ARGUMENT', 'This runtime\'s WebSocket sends no request headers (nor an authProvider\'s token); pass the `ws` package\'s class as the WebSocket option on Node, or leave headers out'));
  }
  const Construct = constructor as unknown as new (url: string, protocols: string[]) => StandardSocketShape;
  const socket = new Construct(request.url.href, [...request.protocols]);
  socket.binaryType = 'arraybuffer';
  return new Promise<SocketOutcome>((resolve, reject) => {
    let settled = false;
    const onAbort = (): void => {
      socket.close();
      if (!settled) {
        settled = true;
        reject(abortError(request));
      }
    };
    request.signal.addEventListener('abort', onAbort, { once: true });
    const onmessage: StandardSocketShape['onmessage'] = (event) => {
      const data: unknown = event.data;
      request.events.onframe(typeof data === 'string' ? data : new Uint8Array(0));
    };
    const onclose: StandardSocketShape['onclose'] = (event) => request.events.onclose(event.code, event.reason);
    const onerror = (): void => request.events.onerror(new TransportError(`WebSocket error on ${request.url.href}`));
    const onopen = (): void => {
      settled = true;
      request.signal.removeEventListener('abort', onAbort);
      socket.onmessage = onmessage;
      socket.onclose = onclose;
      socket.onerror = onerror;
      resolve({ ok: true, socket: standardSocket(socket) });
    };
    // A refused or failed handshake shows only as a close before the open; its status stays hidden.
    const onrefused: StandardSocketShape['onclose'] = (event) => {
      if (settled) return;
      settled = true;
      request.signal.removeEventListener('abort', onAbort);
      reject(new TransportError(`WebSocket connection to ${request.url.href} failed (close code ${event.code})`));
    };
    const ignore = (): void => undefined;
    socket.onopen = onopen;
    socket.onerror = ignore;
    socket.onclose = onrefused;
  });
}

function standardSocket(socket: StandardSocketShape): OpenSocket {
  return {
    get protocol() {
      return socket.protocol;
    },
    get bufferedAmount() {
      return socket.bufferedAmount;
    },
    send: (text) => socket.send(text),
    close: (code, reason) => socket.close(code, reason),
  };
}

/** The text of a `ws` text frame (a Buffer, fragments, or an ArrayBuffer by binaryType). */
function textOf(data: Uint8Array | Uint8Array[] | ArrayBuffer): string {
  const decoder = new TextDecoder();
  if (Array.isArray(data)) return data.map((part, index) => decoder.decode(part, { stream: index < data.length - 1 })).join('');
  return decoder.decode(data);
}

function abortError(request: SocketRequest): TransportError {
  return new TransportError(`WebSocket connection to ${request.url.href} timed out or was aborted`);
}
