/**
 * An incremental parser of `text/event-stream` bodies, following the event-stream
 * interpretation rules of the HTML Living Standard (Server-sent events, §9.2.6). It has no
 * I/O of its own: the owner pushes chunks as they arrive, in any size, and the parser calls
 * back with each complete event. Runtime-neutral: it needs only `TextDecoder`.
 */

/** One dispatched event. */
export interface ParsedSseEvent {
  /** The `event` field, or `'message'` when the event named none. */
  readonly type: string;
  /** The `data` fields joined with LF, without the final LF. */
  readonly data: string;
  /**
   * The stream's last event id when the event was dispatched: the most recent `id` field of
   * this or an earlier event ('' when none was ever sent, or when the server reset it).
   */
  readonly lastEventId: string;
}

/** Callbacks of an {@link SseParser}. */
export interface SseParserHandlers {
  /** Receives each complete event, in stream order. */
  readonly onevent: (event: ParsedSseEvent) => void;
  /** Receives each valid `retry` field (milliseconds) as soon as its line is complete. */
  readonly onretry?: ((milliseconds: number) => void) | undefined;
}

/** Construction options of an {@link SseParser}. */
export interface SseParserOptions {
  /**
   * The last event id carried over from an earlier connection to the same stream, so that
   * events of a resumed stream that set no id of their own still report it.
   */
  readonly lastEventId?: string | undefined;
  /**
   * Most characters one event may hold (its data, and any one line of it, comments and
   * unterminated lines included); default unbounded. Passing it makes `push` throw an
   * {@link SseEventTooLarge} before the text is kept, and ends the parser.
   */
  readonly maxEventChars?: number | undefined;
}

/** Thrown by {@link SseParser.push} when an event or a line passes `maxEventChars`. */
export class SseEventTooLarge extends Error {
  /** The bound that was passed. */
  readonly limit: number;

  constructor(message: string, limit: number) {
    super(message);
    this.name = 'SseEventTooLarge';
    this.limit = limit;
  }
}

const LF = '\n';
const CR = '\r';
const BOM = '\uFEFF';
const DIGITS = /^[0-9]+$/;

/**
 * Parses one event stream. Lines may end in CRLF, LF or CR, also when a CRLF pair is split
 * across two chunks; a leading BOM is skipped; comment lines (starting with `:`) are ignored;
 * an event whose terminating blank line never arrives (the stream ended mid-frame) is dropped
 * by {@link SseParser.end}, never delivered, because its data may be incomplete.
 */
export class SseParser {
  private readonly handlers: SseParserHandlers;
  /** Decodes byte chunks; keeps a BOM so that the text path strips it the same way. */
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** Text of the current line that has not been terminated yet. */
  private partial = '';
  /** True while the previous chunk ended in CR, so a leading LF of the next one belongs to it. */
  private afterCR = false;
  private atStart = true;
  private ended = false;
  private dataBuffer = '';
  /** Whether any `data` field was seen in the current event (data may still be empty text). */
  private hasData = false;
  private typeBuffer = '';
  private idBuffer: string;
  private lastEventIdValue: string;
  private readonly maxChars: number;

  constructor(handlers: SseParserHandlers, options: SseParserOptions = {}) {
    this.handlers = handlers;
    this.maxChars = options.maxEventChars ?? Number.POSITIVE_INFINITY;
    this.lastEventIdValue = options.lastEventId ?? '';
    this.idBuffer = this.lastEventIdValue;
  }

  /** The last event id of the stream (see {@link ParsedSseEvent.lastEventId}). */
  get lastEventId(): string {
    return this.lastEventIdValue;
  }

  /** Feeds the next chunk: raw bytes (decoded as UTF-8 across chunk boundaries) or text. */
  push(chunk: Uint8Array | string): void {
    if (this.ended) {
      throw new Error('SseParser received data after end()');
    }
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    this.consume(text);
  }

  /**
   * Marks the end of the stream: flushes the byte decoder and discards whatever event was
   * not terminated by a blank line. Idempotent.
   */
  end(): void {
    if (this.ended) {
      return;
    }
    const rest = this.decoder.decode();
    if (rest !== '') {
      this.consume(rest);
    }
    this.ended = true;
    this.partial = '';
    this.resetEvent();
  }

  private consume(input: string): void {
    let text = input;
    if (this.atStart && text !== '') {
      this.atStart = false;
      if (text.startsWith(BOM)) {
        text = text.slice(1);
      }
    }
    let position = 0;
    if (this.afterCR && text !== '') {
      this.afterCR = false;
      if (text.startsWith(LF)) {
        position = 1;
      }
    }
    while (position < text.length) {
      const end = nextLineEnd(text, position);
      if (end === -1) {
        this.checkSize(this.partial.length + text.length - position, 'a line');
        this.partial += text.slice(position);
        return;
      }
      this.checkSize(this.partial.length + end - position, 'a line');
      const line = this.partial + text.slice(position, end);
      this.partial = '';
      if (text[end] === CR) {
        if (end + 1 === text.length) {
          this.afterCR = true;
          position = end + 1;
        } else {
          position = text[end + 1] === LF ? end + 2 : end + 1;
        }
      } else {
        position = end + 1;
      }
      this.processLine(line);
    }
  }

  private processLine(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) {
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) {
      value = value.slice(1);
    }
    switch (field) {
      case 'event':
        this.typeBuffer = value;
        break;
      case 'data':
        this.checkSize(this.dataBuffer.length + value.length + 1, 'the data of an event');
        this.dataBuffer += value + LF;
        this.hasData = true;
        break;
      case 'id':
        // An id containing NUL is ignored as a whole, as the standard requires.
        if (!value.includes('\0')) {
          this.idBuffer = value;
        }
        break;
      case 'retry':
        if (DIGITS.test(value)) {
          this.handlers.onretry?.(Number.parseInt(value, 10));
        }
        break;
      default:
        // Unknown fields are ignored so that future extensions do not break old clients.
        break;
    }
  }

  /** Throws, ending the parser, when keeping `chars` characters of `what` would pass the bound. */
  private checkSize(chars: number, what: string): void {
    if (chars <= this.maxChars) return;
    this.ended = true;
    this.partial = '';
    this.resetEvent();
    throw new SseEventTooLarge(`${what} is longer than ${this.maxChars} characters`, this.maxChars);
  }

  private dispatch(): void {
    // The id takes effect at the blank line even when the event carries no data.
    this.lastEventIdValue = this.idBuffer;
    if (!this.hasData) {
      this.resetEvent();
      return;
    }
    const data = this.dataBuffer.endsWith(LF) ? this.dataBuffer.slice(0, -1) : this.dataBuffer;
    const type = this.typeBuffer === '' ? 'message' : this.typeBuffer;
    this.resetEvent();
    this.handlers.onevent({ type, data, lastEventId: this.lastEventIdValue });
  }

  private resetEvent(): void {
    this.dataBuffer = '';
    this.hasData = false;
    this.typeBuffer = '';
    // An id of an event that was never dispatched does not count.
    this.idBuffer = this.lastEventIdValue;
  }
}

/** Index of the next CR or LF at or after `from`, or -1. */
function nextLineEnd(text: string, from: number): number {
  const lf = text.indexOf(LF, from);
  const cr = text.indexOf(CR, from);
  if (lf === -1) return cr;
  if (cr === -1) return lf;
  return Math.min(lf, cr);
}
