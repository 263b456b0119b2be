import type { Writable } from 'node:stream';

/**
 * Writes lines to a stream in order, honouring backpressure. While the stream has room a line
 * is written at once and its promise is already settled, so the common case costs one
 * `stream.write` and no listener; once the stream reports a full buffer, later lines queue up
 * and go out together on 'drain', so a slow peer slows the sender instead of growing memory.
 */
export class LineWriter {
  private readonly stream: Writable;
  /** Lines waiting for 'drain', with the callbacks of their promises. */
  private queue: Array<{ readonly text: string; readonly resolve: () => void; readonly reject: (error: Error) => void }> = [];
  private waiting = false;
  private failure: Error | undefined;

  constructor(stream: Writable) {
    this.stream = stream;
  }

  /** Writes `text`; resolves once the stream accepted it, rejects when the stream failed. */
  write(text: string): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (!this.waiting) {
      if (!this.stream.write(text)) this.waitForDrain();
      return RESOLVED;
    }
    return new Promise<void>((resolve, reject) => this.queue.push({ text, resolve, reject }));
  }

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

const RESOLVED = Promise.resolve();
