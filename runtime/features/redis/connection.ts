/**
 * The Redis link every `mcpgen/redis` store shares: one command connection and one pub/sub
 * connection (node-redis), key namespacing, a deadline on every command, and errors that say the
 * shared state is unreachable instead of hanging a request. node-redis reconnects on its own; while
 * it is away, commands fail at once (no offline queue), so nothing waits on a dead link and nothing
 * a client was told succeeded depends on a write that was only queued.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { asError } from '../../core/errors.js';

/**
 * The part of a node-redis client (`createClient()` of the `redis` package) this package
 * drives. Spelled structurally rather than as node-redis's own type so that these declarations
 * compile for users who have not installed the optional peer; the assignment in
 * {@link RedisConnection.connect} checks that node-redis still fits it.
 */
export interface RedisClient {
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  sendCommand<T>(args: readonly string[], options: { abortSignal: AbortSignal }): Promise<T>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  on(event: 'error' | 'ready', listener: (value?: unknown) => void): unknown;
  close(): Promise<unknown>;
  destroy(): unknown;
}

/**
 * Redis could not be reached in time (down, restarting, too slow). The request that needed it
 * fails with this error; the connection recovers by itself.
 */
export class SharedStateUnavailableError extends Error {
  /** Machine-readable reason, stable across messages. */
  readonly code = 'SHARED_STATE_UNAVAILABLE';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SharedStateUnavailableError';
  }
}

/** Options of {@link RedisConnection.connect}. */
export interface RedisConnectionOptions {
  /** `redis://host:port/db` (default: `$REDIS_URL`, else `redis://127.0.0.1:6379`). */
  readonly url?: string | undefined;
  /** Namespace of every key and channel (default `mcpgen`); replicas of one server share it. */
  readonly prefix?: string | undefined;
  /** Deadline of one command in milliseconds (default 2,000); past it the request fails. */
  readonly commandTimeoutMs?: number | undefined;
  /** How long `connect` waits for the first connection (default 5,000 ms). */
  readonly connectTimeoutMs?: number | undefined;
  /** Receives connection losses and recoveries (once per outage, not per retry). */
  readonly onerror?: ((error: Error) => void) | undefined;
}

type Listener = (message: string) => void;

/**
 * A pair of Redis connections with deadlines and namespacing.
 *
 * @example
 * ```ts
 * import { RedisConnection } from 'mcpgen/redis';
 *
 * const redis = await RedisConnection.connect({ url: 'redis://127.0.0.1:6379', prefix: 'weather' });
 * await redis.command(['PING']);
 * await redis.close();
 * ```
 */
export class RedisConnection {
  readonly prefix: string;
  /**
   * This process's id among the replicas. The pub/sub link listens on its presence channel
   * (`<prefix>:presence:<id>`) while the process lives, so Redis itself knows, by the channel's
   * subscriber count, whether the replica that wrote something is still there.
   */
  readonly replicaId = randomBytes(6).toString('hex');
  /** Commands sent so far (each is one round trip); for measurements. */
  commandsSent = 0;
  private readonly client: RedisClient;
  private readonly subscriber: RedisClient;
  private readonly timeoutMs: number;
  private readonly onerror: ((error: Error) => void) | undefined;
  private readonly readyListeners = new Set<() => void>();
  private readonly channels = new Map<string, Set<Listener>>();
  private down = false;
  private closed = false;

  private constructor(client: RedisClient, subscriber: RedisClient, options: RedisConnectionOptions) {
    this.client = client;
    this.subscriber = subscriber;
    this.prefix = options.prefix ?? 'mcpgen';
    this.timeoutMs = options.commandTimeoutMs ?? 2_000;
    this.onerror = options.onerror;
    for (const [name, link] of [['commands', client], ['pub/sub', subscriber]] as const) {
      link.on('error', (error: unknown) => this.lost(name, error));
      link.on('ready', () => this.recovered(name));
    }
  }

  /** Connects both links; rejects with SharedStateUnavailableError when Redis is not there in time. */
  static async connect(options: RedisConnectionOptions = {}): Promise<RedisConnection> {
    const url = options.url ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const link = (): RedisClient => createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: options.connectTimeoutMs ?? 5_000,
        // Quick first retries, then every second: replicas come back soon after Redis does.
        reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1_000),
      },
    });
    const client = link();
    const subscriber = link();
    const connection = new RedisConnection(client, subscriber, options);
    const deadline = options.connectTimeoutMs ?? 5_000;
    try {
      await withDeadline(Promise.all([client.connect(), subscriber.connect()]), deadline, `Redis at ${redactUrl(url)} did not answer within ${deadline} ms`);
    } catch (error) {
      client.destroy();
      subscriber.destroy();
      throw error instanceof SharedStateUnavailableError ? error : new SharedStateUnavailableError(`Cannot connect to Redis at ${redactUrl(url)}: ${asError(error).message}`, { cause: error });
    }
    try {
      await connection.subscribe(connection.presenceChannel(connection.replicaId), () => undefined);
    } catch (error) {
      await connection.close();
      throw error;
    }
    return connection;
  }

  /** The presence channel of replica `replicaId`. */
  presenceChannel(replicaId: string): string {
    return this.key('presence', replicaId);
  }

  /**
   * Whether replica `replicaId` is gone: its presence channel has no subscriber (one round trip).
   * Right after Redis restarts, a live replica may not have resubscribed yet.
   */
  async replicaGone(replicaId: string): Promise<boolean> {
    const reply = await this.command<unknown[]>(['PUBSUB', 'NUMSUB', this.presenceChannel(replicaId)]);
    return Array.isArray(reply) && Number(reply[1]) === 0;
  }

  /** True while the command link is connected. */
  get isReady(): boolean {
    return this.client.isReady;
  }

  /** `prefix:part:part…`: a key or channel in this connection's namespace. */
  key(...parts: string[]): string {
    return [this.prefix, ...parts].join(':');
  }

  /**
   * Sends one command (one round trip). Rejects with SharedStateUnavailableError when Redis is
   * disconnected or does not answer within the deadline; Redis's own errors pass through.
   */
  async command<T = unknown>(args: readonly string[]): Promise<T> {
    if (this.closed) throw new SharedStateUnavailableError('The Redis connection is closed');
    this.commandsSent++;
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      return await withDeadline(this.client.sendCommand<T>(args, { abortSignal: signal }), this.timeoutMs, `Redis did not answer ${args[0]} within ${this.timeoutMs} ms`);
    } catch (error) {
      if (error instanceof SharedStateUnavailableError || !this.client.isReady || signal.aborted) {
        throw error instanceof SharedStateUnavailableError ? error : new SharedStateUnavailableError(`Redis is unavailable (${args[0]}): ${asError(error).message}`, { cause: error });
      }
      throw error;
    }
  }

  /** Runs a Lua script (one round trip): several steps, atomically. */
  evaluate<T = unknown>(script: string, keys: readonly string[], args: readonly string[]): Promise<T> {
    return this.command<T>(['EVAL', script, String(keys.length), ...keys, ...args]);
  }

  /** Publishes on a channel of this namespace (`channel` already built with {@link key}). */
  async publish(channel: string, message: string): Promise<void> {
    await this.command(['PUBLISH', channel, message]);
  }

  /**
   * Listens on a channel; resolves with the function that stops listening. node-redis
   * resubscribes after a reconnect; messages published meanwhile are lost, which is why
   * {@link onReady} exists.
   */
  async subscribe(channel: string, listener: Listener): Promise<() => Promise<void>> {
    let listeners = this.channels.get(channel);
    if (listeners === undefined) {
      listeners = new Set();
      this.channels.set(channel, listeners);
      const set = listeners;
      try {
        await withDeadline(this.subscriber.subscribe(channel, (message: string) => {
          for (const each of [...set]) each(message);
        }), this.timeoutMs, `Redis did not confirm SUBSCRIBE within ${this.timeoutMs} ms`);
      } catch (error) {
        this.channels.delete(channel);
        throw error instanceof SharedStateUnavailableError ? error : new SharedStateUnavailableError(`Redis is unavailable (SUBSCRIBE): ${asError(error).message}`, { cause: error });
      }
    }
    listeners.add(listener);
    return async () => {
      const current = this.channels.get(channel);
      if (current === undefined || !current.delete(listener) || current.size > 0) return;
      this.channels.delete(channel);
      if (this.closed || !this.subscriber.isReady) return;
      await this.subscriber.unsubscribe(channel).catch((error: unknown) => this.report(asError(error)));
    };
  }

  /** Calls `listener` after every reconnection (to catch up on what pub/sub missed); returns the remover. */
  onReady(listener: () => void): () => void {
    this.readyListeners.add(listener);
    return () => this.readyListeners.delete(listener);
  }

  /** Closes both links. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.readyListeners.clear();
    this.channels.clear();
    await Promise.allSettled([this.client.close(), this.subscriber.close()]);
    this.client.destroy();
    this.subscriber.destroy();
  }

  private lost(link: string, error: unknown): void {
    if (this.closed || this.down) return;
    this.down = true;
    this.report(new SharedStateUnavailableError(`Lost the Redis ${link} connection; reconnecting: ${asError(error).message}`, { cause: error }));
  }

  private recovered(link: string): void {
    if (this.down) {
      this.down = false;
      this.report(new Error(`Reconnected to Redis (${link} connection)`));
    }
    if (link === 'pub/sub') for (const listener of [...this.readyListeners]) listener();
  }

  private report(error: Error): void {
    try {
      this.onerror?.(error);
    } catch {
      // A failing error hook must not break the connection's bookkeeping.
    }
  }
}

/** Rejects with SharedStateUnavailableError when `promise` takes longer than `ms`. */
function withDeadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SharedStateUnavailableError(message)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(invalid URL)';
  }
}
