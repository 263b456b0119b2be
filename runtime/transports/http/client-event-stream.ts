/**
 * Reads a `text/event-stream` response body through an {@link SseParser} until it ends, and
 * tells how it ended. Event handling stays with the caller; this module only pumps bytes.
 */
import { asError } from '../../core/errors.js';
import { SseParser, type ParsedSseEvent } from './sse-parser.js';

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
  /** Set when the body failed (connection reset, abort) rather than ending normally. */
  readonly error?: Error | undefined;
}

/**
 * Pumps `response.body` into a parser seeded with `lastEventId` until the body ends or
 * fails. A frame cut off by the end is dropped by the parser, never delivered. Never rejects:
 * a failure is reported in the result, since to the caller both mean "the stream is gone".
 */
export async function readEventStream(response: Response, sink: EventStreamSink, lastEventId = ''): Promise<EventStreamEnd> {
  const parser = new SseParser({ onevent: sink.onevent, onretry: sink.onretry }, { lastEventId });
  const body = response.body;
  if (body === null) {
    parser.end();
    return { lastEventId: parser.lastEventId };
  }
  const reader = body.getReader();
  try {
    for (;;) {
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
    return { lastEventId: parser.lastEventId, error: asError(error) };
  } finally {
    reader.releaseLock();
  }
}
