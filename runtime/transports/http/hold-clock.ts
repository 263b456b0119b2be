/**
 * The one timer behind every held POST reply of a handler (see SseStream): a reply is held
 * until its first message decides between a JSON body and an SSE stream, and is switched to SSE
 * once it was held for the handler's keep-alive interval. Every hold lasts that same interval,
 * so holds expire in the order they began, and a queue with one timer serves them all. A timer
 * per POST was set and cleared for almost every request, most of which answer in microseconds.
 */
import { unrefTimer } from './sse-writer.js';

/** One held reply, as {@link HoldClock.hold} hands it out. */
export interface Hold {
  /** When the hold expires (epoch ms). */
  readonly deadline: number;
  /** Runs once, when the hold expires before it is released. */
  readonly onexpire: () => void;
  /** False once released or expired. */
  active: boolean;
}

/**
 * Fewest released holds worth compacting the queue for: below this, released holds wait to be
 * dropped as the head passes them.
 */
const COMPACT_AT = 64;

/**
 * Expires holds of `delayMs` each, oldest first, with one timer. The queue holds the holds
 * begun since the oldest one still held: released ones are dropped as the head passes them, or
 * together once they outnumber the held ones, so it stays within twice the holds in progress
 * (bounded by the handler's `maxConcurrentRequests`) plus {@link COMPACT_AT}. An expiry that
 * finds nothing held leaves no timer; the timer never keeps the process alive.
 */
export class HoldClock {
  private readonly delayMs: number;
  private queue: Hold[] = [];
  /** Index of the oldest entry still in the queue. */
  private head = 0;
  /** Holds in the queue that are still held. */
  private held = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(delayMs: number) {
    this.delayMs = delayMs;
  }

  /** Holds in progress. */
  get size(): number {
    return this.held;
  }

  /** Entries in the queue, released ones not dropped yet included (for the bound's tests). */
  get queued(): number {
    return this.queue.length - this.head;
  }

  /** Starts a hold that calls `onexpire` after the clock's delay unless released first. */
  hold(onexpire: () => void): Hold {
    const entry: Hold = { deadline: Date.now() + this.delayMs, onexpire, active: true };
    this.queue.push(entry);
    this.held++;
    if (this.timer === undefined) this.arm(entry.deadline);
    return entry;
  }

  /** Ends `entry` without expiring it; releasing it again does nothing. */
  release(entry: Hold): void {
    if (!entry.active) return;
    entry.active = false;
    this.held--;
    this.dropReleased();
    const released = this.queue.length - this.head - this.held;
    if (released >= COMPACT_AT && released > this.held) {
      this.queue = this.queue.slice(this.head).filter((hold) => hold.active);
      this.head = 0;
    }
  }

  /** Drops the released holds at the head of the queue. */
  private dropReleased(): void {
    while (this.head < this.queue.length && !this.queue[this.head]!.active) this.head++;
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    }
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
    this.dropReleased();
    while (this.head < this.queue.length) {
      const entry = this.queue[this.head]!;
      if (entry.active && entry.deadline > now) break;
      this.head++;
      if (!entry.active) continue;
      entry.active = false;
      this.held--;
      entry.onexpire();
    }
    this.dropReleased();
    // An expiry callback may have started a hold, and with it the timer.
    if (this.timer === undefined && this.head < this.queue.length) this.arm(this.queue[this.head]!.deadline);
  }
}
