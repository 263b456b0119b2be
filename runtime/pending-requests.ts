import type { Validator } from './contract.js';
import { SdkError } from './errors.js';
import type { RequestId } from './jsonrpc.js';

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

/** An outgoing request awaiting its response. */
export interface PendingRequest {
  readonly id: number;
  readonly method: string;
  /** Validates the response's result; null when results are not checked. */
  readonly resultValidator: Validator | null;
  /** Whether the request carried a progress token (its id). */
  readonly tracksProgress: boolean;
  readonly onprogress?: ((progress: Progress) => void) | undefined;
  readonly policy: TimeoutPolicy;
  /** The incoming request this one was sent for, so its cancellation is routed alike. */
  readonly relatedRequestId?: RequestId | undefined;
  /** Settles the caller's promise; called by whoever removed the entry. */
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
}

interface Tracked {
  readonly request: PendingRequest;
  readonly startedAt: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** setTimeout cannot represent longer delays; beyond this a request simply has no timer. */
const MAX_TIMER_DELAY = 2_147_483_647;

/**
 * Tracks outgoing requests by id together with their timers. A timer exists only while its
 * request is pending: removing an entry clears it at once, and timers never keep the process
 * alive on their own.
 */
export class PendingRequests {
  private readonly entries = new Map<number, Tracked>();
  private readonly onexpire: (request: PendingRequest, error: SdkError) => void;

  /** `onexpire` runs after a request timed out and was removed; it must reject the caller. */
  constructor(onexpire: (request: PendingRequest, error: SdkError) => void) {
    this.onexpire = onexpire;
  }

  /** Number of requests still awaiting a response. */
  get size(): number {
    return this.entries.size;
  }

  /** Starts tracking `request` and arms its timer. */
  add(request: PendingRequest): void {
    const tracked: Tracked = { request, startedAt: Date.now(), timer: undefined };
    this.entries.set(request.id, tracked);
    this.arm(tracked);
  }

  /** True while `id` awaits a response. */
  has(id: RequestId): boolean {
    return typeof id === 'number' && this.entries.has(id);
  }

  /** Removes and returns the request with `id`, clearing its timer; undefined when unknown. */
  take(id: RequestId): PendingRequest | undefined {
    if (typeof id !== 'number') {
      return undefined;
    }
    const tracked = this.entries.get(id);
    if (tracked === undefined) {
      return undefined;
    }
    this.entries.delete(id);
    clearTimeout(tracked.timer);
    tracked.timer = undefined;
    return tracked.request;
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
    const tracked = this.entries.get(token);
    if (tracked === undefined || !tracked.request.tracksProgress) {
      return undefined;
    }
    if (tracked.request.policy.resetOnProgress) {
      const cap = tracked.request.policy.maxTotalTimeoutMs;
      if (cap !== undefined && Date.now() - tracked.startedAt >= cap) {
        this.expire(tracked.request.id, true);
        return undefined;
      }
      this.arm(tracked);
    }
    return tracked.request;
  }

  /** Removes every request and rejects each with `error`. */
  rejectAll(error: Error): void {
    const all = [...this.entries.values()];
    this.entries.clear();
    for (const tracked of all) {
      clearTimeout(tracked.timer);
      tracked.timer = undefined;
    }
    for (const tracked of all) {
      tracked.request.reject(error);
    }
  }

  private arm(tracked: Tracked): void {
    clearTimeout(tracked.timer);
    tracked.timer = undefined;
    const { timeoutMs, maxTotalTimeoutMs } = tracked.request.policy;
    let delay = Number.isFinite(timeoutMs) ? Math.max(0, timeoutMs) : Infinity;
    let total = false;
    if (maxTotalTimeoutMs !== undefined) {
      const remaining = Math.max(0, tracked.startedAt + maxTotalTimeoutMs - Date.now());
      if (remaining <= delay) {
        delay = remaining;
        total = true;
      }
    }
    if (delay > MAX_TIMER_DELAY) {
      return;
    }
    const timer = setTimeout(() => this.expire(tracked.request.id, total), delay);
    (timer as { unref?: () => unknown }).unref?.();
    tracked.timer = timer;
  }

  private expire(id: number, total: boolean): void {
    const request = this.take(id);
    if (request === undefined) {
      return;
    }
    const { timeoutMs, maxTotalTimeoutMs } = request.policy;
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
