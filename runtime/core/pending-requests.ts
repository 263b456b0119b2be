import type { Validator } from './contract.js';
import { SdkError } from './errors.js';
import type { RequestId } from './jsonrpc.js';
import { IdTable } from './id-table.js';

/** One progress update, as carried by a progress notification. */
export interface Progress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** When an outgoing request gives up waiting. */
export interface TimeoutPolicy {
  /** Milliseconds without a response (or, with resetOnProgress, without progress) before giving up. */
  readonly timeoutMs: number;
  /** Whether each progress notification for the request restarts the `timeoutMs` countdown. */
  readonly resetOnProgress: boolean;
  /** Hard cap from the moment of sending, regardless of progress; undefined means none. */
  readonly maxTotalTimeoutMs?: number | undefined;
}

/**
 * An outgoing request awaiting its response: one object per request, its timeout policy and
 * the deadline {@link PendingRequests} keeps on it included, because a request made per call
 * is a call's largest allocation.
 */
export interface PendingRequest extends TimeoutPolicy {
  readonly id: number;
  readonly method: string;
  /** Validates the response's result; null when results are not checked. */
  readonly resultValidator: Validator | null;
  /** Whether the request carried a progress token (its id). */
  readonly tracksProgress: boolean;
  readonly onprogress?: ((progress: Progress) => void) | undefined;
  /** The incoming request this one was sent for, so its cancellation is routed alike. */
  readonly relatedRequestId?: RequestId | undefined;
  /** Settles the caller's promise; called by whoever removed the entry. */
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
  /** When it was added (epoch ms); set by {@link PendingRequests.add}. */
  startedAt: number;
  /** When it times out (epoch ms), Infinity for never; kept by {@link PendingRequests}. */
  deadline: number;
  /** Whether reaching the deadline is the total cap rather than the (progress-reset) timeout. */
  total: boolean;
}

/** setTimeout cannot represent longer delays; beyond this a request simply has no deadline. */
const MAX_TIMER_DELAY = 2_147_483_647;

/**
 * Tracks outgoing requests by id together with their deadlines. One timer serves them all: it
 * is set for the earliest deadline, so a request whose deadline is not the earliest costs no
 * timer operation at all (with many requests in flight, a timer per request was a fifth of the
 * engine's time). An answered request leaves the timer as it is: sequential calls would
 * otherwise set and clear one each (a tenth of an in-memory call's CPU), so the timer fires at
 * most once per deadline it was set for, finds nothing due and stops. It never keeps the
 * process alive on its own, and closing the connection (`rejectAll`) clears it.
 */
export class PendingRequests {
  private readonly entries = new IdTable<number, PendingRequest>();
  private readonly onexpire: (request: PendingRequest, error: SdkError) => void;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The deadline the timer is set for; Infinity when there is no timer. */
  private timerAt = Infinity;

  /** `onexpire` runs after a request timed out and was removed; it must reject the caller. */
  constructor(onexpire: (request: PendingRequest, error: SdkError) => void) {
    this.onexpire = onexpire;
  }

  /** Number of requests still awaiting a response. */
  get size(): number {
    return this.entries.size;
  }

  /** Starts tracking `request` and schedules its deadline. */
  add(request: PendingRequest): void {
    request.startedAt = Date.now();
    this.schedule(request, request.startedAt);
    this.entries.set(request.id, request);
    if (request.deadline < this.timerAt) this.setTimer(request.deadline);
  }

  /** True while `id` awaits a response. */
  has(id: RequestId): boolean {
    return typeof id === 'number' && this.entries.has(id);
  }

  /** Removes and returns the request with `id`; undefined when unknown. */
  take(id: RequestId): PendingRequest | undefined {
    if (typeof id !== 'number') {
      return undefined;
    }
    const request = this.entries.get(id);
    if (request === undefined) {
      return undefined;
    }
    this.entries.delete(id);
    return request;
  }

  /**
   * Records progress for the request whose token is `token`: restarts its countdown when its
   * policy says so, or expires it when the total cap has passed. Returns the request when it is
   * still pending (so the caller can run `onprogress`), otherwise undefined.
   */
  touch(token: unknown): PendingRequest | undefined {
    if (typeof token !== 'number') {
      return undefined;
    }
    const request = this.entries.get(token);
    if (request === undefined || !request.tracksProgress) {
      return undefined;
    }
    if (request.resetOnProgress) {
      const now = Date.now();
      const cap = request.maxTotalTimeoutMs;
      if (cap !== undefined && now - request.startedAt >= cap) {
        this.expire(request.id, true);
        return undefined;
      }
      // A later deadline needs nothing now: the timer finds it when it next fires.
      this.schedule(request, now);
      if (request.deadline < this.timerAt) this.setTimer(request.deadline);
    }
    return request;
  }

  /** Removes every request and rejects each with `error`. */
  rejectAll(error: Error): void {
    const all = this.entries.values();
    this.entries.clear();
    this.clearTimer();
    for (const request of all) {
      request.reject(error);
    }
  }

  /** Sets `request.deadline` from its policy, counting the timeout from `now`. */
  private schedule(request: PendingRequest, now: number): void {
    const { timeoutMs, maxTotalTimeoutMs } = request;
    let delay = Number.isFinite(timeoutMs) ? Math.max(0, timeoutMs) : Infinity;
    let total = false;
    if (maxTotalTimeoutMs !== undefined) {
      const remaining = Math.max(0, request.startedAt + maxTotalTimeoutMs - now);
      if (remaining <= delay) {
        delay = remaining;
        total = true;
      }
    }
    request.deadline = delay > MAX_TIMER_DELAY ? Infinity : now + delay;
    request.total = total;
  }

  private setTimer(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = at;
    const timer = setTimeout(() => this.fire(), Math.max(0, at - Date.now()));
    (timer as { unref?: () => unknown }).unref?.();
    this.timer = timer;
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  /** Expires every request whose deadline has come, then sets the timer for the next one. */
  private fire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = Date.now();
    const due = this.entries.values().filter((request) => request.deadline <= now);
    for (const request of due) this.expire(request.id, request.total);
    // Expiry callbacks may have added requests (and set the timer) meanwhile.
    if (this.timer !== undefined) return;
    let earliest = Infinity;
    for (const request of this.entries.values()) if (request.deadline < earliest) earliest = request.deadline;
    if (earliest !== Infinity) this.setTimer(earliest);
  }

  private expire(id: number, total: boolean): void {
    const request = this.take(id);
    if (request === undefined) {
      return;
    }
    const { timeoutMs, maxTotalTimeoutMs } = request;
    const error = total
      ? new SdkError('REQUEST_TIMEOUT', `Request ${request.method} exceeded maxTotalTimeout of ${maxTotalTimeoutMs} ms`, {
          data: { maxTotalTimeout: maxTotalTimeoutMs },
        })
      : new SdkError('REQUEST_TIMEOUT', `Request ${request.method} timed out after ${timeoutMs} ms`, {
          data: { timeout: timeoutMs },
        });
    this.onexpire(request, error);
  }
}
