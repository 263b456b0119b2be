/**
 * A Transport over `postMessage`: the channel between a host page and an app in its iframe (or
 * the two ends of a MessageChannel, in tests and workers). Structured cloning can carry values
 * JSON cannot (a Date, a Map, a cycle), so every inbound message is read through its JSON
 * text, as on a byte wire: what JSON cannot say arrives as a parse failure the engine answers.
 */
import { SdkError } from '../../core/errors.js';
import type { JSONRPCMessage } from '../../core/jsonrpc.js';
import type { Transport } from '../../core/transport.js';
import { ParseFailure } from '../../core/wire-format.js';

/** The inbound event as the transport reads it: a `MessageEvent`'s data, source and origin. */
export interface MessageEventLike {
  readonly data: unknown;
  readonly source?: unknown;
  readonly origin?: string;
}

/** A listener of `message` events. */
export type MessageListener = (event: MessageEventLike) => void;

/**
 * One end of a postMessage channel: where messages go and where they come from. A
 * MessagePort is one as it is; for windows, {@link windowEndpoint} builds one.
 */
export interface MessageEndpoint {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: MessageListener): void;
  removeEventListener(type: 'message', listener: MessageListener): void;
  /** Called once by `start()` when present (a MessagePort delivers only once started). */
  start?(): void;
  /** Called once by `close()` when present. */
  close?(): void;
}

/** The window side of {@link windowEndpoint}, structurally (no DOM types needed). */
export interface WindowLike {
  postMessage(message: unknown, targetOrigin: string): void;
}

/** Where a window endpoint listens: the receiving window itself. */
export interface MessageSourceLike {
  addEventListener(type: 'message', listener: MessageListener): void;
  removeEventListener(type: 'message', listener: MessageListener): void;
}

/** Default cap on one inbound message's JSON text: 4 MiB (a tool result with an image fits). */
export const DEFAULT_MAX_MESSAGE_CHARS = 4 * 1024 * 1024;

/**
 * An endpoint that talks to `peer` (the iframe's window, or `window.parent`) and hears only
 * messages whose `source` is `peer` and, unless `peerOrigin` is `'*'`, whose origin is
 * `peerOrigin`. Messages are posted to `peerOrigin`; `'*'` is for a sandboxed frame, whose
 * origin is opaque and which the source check still identifies.
 *
 * @example
 * ```ts
 * import { PostMessageTransport, windowEndpoint } from 'mcpgen/apps';
 *
 * const frame = document.querySelector('iframe')!;
 * const transport = new PostMessageTransport(windowEndpoint(frame.contentWindow!, 'https://sandbox.example', window));
 * ```
 */
export function windowEndpoint(peer: WindowLike, peerOrigin: string, listenOn: MessageSourceLike): MessageEndpoint {
  const wrapped = new Map<MessageListener, MessageListener>();
  return {
    postMessage: (message) => peer.postMessage(message, peerOrigin),
    addEventListener: (type, listener) => {
      const filter: MessageListener = (event) => {
        if (event.source !== peer) return;
        if (peerOrigin !== '*' && event.origin !== peerOrigin) return;
        listener(event);
      };
      wrapped.set(listener, filter);
      listenOn.addEventListener(type, filter);
    },
    removeEventListener: (type, listener) => {
      const filter = wrapped.get(listener);
      if (filter === undefined) return;
      wrapped.delete(listener);
      listenOn.removeEventListener(type, filter);
    },
  };
}

/** Options of a {@link PostMessageTransport}. */
export interface PostMessageTransportOptions {
  /** Cap on one inbound message's JSON text, in UTF-16 code units; default {@link DEFAULT_MAX_MESSAGE_CHARS}. */
  readonly maxMessageChars?: number;
}

/**
 * The Transport of an app connection: JSON-RPC messages as structured-cloned objects over a
 * {@link MessageEndpoint}. An inbound message that JSON cannot carry, or whose JSON text is
 * longer than `maxMessageChars`, reaches the engine as a parse failure (answered -32700, or
 * with the request's own id when it has one), never as a throw.
 *
 * @example
 * ```ts
 * import { PostMessageTransport } from 'mcpgen/apps';
 *
 * const { port1 } = new MessageChannel();
 * const transport = new PostMessageTransport(port1, { maxMessageChars: 1 << 20 });
 * ```
 */
export class PostMessageTransport implements Transport {
  onmessage?: (message: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly endpoint: MessageEndpoint;
  private readonly maxChars: number;
  private state: 'new' | 'open' | 'closed' = 'new';
  private readonly listener: MessageListener = (event) => this.receive(event.data);

  constructor(endpoint: MessageEndpoint, options: PostMessageTransportOptions = {}) {
    this.endpoint = endpoint;
    const max = options.maxMessageChars ?? DEFAULT_MAX_MESSAGE_CHARS;
    if (!Number.isInteger(max) || max < 1) throw new SdkError('INVALID_ARGUMENT', `maxMessageChars must be a positive integer, not ${String(max)}`);
    this.maxChars = max;
  }

  async start(): Promise<void> {
    if (this.state !== 'new') throw new SdkError(this.state === 'open' ? 'ALREADY_CONNECTED' : 'NOT_CONNECTED', 'PostMessageTransport can be started once');
    this.state = 'open';
    this.endpoint.addEventListener('message', this.listener);
    this.endpoint.start?.();
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    if (this.state !== 'open') throw new SdkError('NOT_CONNECTED', 'PostMessageTransport is not open');
    try {
      this.endpoint.postMessage(message);
    } catch (error) {
      throw new SdkError('SEND_FAILED', `postMessage failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasOpen = this.state === 'open';
    this.state = 'closed';
    if (wasOpen) {
      this.endpoint.removeEventListener('message', this.listener);
      this.endpoint.close?.();
    }
    this.onclose?.();
  }

  private receive(data: unknown): void {
    if (this.state !== 'open') return;
    let text: string | undefined;
    try {
      text = JSON.stringify(data);
    } catch {
      // A cycle or a BigInt: no JSON text, so no value.
    }
    if (text === undefined) {
      this.onmessage?.(new ParseFailure('invalid-json', 'The message is not representable as JSON'));
      return;
    }
    if (text.length > this.maxChars) {
      const head = typeof data === 'object' && data !== null ? (data as { id?: unknown; method?: unknown; result?: unknown; error?: unknown }) : {};
      const id = typeof head.id === 'string' || typeof head.id === 'number' ? head.id : undefined;
      const method = typeof head.method === 'string' ? head.method : undefined;
      this.onmessage?.(new ParseFailure('oversized', `The message exceeds ${this.maxChars} characters of JSON`, { limit: this.maxChars, head: { id, method, response: 'result' in head || 'error' in head } }));
      return;
    }
    // Parsing the text again gives a plain value: no prototypes, getters or shared objects.
    this.onmessage?.(JSON.parse(text) as unknown);
  }
}
