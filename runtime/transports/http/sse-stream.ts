/**
 * A logical MCP stream of the Streamable HTTP transport: the messages that belong to one POST
 * (its requests' responses and everything sent on their behalf) or to the session's standalone
 * GET stream. The stream may outlive its HTTP connection: with an event store, messages keep
 * being stored while the client is away and are replayed when it resumes with Last-Event-ID.
 */
import { asError } from '../../core/errors.js';
import type { JSONRPCMessage, JSONRPCResponse, RequestId } from '../../core/jsonrpc.js';
import type { EventStore } from './event-store.js';
import type { HttpReply, ResourceCounts, StreamReply } from './http-types.js';
import { emptyReply, jsonReply, jsonTextReply, sseHeaders } from './replies.js';
import type { Hold, HoldClock } from './hold-clock.js';
import { formatSseEvent, formatSseRetry, SseConnection } from './sse-writer.js';

/** Settings shared by every stream of a handler. */
export interface StreamSettings {
  /** Idle time before a keep-alive comment; 0 disables. Also how long a POST reply is held. */
  readonly keepAliveMs: number;
  /** Expires the holds of POST replies after `keepAliveMs`, one timer for every stream of the handler. */
  readonly holds: HoldClock;
  /** The SSE `retry` value sent with priming events and before the server closes a connection. */
  readonly retryMs: number;
  /** Where streamed messages are kept for resumption; undefined disables resumability. */
  readonly eventStore: EventStore | undefined;
  readonly counts: ResourceCounts;
  /** Receives failures nobody else can act on (a failing event store). */
  readonly report: (error: Error) => void;
}

/** What the owning transport learns from a stream. */
export interface StreamHooks {
  /** The stream is over: every response was delivered, or it was terminated. */
  onfinish(stream: SseStream): void;
  /** The client's connection dropped while the stream still had work to do. */
  ondisconnect(stream: SseStream): void;
}

/** A stored event handed back by replay. */
export interface ReplayedEvent {
  readonly id: string;
  readonly message: JSONRPCMessage;
}

/** Construction options of an {@link SseStream}. */
export interface SseStreamInit {
  readonly id: string;
  readonly kind: 'request' | 'standalone';
  /** The ids of the requests a POST stream answers; empty for the standalone stream. */
  readonly requestIds?: readonly RequestId[];
  /** Send a priming event (event id, empty data) at the stream's start: 2025-11-25 and later. */
  readonly priming: boolean;
  /** Store events for resumption (needs an event store and a session). */
  readonly resumable: boolean;
  readonly settings: StreamSettings;
  readonly hooks: StreamHooks;
}

/**
 * How a POST stream answers: `held` until the first outbound message decides it, then a single
 * JSON body when that message is the final response, otherwise an SSE stream.
 */
type Mode = 'held' | 'sse' | 'json';

/**
 * One logical stream. Every operation runs on a per-stream queue, because storing an event is
 * asynchronous and events must reach the store and the wire in the order they were sent.
 */
export class SseStream {
  readonly id: string;
  readonly kind: 'request' | 'standalone';
  /** Requests of this stream not answered yet. */
  readonly pending: Set<RequestId>;
  /** Settles with the HTTP reply of a POST stream once its mode is decided. */
  readonly reply: Promise<HttpReply>;
  /** The id of the last event stored for this stream. */
  lastEventId: string | undefined;

  private readonly settings: StreamSettings;
  private readonly hooks: StreamHooks;
  private readonly priming: boolean;
  private resumable: boolean;
  private mode: Mode;
  private connection: SseConnection | undefined;
  private connecting = false;
  private finished = false;
  private chain: Promise<void> = Promise.resolve();
  private settleReply: ((reply: HttpReply) => void) | undefined;
  private hold: Hold | undefined;

  constructor(init: SseStreamInit) {
    this.id = init.id;
    this.kind = init.kind;
    this.pending = new Set(init.requestIds ?? []);
    this.settings = init.settings;
    this.hooks = init.hooks;
    this.priming = init.priming && init.resumable && init.settings.eventStore !== undefined;
    this.resumable = init.resumable && init.settings.eventStore !== undefined;
    this.mode = init.kind === 'request' ? 'held' : 'sse';
    this.reply = new Promise<HttpReply>((resolve) => {
      this.settleReply = resolve;
    });
    if (this.mode === 'held' && init.settings.keepAliveMs > 0) {
      // A slow handler gets an SSE stream after one keep-alive interval, so that keep-alives
      // can flow and idle proxies do not cut the request.
      const expire = (): void => {
        this.clearHold();
        void this.enqueue(() => (this.mode === 'held' ? this.commitSse() : undefined), undefined);
      };
      this.hold = init.settings.holds.hold(expire);
    }
  }

  /** True while an HTTP connection carries this stream (or is being attached). */
  get connected(): boolean {
    return this.connection !== undefined || this.connecting;
  }

  /** True once the stream delivered its last response or was terminated. */
  get isFinished(): boolean {
    return this.finished;
  }

  /** True when a message sent now reaches the client, now or after it resumes. */
  get canDeliver(): boolean {
    return !this.finished && (this.connected || this.resumable || this.mode === 'held');
  }

  /**
   * Streams one message. `completes` says it is the response that answers the last pending
   * request, after which the stream ends. `data` is the message already encoded, when the
   * caller had to encode it first.
   */
  deliver(message: JSONRPCMessage | JSONRPCMessage[], completes: boolean, data?: string): Promise<void> {
    return this.enqueue(async () => {
      if (this.finished) {
        return;
      }
      if (this.mode === 'held') {
        if (completes) {
          this.mode = 'json';
          this.settle(jsonTextReply(200, data ?? JSON.stringify(message)));
          this.finish();
          return;
        }
        await this.commitSse();
      }
      await this.emit(message, data);
      if (completes) {
        this.connection?.end();
        this.finish();
      }
    }, undefined);
  }

  /**
   * Opens a fresh connection on the standalone stream (a GET without Last-Event-ID), starting
   * with a priming event where the revision has them.
   */
  connect(): StreamReply {
    const connection = new SseConnection(this.settings);
    this.connecting = true;
    void this.enqueue(async () => {
      this.connecting = false;
      this.supersede();
      if (this.finished) {
        connection.end();
        return;
      }
      this.attach(connection);
      await this.writePriming(connection);
    }, undefined);
    return streamReply(connection);
  }

  /**
   * Resumes the stream on a new connection: replays `replayed` (events after the client's
   * Last-Event-ID, read before this call) plus anything stored since, then continues live.
   * A connection still attached is superseded, since the client evidently lost it.
   */
  resume(afterEventId: string, replayed: readonly ReplayedEvent[]): StreamReply {
    const connection = new SseConnection(this.settings);
    this.connecting = true;
    void this.enqueue(async () => {
      this.connecting = false;
      const events = [...replayed];
      const knownLast = events.length > 0 ? events[events.length - 1]!.id : afterEventId;
      const store = this.settings.eventStore;
      if (store !== undefined && this.lastEventId !== undefined && this.lastEventId !== knownLast) {
        await store.replayEventsAfter(knownLast, (id, message) => {
          events.push({ id, message });
        });
      }
      this.supersede();
      for (const event of events) {
        connection.write(formatSseEvent({ id: event.id, data: JSON.stringify(event.message) }));
      }
      if (this.finished) {
        connection.end();
        return;
      }
      this.attach(connection);
    }, undefined);
    return streamReply(connection);
  }

  /**
   * Closes the HTTP connection without ending the stream (SEP-1699 polling): the client
   * reconnects with Last-Event-ID after `retry` and receives what was sent meanwhile.
   * Resolves false where that is impossible (no priming, so no resumability).
   */
  closeConnection(): Promise<boolean> {
    return this.enqueue(async () => {
      if (this.finished || !this.priming) {
        return false;
      }
      if (this.mode === 'held') {
        await this.commitSse();
      }
      const connection = this.connection;
      if (connection !== undefined) {
        connection.write(formatSseRetry(this.settings.retryMs));
        connection.end();
      }
      return true;
    }, false);
  }

  /**
   * Ends the stream without a response because its last pending request was cancelled by the
   * client (a cancelled request is never answered). A held POST gets an empty SSE stream.
   */
  release(): Promise<void> {
    return this.enqueue(() => {
      if (this.finished) {
        return;
      }
      if (this.mode === 'held') {
        this.mode = 'sse';
        this.settle(replayOnly(this.settings, []));
      } else {
        this.connection?.end();
      }
      this.finish();
    }, undefined);
  }

  /**
   * The client left before the reply was handed over: nothing it could resume from was sent,
   * so later messages are dropped rather than stored.
   */
  abandon(): void {
    // Once a streamed reply was handed over, the adapter's sink reports the disconnect instead.
    if (this.finished || this.mode !== 'held') {
      return;
    }
    this.mode = 'sse';
    this.resumable = false;
    this.clearHold();
    this.settle(emptyReply(499));
    this.hooks.ondisconnect(this);
  }

  /**
   * Ends the stream because the session is closing: every pending request is answered with
   * `errorFor(id)`, then the connection ends.
   */
  terminate(errorFor: (id: RequestId) => JSONRPCResponse): Promise<void> {
    return this.enqueue(async () => {
      if (this.finished) {
        return;
      }
      const answers = [...this.pending].map(errorFor);
      this.pending.clear();
      if (this.mode === 'held') {
        this.mode = 'json';
        this.settle(answers.length === 1 ? jsonReply(200, answers[0]) : jsonReply(200, answers));
      } else {
        for (const answer of answers) {
          await this.emit(answer);
        }
        this.connection?.end();
      }
      this.finish();
    }, undefined);
  }

  private async commitSse(): Promise<void> {
    this.mode = 'sse';
    this.clearHold();
    const connection = new SseConnection(this.settings);
    this.attach(connection);
    this.settle(streamReply(connection));
    await this.writePriming(connection);
  }

  private async writePriming(connection: SseConnection): Promise<void> {
    if (!this.priming) {
      return;
    }
    const id = await this.store(null);
    if (id !== undefined) {
      connection.write(formatSseEvent({ id, data: '', retry: this.settings.retryMs }));
    }
  }

  private async emit(message: JSONRPCMessage | JSONRPCMessage[], encoded?: string): Promise<void> {
    const data = encoded ?? JSON.stringify(message);
    const id = this.resumable ? await this.store(message as JSONRPCMessage) : undefined;
    this.connection?.write(formatSseEvent({ id, data }));
  }

  private async store(message: JSONRPCMessage | null): Promise<string | undefined> {
    const store = this.settings.eventStore;
    if (store === undefined) {
      return undefined;
    }
    try {
      const id = await store.storeEvent(this.id, message);
      this.lastEventId = id;
      return id;
    } catch (error) {
      this.settings.report(asError(error));
      return undefined;
    }
  }

  private attach(connection: SseConnection): void {
    this.connection = connection;
    const onclose = (): void => {
      if (this.connection !== connection) {
        return;
      }
      this.connection = undefined;
      if (!this.finished) {
        this.hooks.ondisconnect(this);
      }
    };
    connection.onclose = onclose;
  }

  /** Detaches and ends the current connection without reporting a disconnect. */
  private supersede(): void {
    const old = this.connection;
    this.connection = undefined;
    old?.end();
  }

  private settle(reply: HttpReply): void {
    const settle = this.settleReply;
    this.settleReply = undefined;
    settle?.(reply);
  }

  private clearHold(): void {
    if (this.hold !== undefined) {
      this.settings.holds.release(this.hold);
      this.hold = undefined;
    }
  }

  private finish(): void {
    if (this.finished) {
      return;
    }
    this.finished = true;
    this.clearHold();
    this.settle(emptyReply(204));
    this.hooks.onfinish(this);
  }

  private enqueue<T>(operation: () => Promise<T> | T, fallback: T): Promise<T> {
    const run = this.chain.then(operation);
    this.chain = run.then(
      () => undefined,
      (error: unknown) => this.settings.report(asError(error)),
    );
    return run.catch(() => fallback);
  }
}

/** A stream reply over `connection`, with the SSE headers. */
export function streamReply(connection: SseConnection): StreamReply {
  return { kind: 'stream', status: 200, headers: sseHeaders(), open: (sink) => connection.bind(sink) };
}

/** A reply that replays `events` of a stream that already ended, then ends too. */
export function replayOnly(settings: StreamSettings, events: readonly ReplayedEvent[]): StreamReply {
  const connection = new SseConnection(settings);
  for (const event of events) {
    connection.write(formatSseEvent({ id: event.id, data: JSON.stringify(event.message) }));
  }
  connection.end();
  return streamReply(connection);
}
