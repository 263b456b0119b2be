/**
 * A counting semaphore: at most `max` tasks run at once, the rest wait in arrival order. The
 * manager keeps one for local servers (each a process start) and one for remote ones.
 *
 * @example
 * ```ts
 * import { Limiter } from 'mcpgen/host';
 *
 * const limiter = new Limiter(3);
 * const pages = await Promise.all(['a', 'b', 'c', 'd'].map((name) => limiter.run(() => fetch(`https://example.com/${name}`))));
 * ```
 */
export class Limiter {
  readonly max: number;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`a concurrency limit must be a positive integer, not ${max}`);
    this.max = max;
  }

  /** Tasks running now. */
  get active(): number {
    return this.running;
  }

  /** Runs `task` once a slot is free; the slot is released however the task ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await task();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}
