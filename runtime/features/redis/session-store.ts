/**
 * Stateful (2025-11-25 and older) sessions shared by replicas through Redis. A session's
 * negotiated state lives in one hash; any replica restores a Server from it. What the server
 * sends outside a request's stream is appended to one Redis stream per session, from whichever
 * replica sent it, and the replica holding the client's GET connection tails that stream (woken
 * by pub/sub), so a notification caused anywhere reaches the client once, and a client that
 * loses its GET connection resumes on any replica with Last-Event-ID. The client's response to
 * a server-initiated request (and its progress notifications for one) may reach any replica; it
 * is relayed to the one awaiting it on a durable channel, so a subscriber reconnecting meanwhile
 * still gets it, once.
 */
import { asError } from '../../core/errors.js';
import { isJsonObject, type JSONRPCMessage } from '../../core/jsonrpc.js';
import type { HttpReply } from '../../transports/http/http-types.js';
import { errorReply, TRANSPORT_ERROR_CODES } from '../../transports/http/replies.js';
import type { StandaloneChannel } from '../../transports/http/server-transport.js';
import type { SessionStore, SharedSessionState, StandaloneChannelContext } from '../../transports/http/session.js';
import { streamReply } from '../../transports/http/sse-stream.js';
import { formatSseEvent, formatSseRetry, SseConnection } from '../../transports/http/sse-writer.js';
import type { RedisConnection } from './connection.js';
import { DurableReceiver, sendDurable, type DurableChannelBounds } from './durable-channel.js';
import { parseEntries, readAfter } from './event-store.js';

/** Options of a {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** A session expires when no request touched it for this long (default 1 hour). */
  readonly ttlMs?: number | undefined;
  /** Messages kept in a session's standalone stream for resumption (default 1,000). */
  readonly maxStandaloneEvents?: number | undefined;
}

/** Event ids of the standalone stream: `gs_<entry id>`; request streams' ids never start so. */
const EVENT_PREFIX = 'gs_';
const ENTRY_ID = /^\d{1,20}-\d{1,20}$/;
const PAGE = 200;
/**
 * The relay stream of one session copy: it holds what other replicas relayed and the copy has
 * not read yet, and a request of the server waits at most minutes for its answer.
 */
const RELAY_BOUNDS: DurableChannelBounds = { maxLength: 1_000, ttlMs: 10 * 60_000 };
/** Wait before the standalone stream reads again after a read that failed. */
const PUMP_RETRY_MS = 500;
/** Published on a session's wake channel when the session ends. */
const ENDED = 'ended';

// Reads the session and extends its expiry (and its stream's) in one round trip.
const LOAD = `local state = redis.call('HGETALL', KEYS[1])
if #state == 0 then return nil end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return state`;
const UPDATE = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'initialized', ARGV[1], 'loggingLevel', ARGV[2])
return 1`;
const DELETE = `redis.call('DEL', KEYS[1], KEYS[2])
redis.call('PUBLISH', KEYS[3], ARGV[1])
return 1`;
// Appends one message (or the priming cursor, '') and wakes the replica holding the GET connection.
const APPEND = `local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'm', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then redis.call('PUBLISH', KEYS[2], id) end
return id`;

/**
 * A {@link SessionStore} on Redis: keys `<prefix>:session:<id>` (hash), `<prefix>:gs:<id>`
 * (standalone stream) and channel `<prefix>:gw:<id>`, all expiring with the session; durable
 * channels `<prefix>:rr:<id>:<copy>` (streams of at most about 1,000 entries, expiring 10 minutes
 * after the last) carry the client's responses to the replica copy that sent the request.
 *
 * @example
 * ```ts
 * import { createMcpHttpHandler } from 'mcpgen';
 * import { RedisConnection, RedisEventStore, RedisSessionStore } from 'mcpgen/redis';
 *
 * const redis = await RedisConnection.connect({ prefix: 'weather' });
 * const mcp = createMcpHttpHandler({
 *   server: () => createMyServer(),
 *   sessionStore: new RedisSessionStore(redis),
 *   eventStore: new RedisEventStore(redis),
 *   sessionIdleTimeoutMs: 300_000, // local copies of hopping sessions go away; the session stays
 * });
 * ```
 */
export class RedisSessionStore implements SessionStore {
  private readonly ttlMs: number;
  private readonly maxEvents: number;

  constructor(
    private readonly redis: RedisConnection,
    options: RedisSessionStoreOptions = {},
  ) {
    this.ttlMs = Math.max(1_000, options.ttlMs ?? 3_600_000);
    this.maxEvents = Math.max(10, options.maxStandaloneEvents ?? 1_000);
  }

  async create(id: string, state: SharedSessionState): Promise<void> {
    const { initialized, loggingLevel, ...fixed } = state;
    await this.redis.evaluate(
      `redis.call('HSET', KEYS[1], 'fixed', ARGV[1], 'initialized', ARGV[2], 'loggingLevel', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`,
      [this.redis.key('session', id)],
      [JSON.stringify(fixed), initialized ? '1' : '0', loggingLevel ?? '', String(this.ttlMs)],
    );
  }

  async load(id: string): Promise<SharedSessionState | undefined> {
    const reply = await this.redis.evaluate<unknown>(LOAD, [this.redis.key('session', id), this.redis.key('gs', id)], [String(this.ttlMs)]);
    if (!Array.isArray(reply) || reply.length === 0) return undefined;
    const fields = new Map<string, string>();
    for (let i = 0; i + 1 < reply.length; i += 2) fields.set(String(reply[i]), String(reply[i + 1]));
    const fixed = JSON.parse(fields.get('fixed') ?? '{}') as Omit<SharedSessionState, 'initialized' | 'loggingLevel'>;
    const level = fields.get('loggingLevel');
    return { ...fixed, initialized: fields.get('initialized') === '1', loggingLevel: level === undefined || level === '' ? undefined : (level as SharedSessionState['loggingLevel']) };
  }

  async update(id: string, changes: Pick<SharedSessionState, 'initialized' | 'loggingLevel'>): Promise<void> {
    await this.redis.evaluate(UPDATE, [this.redis.key('session', id)], [changes.initialized ? '1' : '0', changes.loggingLevel ?? '']);
  }

  async delete(id: string): Promise<void> {
    await this.redis.evaluate(DELETE, [this.redis.key('session', id), this.redis.key('gs', id), this.redis.key('gw', id)], [ENDED]);
  }

  standalone(id: string, context: StandaloneChannelContext): StandaloneChannel {
    return new RedisStandaloneChannel(this.redis, id, context, this.ttlMs, this.maxEvents);
  }
}

/** One replica's view of a session's shared standalone stream. */
class RedisStandaloneChannel implements StandaloneChannel {
  private readonly key: string;
  private readonly wake: string;
  private connection: SseConnection | undefined;
  /** The last entry written to the current connection. */
  private cursor = '0-0';
  private unsubscribe: (() => Promise<void>) | undefined;
  private removeReady: (() => void) | undefined;
  private pumping = false;
  /** Set while a read that failed waits to be tried again. */
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** True from a failed read to the next good one: one report per outage, not per retry. */
  private failing = false;
  private again = false;
  private closed = false;
  /** The relay of responses to this copy's requests, once listening. */
  private relay: DurableReceiver | undefined;

  constructor(
    private readonly redis: RedisConnection,
    private readonly id: string,
    private readonly context: StandaloneChannelContext,
    private readonly ttlMs: number,
    private readonly maxEvents: number,
  ) {
    this.key = redis.key('gs', id);
    this.wake = redis.key('gw', id);
  }

  get connected(): boolean {
    return this.connection !== undefined;
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    // A request's id names the copy awaiting it (the transport tags it), so its response finds it.
    await this.append(JSON.stringify(message));
  }

  async listenForResponses(copy: string, deliver: (response: JSONRPCMessage) => void): Promise<void> {
    if (this.relay !== undefined) return;
    if (this.closed) throw new Error('The session copy is closed');
    const relay = await DurableReceiver.listen(this.redis, this.redis.key('rr', this.id, copy), RELAY_BOUNDS, (text) => {
      let response: unknown;
      try {
        response = JSON.parse(text);
      } catch {
        return;
      }
      if (isJsonObject(response)) deliver(response as unknown as JSONRPCMessage);
    }, this.context.report);
    if (this.relay !== undefined || this.closed) {
      void relay.close().catch((error: unknown) => this.context.report(asError(error)));
      return;
    }
    this.relay = relay;
  }

  async relayResponse(copy: string, response: JSONRPCMessage): Promise<boolean> {
    // Stored for the copy: delivered now, or once its subscriber is back.
    await sendDurable(this.redis, this.redis.key('rr', this.id, copy), JSON.stringify(response), RELAY_BOUNDS);
    return true;
  }

  owns(lastEventId: string): boolean {
    return lastEventId.startsWith(EVENT_PREFIX);
  }

  async open(lastEventId: string | undefined): Promise<HttpReply> {
    if (this.closed) return errorReply(404, TRANSPORT_ERROR_CODES.SESSION_NOT_FOUND, 'Session not found');
    let start: string;
    let replay: [string, string][] = [];
    try {
      // Listening first, so nothing appended between the read below and the first pump is missed.
      this.unsubscribe ??= await this.redis.subscribe(this.wake, (message) => this.onWake(message));
      if (lastEventId === undefined) {
        start = await this.append('');
      } else {
        start = lastEventId.slice(EVENT_PREFIX.length);
        const after = ENTRY_ID.test(start) ? await readAfter(this.redis, this.key, start) : undefined;
        if (after === undefined) {
          this.releaseIfIdle();
          return errorReply(400, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Bad Request: unknown or expired Last-Event-ID');
        }
        replay = after;
      }
    } catch (error) {
      this.releaseIfIdle();
      const cause = asError(error);
      this.context.report(cause);
      return errorReply(503, TRANSPORT_ERROR_CODES.INTERNAL_ERROR, `Service Unavailable: the shared session store cannot be reached (${cause.message})`, { 'retry-after': '1' });
    }
    const connection = new SseConnection({ keepAliveMs: this.context.keepAliveMs, counts: this.context.counts });
    const superseded = this.connection;
    this.connection = connection;
    superseded?.end();
    const onclose = (): void => {
      if (this.connection !== connection) return;
      this.connection = undefined;
      this.releaseIfIdle();
    };
    connection.onclose = onclose;
    this.removeReady ??= this.redis.onReady(() => this.pump());
    // Priming and polling come together (SEP-1699): the same fact the in-process stream reads.
    if (lastEventId === undefined && this.context.primesStreams()) {
      connection.write(formatSseEvent({ id: `${EVENT_PREFIX}${start}`, data: '', retry: this.context.retryMs }));
    }
    this.cursor = start;
    this.write(replay);
    this.pump();
    return streamReply(connection);
  }

  async closeConnection(): Promise<boolean> {
    const connection = this.connection;
    if (connection === undefined || !this.context.primesStreams()) return false;
    connection.write(formatSseRetry(this.context.retryMs));
    connection.end();
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.connection?.end();
    this.connection = undefined;
    this.releaseIfIdle();
    this.releaseRelay();
  }

  private releaseRelay(): void {
    const relay = this.relay;
    this.relay = undefined;
    relay?.close().catch((error: unknown) => this.context.report(asError(error)));
  }

  private append(data: string): Promise<string> {
    return this.redis.evaluate<string>(APPEND, [this.key, this.wake], [String(this.maxEvents), String(this.ttlMs), data]);
  }

  private onWake(message: string): void {
    if (message === ENDED) {
      this.connection?.end();
      return;
    }
    this.pump();
  }

  /** Writes what was appended after the cursor; one read at a time, again if woken meanwhile. */
  private pump(): void {
    if (this.connection === undefined) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void (async () => {
      try {
        do {
          this.again = false;
          let page: [string, string][];
          do {
            const connection = this.connection;
            if (connection === undefined) return;
            page = parseEntries(await this.redis.command(['XRANGE', this.key, `(${this.cursor}`, '+', 'COUNT', String(PAGE)]));
            if (this.connection !== connection) return;
            this.write(page);
          } while (page.length === PAGE);
        } while (this.again);
        this.failing = false;
      } catch (error) {
        // Redis went away: the wake after reconnection (onReady) catches up from the cursor, and
        // so does a read a moment later, since a stalled Redis may come back without one.
        if (!this.failing) this.context.report(asError(error));
        this.failing = true;
        this.retryTimer ??= setTimeout(() => {
          this.retryTimer = undefined;
          this.pump();
        }, PUMP_RETRY_MS);
      } finally {
        this.pumping = false;
        if (this.again) {
          this.again = false;
          this.pump();
        }
      }
    })();
  }

  private write(entries: readonly [string, string][]): void {
    const connection = this.connection;
    if (connection === undefined) return;
    for (const [id, data] of entries) {
      this.cursor = id;
      if (data !== '') connection.write(formatSseEvent({ id: `${EVENT_PREFIX}${id}`, data }));
    }
  }

  /** Stops listening once no connection needs the wake-ups. */
  private releaseIfIdle(): void {
    if (this.connection !== undefined) return;
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    this.removeReady?.();
    this.removeReady = undefined;
    unsubscribe?.().catch((error: unknown) => this.context.report(asError(error)));
  }
}
