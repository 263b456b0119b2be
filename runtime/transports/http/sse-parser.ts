/**
 * An incremental parser of `text/event-stream` bodies, following the event-stream
 * interpretation rules of the HTML Living Standard (Server-sent events, §9.2.6). It has no
 * I/O of its own: the owner pushes chunks as they arrive, in any size, and the parser calls
 * back with each complete event. It scans bytes for line ends and decodes each field value
 * once, when its line is complete, so that a chunk costs no string building and a line split
 * across chunks is joined as bytes. Runtime-neutral: it needs only `TextDecoder`.
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
   * Most bytes (of the UTF-8 stream) one event may hold: its data, and any one line of it,
   * comments and unterminated lines included; default unbounded. Passing it makes `push` throw
   * an {@link SseEventTooLarge} before the bytes are kept, and ends the parser.
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

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const textEncoder = /* @__PURE__ */ new TextEncoder();

/** The fields the parser acts on; any other is ignored. */
type Field = 'data' | 'event' | 'id' | 'retry' | 'other';

/**
 * Parses one event stream. Lines may end in CRLF, LF or CR, also when a CRLF pair is split
 * across two chunks; a leading BOM is skipped; comment lines (starting with `:`) are ignored;
 * an event whose terminating blank line never arrives (the stream ended mid-frame) is dropped
 * by {@link SseParser.end}, never delivered, because its data may be incomplete.
 */
export class SseParser {
  private readonly handlers: SseParserHandlers;
  /** Decodes one complete field value at a time; keeps a BOM, which only the stream's start drops. */
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** Copies of the pieces of the current line that has not been terminated yet. */
  private pieces: Uint8Array[] = [];
  private pieceBytes = 0;
  /** True while the previous chunk ended in CR, so a leading LF of the next one belongs to it. */
  private afterCR = false;
  private atStart = true;
  private ended = false;
  /** The current event's data lines joined with LF; undefined while it has no `data` field. */
  private data: string | undefined;
  /** Bytes of the data lines, each counted with its LF. */
  private dataBytes = 0;
  private typeBuffer = '';
  private idBuffer: string;
  private lastEventIdValue: string;
  private readonly maxBytes: number;

  constructor(handlers: SseParserHandlers, options: SseParserOptions = {}) {
    this.handlers = handlers;
    this.maxBytes = options.maxEventChars ?? Number.POSITIVE_INFINITY;
    this.lastEventIdValue = options.lastEventId ?? '';
    this.idBuffer = this.lastEventIdValue;
  }

  /** The last event id of the stream (see {@link ParsedSseEvent.lastEventId}). */
  get lastEventId(): string {
    return this.lastEventIdValue;
  }

  /** Feeds the next chunk: raw bytes (UTF-8, split anywhere) or text. */
  push(chunk: Uint8Array | string): void {
    if (this.ended) {
      throw new Error('SseParser received data after end()');
    }
    this.consume(typeof chunk === 'string' ? textEncoder.encode(chunk) : chunk);
  }

  /** Marks the end of the stream: discards whatever event was not terminated by a blank line. Idempotent. */
  end(): void {
    if (this.ended) {
      return;
    }
    this.ended = true;
    this.pieces = [];
    this.pieceBytes = 0;
    this.resetEvent();
  }

  private consume(bytes: Uint8Array): void {
    const length = bytes.length;
    let position = 0;
    if (this.afterCR && length > 0) {
      this.afterCR = false;
      if (bytes[0] === LF) position = 1;
    }
    // The next LF and CR at or after `position`, found once each and reused until passed (-1: none left).
    let lf = -2;
    let cr = -2;
    while (position < length) {
      if (lf !== -1 && lf < position) lf = bytes.indexOf(LF, position);
      if (cr !== -1 && cr < position) cr = bytes.indexOf(CR, position);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) {
        this.checkSize(this.pieceBytes + length - position, 'a line');
        // A copy: the owner may reuse its buffer once push returns.
        this.pieces.push(bytes.slice(position));
        this.pieceBytes += length - position;
        return;
      }
      this.checkSize(this.pieceBytes + end - position, 'a line');
      const line = this.pieces.length === 0 ? bytes.subarray(position, end) : this.joinLine(bytes.subarray(position, end));
      if (bytes[end] === CR) {
        if (end + 1 === length) {
          this.afterCR = true;
          position = end + 1;
        } else {
          position = bytes[end + 1] === LF ? end + 2 : end + 1;
        }
      } else {
        position = end + 1;
      }
      this.processLine(line);
    }
  }

  /** The kept pieces of the current line followed by `tail`, as one array; empties the pieces. */
  private joinLine(tail: Uint8Array): Uint8Array {
    const line = new Uint8Array(this.pieceBytes + tail.length);
    let offset = 0;
    for (const piece of this.pieces) {
      line.set(piece, offset);
      offset += piece.length;
    }
    line.set(tail, offset);
    this.pieces = [];
    this.pieceBytes = 0;
    return line;
  }

  private processLine(input: Uint8Array): void {
    let line = input;
    if (this.atStart) {
      this.atStart = false;
      if (line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
    }
    const length = line.length;
    if (length === 0) {
      this.dispatch();
      return;
    }
    if (line[0] === COLON) {
      return;
    }
    const colon = line.indexOf(COLON);
    const nameEnd = colon === -1 ? length : colon;
    let valueStart = colon === -1 ? length : colon + 1;
    if (valueStart < length && line[valueStart] === SPACE) valueStart++;
    switch (fieldOf(line, nameEnd)) {
      case 'data': {
        const valueBytes = length - valueStart;
        this.checkSize(this.dataBytes + valueBytes + 1, 'the data of an event');
        const value = this.decode(line, valueStart);
        this.data = this.data === undefined ? value : `${this.data}\n${value}`;
        this.dataBytes += valueBytes + 1;
        break;
      }
      case 'event':
        this.typeBuffer = this.decode(line, valueStart);
        break;
      case 'id': {
        // An id containing NUL is ignored as a whole, as the standard requires.
        if (line.indexOf(0, valueStart) === -1) this.idBuffer = this.decode(line, valueStart);
        break;
      }
      case 'retry':
        if (allDigits(line, valueStart)) this.handlers.onretry?.(Number.parseInt(this.decode(line, valueStart), 10));
        break;
      default:
        // Unknown fields are ignored so that future extensions do not break old clients.
        break;
    }
  }

  private decode(line: Uint8Array, from: number): string {
    return from === line.length ? '' : this.decoder.decode(line.subarray(from));
  }

  /** Throws, ending the parser, when keeping `bytes` bytes of `what` would pass the bound. */
  private checkSize(bytes: number, what: string): void {
    if (bytes <= this.maxBytes) return;
    this.ended = true;
    this.pieces = [];
    this.pieceBytes = 0;
    this.resetEvent();
    throw new SseEventTooLarge(`${what} is longer than ${this.maxBytes} bytes`, this.maxBytes);
  }

  private dispatch(): void {
    // The id takes effect at the blank line even when the event carries no data.
    this.lastEventIdValue = this.idBuffer;
    const data = this.data;
    if (data === undefined) {
      this.resetEvent();
      return;
    }
    const type = this.typeBuffer === '' ? 'message' : this.typeBuffer;
    this.resetEvent();
    this.handlers.onevent({ type, data, lastEventId: this.lastEventIdValue });
  }

  private resetEvent(): void {
    this.data = undefined;
    this.dataBytes = 0;
    this.typeBuffer = '';
    // An id of an event that was never dispatched does not count.
    this.idBuffer = this.lastEventIdValue;
  }
}

/** Which field the name `line[0, end)` is, compared as bytes. */
function fieldOf(line: Uint8Array, end: number): Field {
  switch (end) {
    case 2:
      return line[0] === 0x69 && line[1] === 0x64 ? 'id' : 'other';
    case 4:
      return line[0] === 0x64 && line[1] === 0x61 && line[2] === 0x74 && line[3] === 0x61 ? 'data' : 'other';
    case 5:
      if (line[0] === 0x65 && line[1] === 0x76 && line[2] === 0x65 && line[3] === 0x6e && line[4] === 0x74) return 'event';
      if (line[0] === 0x72 && line[1] === 0x65 && line[2] === 0x74 && line[3] === 0x72 && line[4] === 0x79) return 'retry';
      return 'other';
    default:
      return 'other';
  }
}

/** Whether `line[from..]` is one or more ASCII digits. */
function allDigits(line: Uint8Array, from: number): boolean {
  if (from === line.length) return false;
  for (let index = from; index < line.length; index++) {
    const byte = line[index]!;
    if (byte < 0x30 || byte > 0x39) return false;
  }
  return true;
}
