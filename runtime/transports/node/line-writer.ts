import type { Writable } from 'node:stream';

/**
 * Most characters of lines held for joining: 64 Ki. Reaching it writes what is held at once, so
 * a large line is never held.
 */
export const MAX_COALESCED_CHARS = 64 * 1024;

/**
 * Most lines joined into one write: 8. A burst of replies (or of requests, 64 in flight) goes
 * out in writes of this many lines, so the peer process starts on the first ones while this one
 * still produces the rest; one write per turn made the two processes take turns, each idle
 * while the other worked. Eight lines still cost an eighth of a system call each.
 */
export const MAX_COALESCED_LINES = 8;

/**
 * Writes newline-terminated lines to a stream in order, honouring backpressure. The lines sent
 * while one callback and the promise jobs it starts run are joined and go out in one
 * `stream.write` once those are done (or once they reach {@link MAX_COALESCED_LINES} or
 * {@link MAX_COALESCED_CHARS}): each
 * write is a native call and a system call, and under concurrency that per-message cost, not
 * JSON, bounds throughput. Their shared promise settles when the stream took the batch. Once
 * the stream reports a full buffer, later lines queue up and go out together on 'drain', so a
 * slow peer slows the sender instead of growing memory.
 */
export class LineWriter {
  private readonly stream: Writable;
  /** Lines sent since the last write, not yet written. */
  private held: string[] = [];
  private heldChars = 0;
  /** Settles the promise the held lines share. */
  private heldDone: Settler | undefined;
  private scheduled = false;
  /** Lines waiting for 'drain', with the callbacks of their promises. */
  private queue: Array<{ readonly text: string; readonly resolve: () => void; readonly reject: (error: Error) => void }> = [];
  private waiting = false;
  private failure: Error | undefined;

  constructor(stream: Writable) {
    this.stream = stream;
  }

  /**
   * Writes `line` and a newline after it; resolves once the stream accepted it, rejects when the
   * stream failed.
   */
  write(line: string): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.waiting) {
      return new Promise<void>((resolve, reject) => this.queue.push({ text: `${line}\n`, resolve, reject }));
    }
    this.held.push(line);
    this.heldChars += line.length + 1;
    this.heldDone ??= settler();
    const { promise } = this.heldDone;
    if (this.heldChars >= MAX_COALESCED_CHARS || this.held.length >= MAX_COALESCED_LINES) {
      this.flush();
    } else if (!this.scheduled) {
      this.scheduled = true;
      // After the microtasks of this turn: replies that several awaits produce still join.
      process.nextTick(this.flushAtTurnEnd);
    }
    return promise;
  }

  /** Writes the held lines at once; used before the stream is ended or left. */
  flush(): void {
    const done = this.heldDone;
    if (done === undefined) return;
    const text = this.held.length === 1 ? `${this.held[0]!}\n` : `${this.held.join('\n')}\n`;
    this.held = [];
    this.heldChars = 0;
    this.heldDone = undefined;
    let room: boolean;
    try {
      room = this.stream.write(text);
    } catch (error) {
      // A Writable whose _write throws throws here; on the nextTick path that would be uncaught.
      done.reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (!room) this.waitForDrain();
    done.resolve();
  }

  private readonly flushAtTurnEnd = (): void => {
    this.scheduled = false;
    this.flush();
  };

  private waitForDrain(): void {
    this.waiting = true;
    const onDrain = (): void => {
      cleanup();
      this.waiting = false;
      const batch = this.queue;
      this.queue = [];
      if (batch.length === 0) return;
      // The queued lines go out in one write; if that fills the buffer again, the next ones wait.
      if (!this.stream.write(batch.map((entry) => entry.text).join(''))) this.waitForDrain();
      for (const entry of batch) entry.resolve();
    };
    const onError = (error: Error): void => {
      cleanup();
      this.failure = error;
      const batch = this.queue;
      this.queue = [];
      for (const entry of batch) entry.reject(error);
    };
    const cleanup = (): void => {
      this.stream.off('drain', onDrain);
      this.stream.off('error', onError);
    };
    this.stream.once('drain', onDrain);
    this.stream.once('error', onError);
  }
}

/** A promise with its callbacks. */
interface Settler {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

function settler(): Settler {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
