/**
 * Storage of SSE events for resumability: every message the server streams is stored under
 * the id of the logical stream it belongs to, so that a client that lost the connection can
 * resume with `Last-Event-ID` and receive what it missed, on that stream only.
 */
import type { JSONRPCMessage } from '../../core/jsonrpc.js';

/** Receives one replayed event. */
export type EventSender = (eventId: string, message: JSONRPCMessage) => void | Promise<void>;

/**
 * Where streamed messages are kept for replay. Implementations mint the event ids, which must
 * be unique across every stream they hold; the server never parses them.
 */
export interface EventStore {
  /**
   * Stores `message` as the next event of `streamId` and returns its event id. `null` stores
   * a cursor without content (the priming event at a stream's start), which replay skips.
   */
  storeEvent(streamId: string, message: JSONRPCMessage | null): Promise<string> | string;
  /**
   * Calls `send` for every event of the stream `lastEventId` belongs to that was stored after
   * it, in order, and returns that stream's id. Returns undefined when the id is unknown or
   * events after it were already discarded, so that a resumption never silently skips any.
   */
  replayEventsAfter(lastEventId: string, send: EventSender): Promise<string | undefined> | string | undefined;
  /**
   * Optional, for stores that several server processes share: true when the process that wrote
   * `streamId` is known to have stopped, so the requests of that stream will never be answered.
   * A replica asked to resume such a stream then tells the client so (HTTP 410) instead of
   * leaving it to poll until its retries run out. False when alive or not known.
   */
  writerGone?(streamId: string): Promise<boolean> | boolean;
}

/** Options of an {@link InMemoryEventStore}. */
export interface InMemoryEventStoreOptions {
  /** Events kept across all streams; the oldest are discarded first (default 10,000). */
  readonly maxEvents?: number | undefined;
}

interface StoredEvent {
  readonly seq: number;
  readonly message: JSONRPCMessage | null;
}

interface StoredStream {
  readonly events: StoredEvent[];
  /** Cursors below this sequence number cannot be resumed anymore (their successors are gone). */
  floor: number;
}

/** Separates the stream id from the sequence number in the event ids this store mints. */
const SEPARATOR = '_';

/**
 * A bounded, process-local {@link EventStore}. Event ids are `<streamId>_<n>` with `n` from one
 * counter shared by all streams, so ids never repeat even when a stream is discarded and a
 * stream of the same id appears later.
 */
export class InMemoryEventStore implements EventStore {
  private readonly maxEvents: number;
  private readonly streams = new Map<string, StoredStream>();
  /** The stream of every stored event, oldest first, for eviction; `head` skips evicted slots. */
  private order: string[] = [];
  private head = 0;
  private nextSeq = 1;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.maxEvents = Math.max(1, options.maxEvents ?? 10_000);
  }

  /** Number of events currently held. */
  get size(): number {
    return this.order.length - this.head;
  }

  /** Number of streams with at least one event held. */
  get streamCount(): number {
    return this.streams.size;
  }

  storeEvent(streamId: string, message: JSONRPCMessage | null): string {
    const seq = this.nextSeq++;
    let stream = this.streams.get(streamId);
    if (stream === undefined) {
      stream = { events: [], floor: seq };
      this.streams.set(streamId, stream);
    }
    stream.events.push({ seq, message });
    this.order.push(streamId);
    while (this.size > this.maxEvents) {
      this.evictOldest();
    }
    return `${streamId}${SEPARATOR}${seq}`;
  }

  async replayEventsAfter(lastEventId: string, send: EventSender): Promise<string | undefined> {
    const cut = lastEventId.lastIndexOf(SEPARATOR);
    if (cut <= 0) {
      return undefined;
    }
    const streamId = lastEventId.slice(0, cut);
    const digits = lastEventId.slice(cut + 1);
    const seq = /^\d{1,15}$/.test(digits) ? Number(digits) : Number.NaN;
    const stream = this.streams.get(streamId);
    if (stream === undefined || !Number.isSafeInteger(seq) || seq < stream.floor || seq >= this.nextSeq) {
      return undefined;
    }
    // Copy first: `send` may be slow, and new events stored meanwhile belong to the live stream.
    const after = stream.events.filter((event) => event.seq > seq);
    for (const event of after) {
      if (event.message !== null) {
        await send(`${streamId}${SEPARATOR}${event.seq}`, event.message);
      }
    }
    return streamId;
  }

  private evictOldest(): void {
    const streamId = this.order[this.head];
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
    if (streamId === undefined) {
      return;
    }
    const stream = this.streams.get(streamId);
    const evicted = stream?.events.shift();
    if (stream === undefined || evicted === undefined) {
      return;
    }
    // A cursor equal to the evicted event still resumes correctly; older ones would skip it.
    stream.floor = evicted.seq;
    if (stream.events.length === 0) {
      this.streams.delete(streamId);
    }
  }
}
