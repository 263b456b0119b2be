/**
 * The one timer behind every held POST reply of a handler (see SseStream): a reply is held
 * until its first message decides between a JSON body and an SSE stream, and is switched to SSE
 * once it was held for the handler's keep-alive interval. Every hold lasts that same interval,
 * so holds expire in the order they began, and a list with one timer serves them all. A timer
 * per POST was set and cleared for almost every request, most of which answer in microseconds.
 */
import { unrefTimer } from './sse-writer.js';

/** One held reply, as {@link HoldClock.hold} hands it out. */
export interface Hold {
  /** When the hold expires (epoch ms). */
  readonly deadline: number;
  /** Runs once, when the hold expires before it is released. */
  readonly onexpire: () => void;
  /** Neighbours in the clock's list, oldest first; both undefined once out of it. */
  prev: Hold | undefined;
  next: Hold | undefined;
}

/**
 * Expires holds of `delayMs` each, oldest first, with one timer. Its list holds exactly the
 * holds in progress (bounded by the handler's `maxConcurrentRequests`): releasing one unlinks
 * it. The timer stays set when holds are released, so sequential requests touch no timer; an
 * expiry that finds nothing held leaves none, and the timer never keeps the process alive.
 */
export class HoldClock {
  private readonly delayMs: number;
  private oldest: Hold | undefined;
  private newest: Hold | undefined;
  private held = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(delayMs: number) {
    this.delayMs = delayMs;
  }

  /** Holds in progress. */
  get size(): number {
    return this.held;
  }

  /** Starts a hold that calls `onexpire` after the clock's delay unless released first. */
  hold(onexpire: () => void): Hold {
    const entry: Hold = { deadline: Date.now() + this.delayMs, onexpire, prev: this.newest, next: undefined };
    if (this.newest === undefined) this.oldest = entry;
    else this.newest.next = entry;
    this.newest = entry;
    this.held++;
    if (this.timer === undefined) this.arm(entry.deadline);
    return entry;
  }

  /** Ends `entry` without expiring it; releasing it again, or after it expired, does nothing. */
  release(entry: Hold): void {
    if (entry.prev === undefined && this.oldest !== entry) return;
    if (entry.prev === undefined) this.oldest = entry.next;
    else entry.prev.next = entry.next;
    if (entry.next === undefined) this.newest = entry.prev;
    else entry.next.prev = entry.prev;
    entry.prev = entry.next = undefined;
    this.held--;
  }

  private arm(at: number): void {
    const timer = setTimeout(() => this.fire(), Math.max(1, at - Date.now()));
    unrefTimer(timer);
    this.timer = timer;
  }

  /** Expires the holds whose deadline has come, then sets the timer for the next one. */
  private fire(): void {
    this.timer = undefined;
    const now = Date.now();
    for (let entry = this.oldest; entry !== undefined && entry.deadline <= now; entry = this.oldest) {
      this.release(entry);
      entry.onexpire();
    }
    // An expiry callback may have started a hold, and with it the timer.
    if (this.timer === undefined && this.oldest !== undefined) this.arm(this.oldest.deadline);
  }
}
