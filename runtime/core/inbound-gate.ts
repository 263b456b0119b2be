/**
 * The bound on handling a peer's requests on one connection: so many handlers run at once, so
 * many more requests wait in arrival order, and a request beyond both is refused with an error
 * answer rather than dropped. A peer that floods a connection with requests then costs bounded
 * memory and work, and every request still gets exactly one answer.
 */
import { SdkError } from './errors.js';
import type { Side } from './method-table.js';
import type { HandlerContext } from './request-context.js';

/** How many of a peer's requests one connection handles at once, and how many more wait. */
export interface InboundLimits {
  readonly maxConcurrent: number;
  readonly maxQueued: number;
}

/**
 * The defaults per role. A client answers a server's sampling, elicitation and roots requests,
 * each of which may wait on a user or a model, so it runs few at once; a server's handlers are
 * its tools and resources, which a busy client legitimately calls in parallel.
 */
export const DEFAULT_INBOUND_LIMITS: Readonly<Record<Side, InboundLimits>> = {
  client: { maxConcurrent: 16, maxQueued: 1_000 },
  server: { maxConcurrent: 256, maxQueued: 10_000 },
};

/** Applies the role's defaults; refuses bounds that are not integers (at least 1 running, 0 queued), or Infinity. */
export function inboundLimits(side: Side, maxConcurrent: number | undefined, maxQueued: number | undefined): InboundLimits {
  const defaults = DEFAULT_INBOUND_LIMITS[side];
  return {
    maxConcurrent: bound('maxConcurrentInbound', maxConcurrent, defaults.maxConcurrent, 1),
    maxQueued: bound('maxQueuedInbound', maxQueued, defaults.maxQueued, 0),
  };
}

function bound(name: string, value: number | undefined, fallback: number, least: number): number {
  if (value === undefined) return fallback;
  if (value !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(value) || value < least)) {
    throw new SdkError('INVALID_ARGUMENT', `${name} must be an integer of at least ${least} (or Infinity), got ${String(value)}`);
  }
  return value;
}

/** Frees a place taken with {@link InboundGate.enter}; later calls do nothing. */
export type Leave = () => void;

interface Waiter {
  readonly admit: (leave: Leave | undefined) => void;
  readonly abort: HandlerContext;
  readonly onAbort: () => void;
}

/** Counts running handlers and queues the requests that wait for a place. */
export class InboundGate {
  readonly limits: InboundLimits;
  private running = 0;
  /** Waiting requests in arrival order; a Set so that an aborted one leaves in O(1). */
  private readonly queue = new Set<Waiter>();

  constructor(limits: InboundLimits) {
    this.limits = limits;
  }

  /**
   * Takes a place for a request whose handler is about to run: the function that frees it when
   * the request runs now; a Promise of that function when it has to wait, which resolves with
   * undefined instead when `abort` fires meanwhile (cancelled by the peer, connection closed: the
   * request leaves the queue, unanswered by the gate); undefined when every place and the queue
   * are taken.
   */
  enter(abort: HandlerContext): Leave | Promise<Leave | undefined> | undefined {
    if (this.running < this.limits.maxConcurrent) {
      this.running++;
      return this.leaver();
    }
    if (this.queue.size >= this.limits.maxQueued) return undefined;
    if (abort.aborted) return Promise.resolve(undefined);
    return new Promise<Leave | undefined>((resolve) => {
      const waiter: Waiter = {
        admit: resolve,
        abort,
        onAbort: () => {
          if (this.queue.delete(waiter)) resolve(undefined);
        },
      };
      this.queue.add(waiter);
      abort.signal.addEventListener('abort', waiter.onAbort, { once: true });
    });
  }

  private leaver(): Leave {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running--;
      this.next();
    };
  }

  /** Hands free places to the longest-waiting requests. */
  private next(): void {
    while (this.running < this.limits.maxConcurrent && this.queue.size > 0) {
      const waiter = this.queue.values().next().value as Waiter;
      this.queue.delete(waiter);
      waiter.abort.signal.removeEventListener('abort', waiter.onAbort);
      this.running++;
      waiter.admit(this.leaver());
    }
  }
}
