import { SdkError } from './errors.js';
import type { JSONRPCMessage } from './jsonrpc.js';
import { DELIVERED, type MessageExtra, type Transport, type TransportSendOptions } from './transport.js';
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
 *
 * Frames sent in one turn wait in this end's inbox and are delivered by one promise reaction,
 * in the order sent. A reaction rather than `queueMicrotask`: Node wraps each queued microtask
 * in an async resource and a bound function, which cost more than the delivery itself. The inbox
 * holds what the peer sends before the next microtask (or before this end starts), and no more:
 * each delivery empties it.
 */
export class InMemoryTransport implements Transport {
  onmessage?: (message: unknown, extra?: MessageExtra) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private peer: InMemoryTransport | undefined;
  private readonly serialize: boolean;
  private started = false;
  private closed = false;
  /** Frames sent to this end and not yet delivered, oldest first. */
  private inbox: unknown[] = [];
  /** Whether a delivery of the inbox is queued. */
  private queued = false;
  private readonly deliverInbox: () => void;

  constructor(options: LinkedPairOptions = {}) {
    this.serialize = options.serialize ?? false;
    const deliverInbox = (): void => this.deliver();
    this.deliverInbox = deliverInbox;
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
    if (this.inbox.length > 0) this.queue();
  }

  /** Queues the message for asynchronous delivery to the peer (one microtask later). */
  send(message: JSONRPCMessage | JSONRPCMessage[], _options?: TransportSendOptions): Promise<void> {
    const peer = this.peer;
    if (this.closed || peer === undefined) {
      return Promise.reject(new SdkError('NOT_CONNECTED', 'InMemoryTransport is closed'));
    }
    // Delivery itself happens later and cannot fail: there is nothing to wait for.
    peer.accept(this.serialize ? encodeMessage(message) : message);
    return DELIVERED;
  }

  /** Closes this end and the peer; each fires `onclose` once. */
  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.inbox = [];
    const peer = this.peer;
    this.onclose?.();
    await peer?.close();
  }

  private accept(frame: unknown): void {
    if (this.closed) {
      return;
    }
    this.inbox.push(frame);
    if (this.started && !this.queued) this.queue();
  }

  private queue(): void {
    this.queued = true;
    void DELIVERED.then(this.deliverInbox);
  }

  /** Delivers the inbox in order, frames that arrive meanwhile included; stops when this end closes. */
  private deliver(): void {
    const inbox = this.inbox;
    // shift() rather than an index and a final `length = 0`: setting an array's length takes
    // a slow builtin, dearer than shifting the few frames of one turn.
    while (inbox.length > 0 && !this.closed) {
      const frame = inbox.shift();
      try {
        this.onmessage?.(typeof frame === 'string' ? decodeMessage(frame) : frame);
      } catch (error) {
        // As a microtask of its own would have: the exception is uncaught, the rest still arrive.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    this.queued = false;
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
