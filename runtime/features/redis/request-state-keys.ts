/**
 * The MRTR `requestState` key ring in Redis: every replica seals with the same newest key and
 * opens with any key still retained, so a retry may land on any replica. Keys rotate on a
 * schedule; the first replica to notice a due rotation mints the new key under a short lock.
 * When Redis loses the ring (restarted empty, flushed, failed over), each replica writes the keys
 * it holds back instead of minting its own, so the replicas converge on one ring again.
 */
import { randomBytes } from 'node:crypto';
import { asError } from '../../core/errors.js';
import {
  RequestStateCodec,
  RequestStateError,
  type RequestStateBinding,
  type RequestStateInput,
  type RequestStateKey,
  type RequestStateOptions,
  type RequestStatePayload,
} from '../../era/request-state.js';
import type { RedisConnection } from './connection.js';

/** Options of {@link RedisRequestStateKeyRing.load}. */
export interface RedisKeyRingOptions {
  /** A new sealing key is minted when the newest is this old (default 24 hours). */
  readonly rotateEveryMs?: number | undefined;
  /**
   * A key is dropped this long after a newer one replaced it (default 1 hour); keep it above the
   * codec's `ttlMs` (10 minutes by default) so states sealed just before a rotation still open.
   */
  readonly retainMs?: number | undefined;
  /** How often the ring re-reads Redis to pick up other replicas' rotations (default 60 s). */
  readonly refreshMs?: number | undefined;
  /** Receives failed background refreshes (the ring keeps its last keys meanwhile). */
  readonly onerror?: ((error: Error) => void) | undefined;
}

interface StoredKey {
  readonly id: string;
  readonly secret: string;
  readonly createdAt: number;
}

/**
 * The shared key ring. {@link codec} gives a RequestStateCodec that always uses the ring's
 * current keys; pass it as `requestState` to McpServer or Server.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { RedisConnection, RedisRequestStateKeyRing } from 'mcpgen/redis';
 *
 * const redis = await RedisConnection.connect({ prefix: 'weather' });
 * const ring = await RedisRequestStateKeyRing.load(redis, { rotateEveryMs: 86_400_000 });
 * const mcp = new McpServer({ name: 'weather', version: '1.0.0' }, { requestState: ring.codec({ encrypt: true }) });
 * ```
 */
export class RedisRequestStateKeyRing {
  private current: readonly StoredKey[] = [];
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private refreshing: Promise<void> | undefined;
  private readonly rotateEveryMs: number;
  private readonly retainMs: number;

  private constructor(
    private readonly redis: RedisConnection,
    private readonly options: RedisKeyRingOptions,
  ) {
    this.rotateEveryMs = Math.max(1_000, options.rotateEveryMs ?? 86_400_000);
    this.retainMs = Math.max(1_000, options.retainMs ?? 3_600_000);
  }

  /** Reads the ring (minting the first key, or a due one); rejects when Redis cannot be reached. */
  static async load(redis: RedisConnection, options: RedisKeyRingOptions = {}): Promise<RedisRequestStateKeyRing> {
    const ring = new RedisRequestStateKeyRing(redis, options);
    await ring.refresh();
    ring.timer = setInterval(() => {
      ring.refresh().catch((error: unknown) => ring.report(asError(error)));
    }, Math.max(100, options.refreshMs ?? 60_000));
    ring.timer.unref?.();
    return ring;
  }

  /** The keys, newest (sealing) first. */
  keys(): RequestStateKey[] {
    return this.current.map((key) => ({ id: key.id, secret: Buffer.from(key.secret, 'base64url') }));
  }

  /** A codec that follows the ring's rotations; `options` are the codec's other options. */
  codec(options: Omit<RequestStateOptions, 'keys'> = {}): RequestStateCodec {
    return new RotatingRequestStateCodec(this, options);
  }

  /** Calls `listener` whenever the keys changed; returns the remover. */
  onchange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Re-reads the ring; mints a key when none is there or the newest is due for rotation. */
  refresh(): Promise<void> {
    this.refreshing ??= this.read().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** True while a re-read of the ring is under way. */
  get refreshInFlight(): boolean {
    return this.refreshing !== undefined;
  }

  /** Mints a new sealing key now (for a suspected leak, or tests). */
  async rotate(): Promise<void> {
    await this.mint();
    await this.refresh();
  }

  /** Stops the background refresh. */
  close(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * The ring is the union of what Redis holds and what this replica holds: a key Redis lost (a
   * restart without persistence, a flush, an eviction, a failover to an empty replica) while
   * this replica still opens states with it goes back (set-if-absent), since other replicas may
   * still seal with it; so every replica converges on the same keys instead of each minting its
   * own. A new key is minted only when the union is empty or its newest is due for rotation.
   */
  private async read(): Promise<void> {
    const now = Date.now();
    const fetched = await this.fetch();
    const stored = new Set(fetched.map((key) => key.id));
    let keys = this.retained(merge(fetched, this.current), now);
    const lost = keys.filter((key) => !stored.has(key.id));
    if (lost.length > 0) await this.restore(lost);
    if (keys.length === 0 || now - keys[0]!.createdAt >= this.rotateEveryMs) {
      // One replica mints; the others wait a moment and read what it wrote.
      const won = await this.redis.command(['SET', this.redis.key('rs', 'rotating'), '1', 'NX', 'PX', '5000']);
      if (won === 'OK') await this.mint();
      else await new Promise((resolve) => setTimeout(resolve, 100));
      keys = this.retained(merge(await this.fetch(), keys), now);
      if (keys.length === 0) throw new Error('The requestState key ring in Redis is empty; another replica is minting the first key, try again');
    }
    // Keys replaced longer ago than retainMs go (the newest always stays).
    const expired = [...stored].filter((id) => !keys.some((key) => key.id === id));
    if (expired.length > 0) await this.redis.command(['HDEL', this.ringKey(), ...expired]);
    const changed = keys.map((key) => key.id).join() !== this.current.map((key) => key.id).join();
    this.current = keys;
    if (changed) for (const listener of [...this.listeners]) listener();
  }

  /** `keys` (newest first) without those replaced longer than retainMs ago; the newest always stays. */
  private retained(keys: readonly StoredKey[], now: number): StoredKey[] {
    return keys.filter((_key, index) => index === 0 || now - keys[index - 1]!.createdAt <= this.retainMs);
  }

  /** Writes keys Redis lost back, each only if absent (one round trip). */
  private async restore(keys: readonly StoredKey[]): Promise<void> {
    await this.redis.evaluate(
      `for i = 2, #ARGV, 2 do redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`,
      [this.ringKey()],
      [String(this.ringTtlMs()), ...keys.flatMap((key) => [key.id, JSON.stringify(key)])],
    );
  }

  private async fetch(): Promise<StoredKey[]> {
    const reply = await this.redis.command<unknown>(['HGETALL', this.ringKey()]);
    const values = Array.isArray(reply) ? (reply as unknown[]) : isRecord(reply) ? Object.entries(reply).flat() : [];
    const keys: StoredKey[] = [];
    for (let i = 1; i < values.length; i += 2) {
      try {
        const key = JSON.parse(String(values[i])) as StoredKey;
        if (typeof key.id === 'string' && typeof key.secret === 'string' && typeof key.createdAt === 'number') keys.push(key);
      } catch {
        // A foreign or damaged entry is not a key.
      }
    }
    return keys.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  }

  private async mint(): Promise<void> {
    const createdAt = Date.now();
    const key: StoredKey = { id: `k${createdAt.toString(36)}${randomBytes(3).toString('hex')}`, secret: randomBytes(32).toString('base64url'), createdAt };
    await this.redis.evaluate(
      `redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`,
      [this.ringKey()],
      [key.id, JSON.stringify(key), String(this.ringTtlMs())],
    );
  }

  /** The whole ring expires if no replica rotates it for a full period plus the retention. */
  private ringTtlMs(): number {
    return this.rotateEveryMs + this.retainMs + 60_000;
  }

  private ringKey(): string {
    return this.redis.key('rs', 'keys');
  }

  private report(error: Error): void {
    try {
      this.options.onerror?.(error);
    } catch {
      // A failing error hook must not stop the refresh timer.
    }
  }
}

/** Least time between two re-reads of the ring forced by states sealed with an unknown key. */
const FORCED_REFRESH_INTERVAL_MS = 100;

/**
 * A codec over the ring's current keys. An `unknown-key` state triggers one refresh before it is
 * refused, so a state sealed with a key another replica just minted opens here too.
 */
class RotatingRequestStateCodec extends RequestStateCodec {
  private inner: RequestStateCodec;
  private lastForced = 0;

  constructor(
    private readonly ring: RedisRequestStateKeyRing,
    private readonly settings: Omit<RequestStateOptions, 'keys'>,
  ) {
    super({ ...settings, keys: ring.keys() });
    this.inner = new RequestStateCodec({ ...settings, keys: ring.keys() });
    ring.onchange(() => {
      this.inner = new RequestStateCodec({ ...this.settings, keys: this.ring.keys() });
    });
  }

  override seal(state: RequestStateInput): Promise<string> {
    return this.inner.seal(state);
  }

  override async open(token: string, expected: RequestStateBinding): Promise<RequestStatePayload> {
    try {
      return await this.inner.open(token, expected);
    } catch (error) {
      if (!(error instanceof RequestStateError && error.reason === 'unknown-key')) throw error;
      // Re-read the ring once before refusing: joining a re-read in flight is free; a new one is
      // started at most every 100 ms, so made-up key ids cannot turn into Redis load.
      if (!this.ring.refreshInFlight) {
        if (Date.now() - this.lastForced < FORCED_REFRESH_INTERVAL_MS) throw error;
        this.lastForced = Date.now();
      }
      await this.ring.refresh().catch(() => undefined);
      return this.inner.open(token, expected);
    }
  }
}

function merge(a: readonly StoredKey[], b: readonly StoredKey[]): StoredKey[] {
  const byId = new Map<string, StoredKey>();
  for (const key of [...a, ...b]) if (!byId.has(key.id)) byId.set(key.id, key);
  return [...byId.values()].sort((x, y) => y.createdAt - x.createdAt || (x.id < y.id ? 1 : -1));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
