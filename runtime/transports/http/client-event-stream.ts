/**
 * Reads a `text/event-stream` response body through an {@link SseParser} until it ends, and
 * tells how it ended. Event handling stays with the caller; this module only pumps bytes.
 */
import { asError } from '../../core/errors.js';
import type { ClientResponse } from './client-response.js';
import { SseEventTooLarge, SseParser, type ParsedSseEvent } from './sse-parser.js';

/** What the caller does with a stream's content. */
export interface EventStreamSink {
  /** Receives each complete event. */
  readonly onevent: (event: ParsedSseEvent) => void;
  /** Receives each `retry` field. */
  readonly onretry?: ((milliseconds: number) => void) | undefined;
}

/** How a stream ended, and where it stood. */
export interface EventStreamEnd {
  /** The stream's last event id at the end ('' when it never had one). */
  readonly lastEventId: string;
  /** Set when the body failed (connection reset, abort, an event too large) rather than ending normally. */
  readonly error?: Error | undefined;
  /**
   * Set when reading stopped because an event or a line passed `maxEventBytes` (and `error`
   * says so): the body was cancelled, and a server would send the same event again.
   */
  readonly tooLarge?: boolean | undefined;
}

/** How a stream is read. */
export interface EventStreamOptions {
  /** The last event id of an earlier connection of the stream; default ''. */
  readonly lastEventId?: string | undefined;
  /** Most characters of one event or line (see `maxEventBytes`); default unbounded. */
  readonly maxEventBytes?: number | undefined;
  /**
   * Asked before each read: a promise holds reading (and so, through TCP, the server) until
   * it settles. The transports hold it while too many answers are on their way.
   */
  readonly ready?: (() => Promise<void> | undefined) | undefined;
}

/**
 * Pumps `response.body` into a parser seeded with `lastEventId` until the body ends or
 * fails, or an event or a line passes `maxEventBytes` characters (the body is then cancelled
 * at once). A frame cut off by the end is dropped by the parser, never delivered. Never
 * rejects: a failure is reported in the result, since to the caller both mean "the stream is gone".
 */
export async function readEventStream(response: ClientResponse, sink: EventStreamSink, options: EventStreamOptions = {}): Promise<EventStreamEnd> {
  const parser = new SseParser({ onevent: sink.onevent, onretry: sink.onretry }, { lastEventId: options.lastEventId, maxEventChars: options.maxEventBytes });
  const body = response.body;
  if (body === null) {
    parser.end();
    return { lastEventId: parser.lastEventId };
  }
  const reader = body.getReader();
  try {
    for (;;) {
      const held = options.ready?.();
      if (held !== undefined) await held;
      const { done, value } = await reader.read();
      if (done) {
        break;
      }
      parser.push(value);
    }
    parser.end();
    return { lastEventId: parser.lastEventId };
  } catch (error) {
    parser.end();
    if (error instanceof SseEventTooLarge) {
      await reader.cancel(error).catch(() => undefined);
      const tooLarge = new Error(`The event stream passed maxEventBytes (${error.limit}): ${error.message}`, { cause: error });
      return { lastEventId: parser.lastEventId, error: tooLarge, tooLarge: true };
    }
    return { lastEventId: parser.lastEventId, error: asError(error) };
  } finally {
    reader.releaseLock();
  }
}
