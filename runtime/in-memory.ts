import { SdkError } from './errors.js';
import type { JSONRPCMessage } from './jsonrpc.js';
import type { MessageExtra, Transport, TransportSendOptions } from './transport.js';
import { decodeMessage, encodeMessage } from './wire-format.js';

/**
 * One end of an in-process connection. Messages cross as JSON text, exactly as on a real wire,
 * so that values JSON cannot carry (undefined members, functions, cycles) behave as they would
 * in production rather than leaking object identity between the two ends.
 */
export class InMemoryTransport implements Transport {
  onmessage?: (message: unknown, extra?: MessageExtra) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private peer: InMemoryTransport | undefined;
  private started = false;
  private closed = false;
  /** Frames that arrived before start(); delivered once started, in order. */
  private backlog: string[] = [];

  /** Links two ends; used by {@link createLinkedPair}. */
  static link(a: InMemoryTransport, b: InMemoryTransport): void {
    a.peer = b;
    b.peer = a;
  }

  /** Starts delivery, flushing frames the peer sent before this end was started. */
  async start(): Promise<void> {
    if (this.started) {
      throw new SdkError('ALREADY_CONNECTED', 'InMemoryTransport already started');
    }
    if (this.closed) {
      throw new SdkError('NOT_CONNECTED', 'InMemoryTransport is closed');
    }
    this.started = true;
    const waiting = this.backlog;
    this.backlog = [];
    for (const frame of waiting) {
      this.schedule(frame);
    }
  }

  /** Queues the message for asynchronous delivery to the peer (one microtask later). */
  async send(message: JSONRPCMessage | JSONRPCMessage[], _options?: TransportSendOptions): Promise<void> {
    const peer = this.peer;
    if (this.closed || peer === undefined) {
      throw new SdkError('NOT_CONNECTED', 'InMemoryTransport is closed');
    }
    peer.accept(encodeMessage(message));
  }

  /** Closes this end and the peer; each fires `onclose` once. */
  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.backlog = [];
    const peer = this.peer;
    this.onclose?.();
    await peer?.close();
  }

  private accept(frame: string): void {
    if (this.closed) {
      return;
    }
    if (!this.started) {
      this.backlog.push(frame);
      return;
    }
    this.schedule(frame);
  }

  private schedule(frame: string): void {
    queueMicrotask(() => {
      if (!this.closed) {
        this.onmessage?.(decodeMessage(frame));
      }
    });
  }
}

/** Creates two transports wired to each other, e.g. `[clientSide, serverSide]`. */
export function createLinkedPair(): [InMemoryTransport, InMemoryTransport] {
  const a = new InMemoryTransport();
  const b = new InMemoryTransport();
  InMemoryTransport.link(a, b);
  return [a, b];
}
