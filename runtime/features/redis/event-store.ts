/**
 * Resumable SSE replay kept in Redis, so a client whose stream was cut (its replica died, a
 * proxy dropped it) resumes with Last-Event-ID on any replica. One Redis stream per SSE stream;
 * each entry names the replica that wrote it, so another can tell when that one is gone.
 */
import type { JSONRPCMessage } from '../../core/jsonrpc.js';
import type { EventSender, EventStore } from '../../transports/http/event-store.js';
import type { RedisConnection } from './connection.js';

/** Options of a {@link RedisEventStore}. */
export interface RedisEventStoreOptions {
  /** Events kept per stream (default 1,000); older ones are trimmed and cannot be resumed from. */
  readonly maxEventsPerStream?: number | undefined;
  /** A stream expires this long after its last event (default 1 hour). */
  readonly ttlMs?: number | undefined;
}

/** Separates the stream id from the Redis entry id in the event ids this store mints. */
const SEPARATOR = '_';
const ENTRY_ID = /^\d{1,20}-\d{1,20}$/;
const PAGE = 500;
/** How long a replica may look gone while its pub/sub link reconnects, before it is taken for gone. */
const PRESENCE_RECHECK_MS = 500;

// XADD and PEXPIRE in one round trip; '' is the priming cursor (no content); `o` the writer.
const STORE = `local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'm', ARGV[3], 'o', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return id`;

/**
 * An {@link EventStore} on Redis streams: event ids are `<stream id>_<entry id>`, replay reads
 * the entries after the client's cursor and refuses a cursor that was trimmed or expired, so a
 * resumption never silently skips events. Keys are `<prefix>:ev:<stream id>`, bounded in length
 * and expiring.
 *
 * @example
 * ```ts
 * import { createMcpHttpHandler } from 'mcpgen';
 * import { RedisConnection, RedisEventStore } from 'mcpgen/redis';
 *
 * const redis = await RedisConnection.connect({ prefix: 'weather' });
 * const mcp = createMcpHttpHandler({ server: () => createMyServer(), eventStore: new RedisEventStore(redis) });
 * ```
 */
export class RedisEventStore implements EventStore {
  private readonly maxEvents: number;
  private readonly ttlMs: number;

  constructor(
    private readonly redis: RedisConnection,
    options: RedisEventStoreOptions = {},
  ) {
    this.maxEvents = Math.max(1, options.maxEventsPerStream ?? 1_000);
    this.ttlMs = Math.max(1, options.ttlMs ?? 3_600_000);
  }

  async storeEvent(streamId: string, message: JSONRPCMessage | null): Promise<string> {
    const data = message === null ? '' : JSON.stringify(message);
    const entry = await this.redis.evaluate<string>(STORE, [this.key(streamId)], [String(this.maxEvents), String(this.ttlMs), data, this.redis.replicaId]);
    return `${streamId}${SEPARATOR}${entry}`;
  }

  async replayEventsAfter(lastEventId: string, send: EventSender): Promise<string | undefined> {
    const cut = lastEventId.lastIndexOf(SEPARATOR);
    if (cut <= 0) return undefined;
    const streamId = lastEventId.slice(0, cut);
    const cursor = lastEventId.slice(cut + 1);
    if (!ENTRY_ID.test(cursor)) return undefined;
    const entries = await readAfter(this.redis, this.key(streamId), cursor);
    if (entries === undefined) return undefined;
    for (const [id, data] of entries) {
      if (data !== '') await send(`${streamId}${SEPARATOR}${id}`, JSON.parse(data) as JSONRPCMessage);
    }
    return streamId;
  }

  /**
   * True when the replica that wrote the stream's newest event is gone: its presence channel has
   * no subscriber, twice, half a second apart, since a live replica's pub/sub link may be
   * reconnecting for a moment (three round trips; only asked when a resumption found nothing).
   */
  async writerGone(streamId: string): Promise<boolean> {
    const newest = await this.redis.command<unknown>(['XREVRANGE', this.key(streamId), '+', '-', 'COUNT', '1']);
    const fields = Array.isArray(newest) && Array.isArray(newest[0]) ? (newest[0] as unknown[])[1] : undefined;
    if (!Array.isArray(fields)) return false;
    const at = fields.indexOf('o');
    const writer = at >= 0 ? fields[at + 1] : undefined;
    if (typeof writer !== 'string' || writer === this.redis.replicaId || !(await this.redis.replicaGone(writer))) return false;
    await new Promise((resolve) => setTimeout(resolve, PRESENCE_RECHECK_MS));
    return this.redis.replicaGone(writer);
  }

  private key(streamId: string): string {
    return this.redis.key('ev', streamId);
  }
}

/**
 * The entries of stream `key` after `cursor`, as [entry id, data]; undefined when `cursor` is no
 * longer in the stream (trimmed, expired, never there), since what followed it may be gone too.
 */
export async function readAfter(redis: RedisConnection, key: string, cursor: string): Promise<[string, string][] | undefined> {
  // The first page starts at the cursor itself, which proves it is still there.
  const first = parseEntries(await redis.command(['XRANGE', key, cursor, '+', 'COUNT', String(PAGE + 1)]));
  if (first[0]?.[0] !== cursor) return undefined;
  const entries = first.slice(1);
  let page = first;
  while (page.length > PAGE) {
    page = parseEntries(await redis.command(['XRANGE', key, `(${entries[entries.length - 1]![0]}`, '+', 'COUNT', String(PAGE + 1)]));
    entries.push(...page);
  }
  return entries;
}

/** XRANGE's raw reply as [entry id, field `m`]. */
export function parseEntries(reply: unknown): [string, string][] {
  if (!Array.isArray(reply)) return [];
  const entries: [string, string][] = [];
  for (const item of reply as unknown[]) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || !Array.isArray(item[1])) continue;
    const fields = item[1] as unknown[];
    const at = fields.indexOf('m');
    entries.push([item[0], at >= 0 && typeof fields[at + 1] === 'string' ? (fields[at + 1] as string) : '']);
  }
  return entries;
}
