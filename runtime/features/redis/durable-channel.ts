/**
 * A relay between replicas that survives pub/sub reconnects. Plain PUBLISH loses what is sent
 * while the receiver's subscriber connection is away; here every message is appended to a Redis
 * stream (bounded with MAXLEN, expiring) and a wake-up is published beside it. The receiver keeps
 * a cursor (the last entry id it delivered) and reads what follows it when woken, after every
 * reconnection, and again a moment after a read that failed, so a message published while it was
 * away arrives once it is back, and exactly once: the cursor only moves forward over entry ids.
 * One receiver per stream position: each process listening on a channel gets every message.
 */
import { asError } from '../../core/errors.js';
import type { RedisConnection } from './connection.js';
import { parseEntries } from './event-store.js';

/** Entries read per round trip while catching up. */
const PAGE = 200;
/** Waits before reading again after a failed read, doubling up to the last one. */
const RETRY_MS = [100, 250, 500, 1_000, 2_000];

// Appends one message and wakes the receivers: one round trip; returns how many were woken.
const SEND = `redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'm', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return redis.call('PUBLISH', KEYS[2], '1')`;
// The receiver's starting point: an empty marker entry, so nothing appended after it is missed.
const MARK = `local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'm', '')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return id`;

/** The bounds of one durable channel. */
export interface DurableChannelBounds {
  /** Entries the stream keeps (approximately, MAXLEN ~); a receiver further behind loses the oldest. */
  readonly maxLength: number;
  /** The stream expires this long after its last message. */
  readonly ttlMs: number;
}

/** The wake-up channel of the durable channel whose stream is `key`. */
function wakeOf(key: string): string {
  return `${key}:wake`;
}

/**
 * Sends `message` on the durable channel `key` (a full key of `redis`'s namespace). Resolves
 * with the number of receivers woken at once (0 while every receiver is reconnecting; they catch
 * up then), rejects with SharedStateUnavailableError when Redis cannot be reached.
 */
export async function sendDurable(redis: RedisConnection, key: string, message: string, bounds: DurableChannelBounds): Promise<number> {
  return Number(await redis.evaluate<number>(SEND, [key, wakeOf(key)], [String(bounds.maxLength), String(bounds.ttlMs), message]));
}

/** One process's receiving end of a durable channel; see the module comment. */
export class DurableReceiver {
  /** The last entry delivered; undefined until the marker placed it, so nothing older is read. */
  private cursor: string | undefined;
  /** Set when a wake-up came before the cursor was placed. */
  private wokenEarly = false;
  private reading = false;
  private again = false;
  private closed = false;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private unsubscribe: (() => Promise<void>) | undefined;
  private removeReady: (() => void) | undefined;

  private constructor(
    private readonly redis: RedisConnection,
    private readonly key: string,
    private readonly deliver: (message: string) => void,
    private readonly report: (error: Error) => void,
  ) {}

  /**
   * Starts receiving what is sent on `key` from now on; resolves once nothing sent after it
   * resolved can be missed. Rejects when Redis cannot be reached.
   */
  static async listen(redis: RedisConnection, key: string, bounds: DurableChannelBounds, deliver: (message: string) => void, report: (error: Error) => void): Promise<DurableReceiver> {
    const receiver = new DurableReceiver(redis, key, deliver, report);
    // Woken first, then the marker: whatever follows the marker is read when its wake-up comes.
    receiver.unsubscribe = await redis.subscribe(wakeOf(key), () => receiver.read());
    try {
      receiver.cursor = String(await redis.evaluate<string>(MARK, [key], [String(bounds.maxLength), String(bounds.ttlMs)]));
    } catch (error) {
      await receiver.close();
      throw error;
    }
    receiver.removeReady = redis.onReady(() => receiver.read());
    // A wake-up that came before the marker was placed was held back: read now.
    if (receiver.wokenEarly) receiver.read();
    return receiver;
  }

  /** Stops receiving; what is still in the stream expires with it. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.removeReady?.();
    this.removeReady = undefined;
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    await unsubscribe?.();
  }

  /** Delivers what follows the cursor; one read at a time, again if woken meanwhile. */
  private read(): void {
    if (this.cursor === undefined) this.wokenEarly = true;
    if (this.closed || this.cursor === undefined) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void (async () => {
      try {
        do {
          this.again = false;
          let page: [string, string][];
          do {
            page = parseEntries(await this.redis.command(['XRANGE', this.key, `(${this.cursor!}`, '+', 'COUNT', String(PAGE)]));
            for (const [id, data] of page) {
              if (this.closed) return;
              this.cursor = id;
              if (data !== '') this.handOver(data);
            }
          } while (page.length === PAGE);
        } while (this.again);
        this.failures = 0;
      } catch (error) {
        // Redis is away or slow: read again soon, since a stall may end without a reconnection.
        // Reported once per run of failures, not per retry.
        if (this.failures === 0) this.report(asError(error));
        this.retryLater();
      } finally {
        this.reading = false;
        if (this.again) this.read();
      }
    })();
  }

  private retryLater(): void {
    if (this.closed || this.retryTimer !== undefined) return;
    const wait = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)]!;
    this.failures++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.read();
    }, wait);
    this.retryTimer.unref?.();
  }

  private handOver(data: string): void {
    try {
      this.deliver(data);
    } catch (error) {
      this.report(asError(error));
    }
  }
}
