/**
 * A `node:http` response as the HTTP client transports read it (a {@link ClientResponse}):
 * headers looked up in Node's own table, and a body pulled from the socket one buffered chunk
 * at a time, so reading is held by TCP backpressure and no web stream is made. Node only.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { ClientBody, ClientBodyReader, ClientResponse } from '../http/client-response.js';

/**
 * Largest declared body that {@link NodeResponseBody.cancel} drains rather than cuts: reading a
 * few more kilobytes keeps the pooled connection, which costs less than a new one.
 */
const DRAIN_ON_CANCEL_BYTES = 64 * 1024;

/** Response headers over Node's table (names already lower-case there). */
class NodeResponseHeaders {
  private readonly raw: IncomingHttpHeaders;

  constructor(raw: IncomingHttpHeaders) {
    this.raw = raw;
  }

  /** The header's value, repeated values joined with `, ` as fetch's Headers does; null when absent. */
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** Visits each header once (repeated values joined as by {@link get}). */
  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, value] of Object.entries(this.raw)) {
      if (value !== undefined) callback(Array.isArray(value) ? value.join(', ') : value, name);
    }
  }
}

const DONE: ReadableStreamReadResult<Uint8Array> = { done: true, value: undefined };

/**
 * The body of one response. It is its own reader: the transports take one reader per body.
 * Node buffers at most the socket's high-water mark ahead of the reader.
 */
class NodeResponseBody implements ClientBody, ClientBodyReader {
  private readonly message: IncomingMessage;
  private readonly finished: () => void;
  private ended = false;
  private failure: Error | undefined;
  private waiter: (() => void) | undefined;
  private readonly wake: () => void;

  constructor(message: IncomingMessage, finished: () => void) {
    this.message = message;
    this.finished = finished;
    const wake = (): void => {
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter?.();
    };
    this.wake = wake;
    message.on('readable', wake);
    message.on('end', () => {
      this.ended = true;
      finished();
      wake();
    });
    message.on('error', (error: Error) => {
      this.failure ??= error;
      finished();
      wake();
    });
    message.on('close', () => {
      if (!this.ended) this.failure ??= new Error('the connection closed before the response body ended');
      finished();
      wake();
    });
  }

  getReader(): ClientBodyReader {
    return this;
  }

  async read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    for (;;) {
      const chunk = this.message.read() as Buffer | null;
      if (chunk !== null) return { done: false, value: chunk };
      if (this.failure !== undefined) throw this.failure;
      if (this.ended) return DONE;
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
    }
  }

  /**
   * Discards the rest. A body that is complete, or declared small, is drained so that its
   * connection goes back to the pool; any other is cut with its connection.
   */
  async cancel(): Promise<void> {
    if (this.ended || this.failure !== undefined) return;
    const declared = Number(this.message.headers['content-length'] ?? Number.NaN);
    if (this.message.complete || declared <= DRAIN_ON_CANCEL_BYTES) {
      // Resolves once drained, when the connection is back in the pool for the next request.
      const drained = new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
      // A 'readable' listener holds the stream paused; without it, resume() drains it.
      this.message.off('readable', this.wake);
      this.message.resume();
      await drained;
      return;
    }
    this.abort(new Error('response body cancelled'));
  }

  releaseLock(): void {
    // One reader per body: there is no lock to give back.
  }

  /** Ends the body with `reason` (the request's abort). */
  abort(reason: Error): void {
    if (this.ended) return;
    this.failure ??= reason;
    this.message.destroy(reason);
    this.finished();
  }
}

/** A response of `node:http` as a {@link ClientResponse}. */
export class NodeResponse implements ClientResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: NodeResponseHeaders;
  readonly body: NodeResponseBody | null;

  /** `finished` runs (at least once) when the body ended, failed or was aborted. */
  constructor(message: IncomingMessage, finished: () => void) {
    this.status = message.statusCode ?? 0;
    this.ok = this.status >= 200 && this.status <= 299;
    this.statusText = message.statusMessage ?? '';
    this.headers = new NodeResponseHeaders(message.headers);
    // As fetch: these statuses carry no body (the message is drained for the connection's sake).
    if (this.status === 204 || this.status === 304) {
      this.body = null;
      message.resume();
      message.once('end', finished);
      message.once('close', finished);
      // Nothing reads this message, so a late failure of it only ends it.
      message.on('error', finished);
    } else {
      this.body = new NodeResponseBody(message, finished);
    }
  }

  /** Ends the body with `reason`. */
  abort(reason: Error): void {
    this.body?.abort(reason);
  }
}
