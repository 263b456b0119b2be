import { SdkError } from './errors.js';
import type { JSONRPCMessage } from './jsonrpc.js';
import type { MessageExtra, Transport, TransportSendOptions } from './transport.js';
import { decodeMessage, encodeMessage } from './wire-format.js';

/** Options of {@link createLinkedPair}. */
export interface LinkedPairOptions {
  /**
   * Carry messages as JSON text, exactly as on a real wire, so that values JSON cannot carry
   * (undefined members, functions, cycles) behave as in production and no object is shared
   * between the two ends. Default false: messages are handed over as they are, which is what an
   * in-process connection is for, so neither end may mutate a message after sending it.
   */
  readonly serialize?: boolean;
}

/**
 * One end of an in-process connection; delivery is asynchronous (one microtask later) and in
 * order, like a real transport.
 */
export class InMemoryTransport implements Transport {
  onmessage?: (message: unknown, extra?: MessageExtra) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private peer: InMemoryTransport | undefined;
  private readonly serialize: boolean;
  private started = false;
  private closed = false;
  /** Frames that arrived before start(); delivered once started, in order. */
  private backlog: unknown[] = [];

  constructor(options: LinkedPairOptions = {}) {
    this.serialize = options.serialize ?? false;
  }

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
    peer.accept(this.serialize ? encodeMessage(message) : message);
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

  private accept(frame: unknown): void {
    if (this.closed) {
      return;
    }
    if (!this.started) {
      this.backlog.push(frame);
      return;
    }
    this.schedule(frame);
  }

  private schedule(frame: unknown): void {
    queueMicrotask(() => {
      if (!this.closed) {
        this.onmessage?.(typeof frame === 'string' ? decodeMessage(frame) : frame);
      }
    });
  }
}

/**
 * Creates two transports wired to each other, e.g. `[clientSide, serverSide]`: a client and a
 * server in one process, as in tests.
 *
 * @example
 * ```ts
 * import { Client, createLinkedPair, McpServer } from 'mcpgen';
 *
 * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
 * mcp.registerTool('ping', {}, () => ({ content: [{ type: 'text', text: 'pong' }] }));
 * const [clientSide, serverSide] = createLinkedPair();
 * await mcp.connect(serverSide);
 * const client = new Client({ name: 'test', version: '1.0.0' });
 * await client.connect(clientSide);
 * await client.callTool({ name: 'ping', arguments: {} });
 * ```
 */
export function createLinkedPair(options: LinkedPairOptions = {}): [InMemoryTransport, InMemoryTransport] {
  const a = new InMemoryTransport(options);
  const b = new InMemoryTransport(options);
  InMemoryTransport.link(a, b);
  return [a, b];
}
