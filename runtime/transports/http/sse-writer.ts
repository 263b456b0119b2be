/**
 * Server-Sent Events on the wire: event formatting, and {@link SseConnection}, one open SSE
 * response with its keep-alive timer. A connection is the physical HTTP response; the logical
 * MCP stream it carries (and may outlive it) is an SseStream.
 */
import type { ResourceCounts, StreamSink } from './http-types.js';

/** One SSE event. */
export interface SseEvent {
  /** The event id, which a client echoes in `Last-Event-ID` to resume. */
  readonly id?: string | undefined;
  /** The event type; omitted means `message`. */
  readonly event?: string | undefined;
  /** The data; each line becomes its own `data:` field. */
  readonly data: string;
  /** Milliseconds a client waits before reconnecting. */
  readonly retry?: number | undefined;
}

/** The comment written on idle streams so that proxies and clients keep them open. */
export const KEEP_ALIVE_COMMENT = ': keep-alive\n\n';

/** Formats one event. Line breaks in fields other than data are stripped, as SSE cannot carry them. */
export function formatSseEvent(event: SseEvent): string {
  let text = '';
  if (event.event !== undefined) {
    text += `event: ${singleLine(event.event)}\n`;
  }
  if (event.id !== undefined) {
    text += `id: ${singleLine(event.id)}\n`;
  }
  if (event.retry !== undefined) {
    text += `retry: ${Math.max(0, Math.floor(event.retry))}\n`;
  }
  for (const line of event.data.split(/\r\n|\r|\n/)) {
    text += line === '' ? 'data:\n' : `data: ${line}\n`;
  }
  return `${text}\n`;
}

/** Formats a `retry` field on its own, sent before the server closes a resumable connection. */
export function formatSseRetry(retryMs: number): string {
  return `retry: ${Math.max(0, Math.floor(retryMs))}\n\n`;
}

function singleLine(value: string): string {
  return value.replace(/[\r\n\0]/g, '');
}

/** Options of an {@link SseConnection}. */
export interface SseConnectionOptions {
  /** Idle time after which a keep-alive comment is written; 0 disables keep-alives. */
  readonly keepAliveMs: number;
  /** The handler-wide counters this connection reports into. */
  readonly counts: ResourceCounts;
}

/**
 * One SSE response. Writes issued before the adapter attached its sink are buffered, because
 * the core decides on a streamed reply (and queues its first events) before the adapter has
 * written the headers. `onclose` fires once, whether the server ended the response or the
 * client went away; the keep-alive timer is cleared at that moment.
 */
export class SseConnection {
  /** Fires once when the connection ended, from either side. */
  onclose?: (() => void) | undefined;

  private readonly options: SseConnectionOptions;
  private sink: StreamSink | undefined;
  private buffer: string[] = [];
  private endRequested = false;
  private ended = false;
  private wroteSinceTick = false;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: SseConnectionOptions) {
    this.options = options;
    options.counts.connections++;
  }

  /** True once the connection ended (or was asked to end) from either side. */
  get closed(): boolean {
    return this.ended || this.endRequested;
  }

  /** Attaches the adapter's sink: flushes buffered writes and starts the keep-alive timer. */
  bind(sink: StreamSink): void {
    if (this.sink !== undefined || this.ended) {
      sink.end();
      return;
    }
    this.sink = sink;
    sink.onclose(() => this.finish());
    const pending = this.buffer;
    this.buffer = [];
    for (const chunk of pending) {
      this.push(chunk);
    }
    if (this.endRequested) {
      this.endSink();
      return;
    }
    this.startKeepAlive();
  }

  /** Writes raw SSE text; ignored once the connection closed. */
  write(chunk: string): void {
    if (this.closed) {
      return;
    }
    this.wroteSinceTick = true;
    if (this.sink === undefined) {
      this.buffer.push(chunk);
      return;
    }
    this.push(chunk);
  }

  /** Ends the response from the server side, after everything written so far. */
  end(): void {
    if (this.closed) {
      return;
    }
    this.endRequested = true;
    if (this.sink !== undefined) {
      this.endSink();
    }
  }

  /**
   * Releases a connection whose reply will never be handed to an adapter (the request failed
   * after the connection was created). Fires `onclose`.
   */
  dispose(): void {
    if (this.sink === undefined) {
      this.finish();
    } else {
      this.end();
    }
  }

  private push(chunk: string): void {
    try {
      this.sink?.write(chunk);
    } catch {
      // A failed write means the client is gone; the sink's close notification follows.
      this.finish();
    }
  }

  private endSink(): void {
    const sink = this.sink;
    try {
      sink?.end();
    } catch {
      // Ending an already broken response is harmless.
    }
    this.finish();
  }

  private startKeepAlive(): void {
    if (this.options.keepAliveMs <= 0 || this.ended) {
      return;
    }
    this.timer = setInterval(() => {
      if (!this.wroteSinceTick) {
        this.push(KEEP_ALIVE_COMMENT);
      }
      this.wroteSinceTick = false;
    }, this.options.keepAliveMs);
    unrefTimer(this.timer);
    this.options.counts.timers++;
  }

  private finish(): void {
    if (this.ended) {
      return;
    }
    this.ended = true;
    this.buffer = [];
    if (this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.options.counts.timers--;
    }
    this.options.counts.connections--;
    const listener = this.onclose;
    this.onclose = undefined;
    try {
      listener?.();
    } catch {
      // Listeners belong to the core and do not throw; a failure must not break the adapter.
    }
  }
}

/** Lets a timer not keep a Node process alive; other runtimes have no such notion. */
export function unrefTimer(timer: unknown): void {
  if (typeof timer === 'object' && timer !== null && 'unref' in timer && typeof timer.unref === 'function') {
    timer.unref();
  }
}
