/**
 * One accepted WebSocket connection as a Transport for the session that serves it: each text
 * frame is one JSON-RPC message or batch, each send one text frame.
 */
import { SdkError } from '../../../core/errors.js';
import type { JSONRPCMessage } from '../../../core/jsonrpc.js';
import type { MessageExtra, Transport, TransportSendOptions } from '../../../core/transport.js';
import { decodeMessage, encodeMessage, ParseFailure } from '../../../core/wire-format.js';

/**
 * A `ws` socket, as far as this module uses it; the shape is spelled out so that the shipped
 * declarations name no optional peer.
 */
export interface ServerSocket {
  readonly readyState: number;
  readonly OPEN: number;
  readonly CONNECTING: number;
  readonly bufferedAmount: number;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  send(text: string, callback: (error?: Error | null) => void): void;
  close(code?: number): void;
  terminate(): void;
  resume(): void;
}

/** The transport of one server-side WebSocket connection. */
export class WebSocketConnectionTransport implements Transport {
  onmessage?: (message: unknown, extra?: MessageExtra) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  /** A random id per connection, handed to handlers as the message's `sessionId`. */
  readonly sessionId: string;
  private readonly socket: ServerSocket;
  private readonly extra: MessageExtra;
  private readonly maxBufferedBytes: number;
  private started = false;
  private closed = false;

  constructor(socket: ServerSocket, sessionId: string, authInfo: unknown, maxBufferedBytes: number) {
    this.socket = socket;
    this.sessionId = sessionId;
    this.extra = authInfo === undefined ? { sessionId } : { sessionId, authInfo };
    this.maxBufferedBytes = maxBufferedBytes;
  }

  async start(): Promise<void> {
    if (this.started) throw new SdkError('ALREADY_CONNECTED', 'WebSocket connection transport already started');
    this.started = true;
    this.socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      if (isBinary) {
        this.onmessage?.(new ParseFailure('invalid-json', 'a binary WebSocket frame carries no JSON-RPC text'), this.extra);
        return;
      }
      // ws has checked that a text frame is UTF-8 (closing with 1007 otherwise).
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
      this.onmessage?.(decodeMessage(text), this.extra);
    });
    this.socket.on('close', () => this.finish());
    this.socket.on('error', (error: Error) => this.onerror?.(error));
    // The endpoint pauses a socket from its upgrade until here, so no message goes unheard.
    this.socket.resume();
  }

  /** Sends one text frame; resolves once ws has written it out. */
  send(message: JSONRPCMessage | JSONRPCMessage[], _options?: TransportSendOptions): Promise<void> {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) {
      return Promise.reject(new SdkError('NOT_CONNECTED', 'The WebSocket connection is closed'));
    }
    // A client that stops reading must not make the server buffer without end.
    if (this.socket.bufferedAmount > this.maxBufferedBytes) {
      this.socket.terminate();
      return Promise.reject(new SdkError('SEND_FAILED', `The WebSocket client left more than ${this.maxBufferedBytes} bytes unread; the connection is ended`));
    }
    return new Promise((resolve, reject) => {
      this.socket.send(encodeMessage(message), (error?: Error | null) => (error === undefined || error === null ? resolve() : reject(new SdkError('SEND_FAILED', error.message, { cause: error }))));
    });
  }

  /** Closes the socket with a normal closure and fires `onclose`. */
  async close(): Promise<void> {
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) this.socket.close(1000);
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
