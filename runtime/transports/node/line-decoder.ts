/**
 * Splits a byte stream into newline-delimited lines with a hard size cap. Lines are measured
 * and cut as bytes and decoded only once complete, so a multi-byte character split across
 * chunks decodes correctly and an oversized line never has to be held in memory. Decoding is
 * strict, as for HTTP bodies: a line that is not UTF-8 is refused rather than repaired with
 * replacement characters, which would hand the engine text the peer never sent.
 */
import { isUtf8 } from 'node:buffer';
import { FRAME_HEAD_BYTES, readFrameHead } from '../http/frame-head.js';
import { ParseFailure } from '../../core/wire-format.js';

/** Callbacks of a {@link LineDecoder}. */
export interface LineDecoderHandlers {
  /** Receives each complete, non-blank line without its line terminator. */
  readonly online: (line: string) => void;
  /**
   * Called once per line that exceeds the cap, as soon as the cap is crossed, with the line's
   * first bytes (at most `headBytes`, so the envelope can still be read); the rest of that line
   * is then discarded up to the next newline.
   */
  readonly onoversized: (limit: number, head: Buffer) => void;
  /** Called once per complete line that is not valid UTF-8; the line is dropped. */
  readonly oninvalidtext: () => void;
}

/** Default cap on one inbound line: 4 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/** Incremental newline splitter for NDJSON framing. */
export class LineDecoder {
  private readonly maxLineBytes: number;
  private readonly handlers: LineDecoderHandlers;
  private parts: Buffer[] = [];
  private size = 0;
  private discarding = false;
  /** Strict (throws on invalid bytes), and a leading BOM is kept, so it is refused as JSON like any stray character. */
  private readonly text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  private readonly headBytes: number;

  /**
   * `maxLineBytes` caps a line's length in bytes, excluding its terminator; `headBytes` is how
   * much of an oversized line `onoversized` receives.
   */
  constructor(maxLineBytes: number, handlers: LineDecoderHandlers, headBytes = FRAME_HEAD_BYTES) {
    this.maxLineBytes = maxLineBytes;
    this.handlers = handlers;
    this.headBytes = headBytes;
  }

  /**
   * Feeds the next chunk; emits every line it completes. The lines that lie wholly inside the
   * chunk are validated and decoded by one call each for the whole run of them and then cut
   * from the text, so a chunk of many small messages costs a few native calls, not a few per
   * line; only a line carried over from the previous chunk, a run longer than the cap, or a run
   * with invalid UTF-8 goes line by line.
   */
  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    if (this.size > 0 || this.discarding) {
      const newline = bytes.indexOf(NEWLINE);
      if (newline === -1) {
        this.take(bytes);
        return;
      }
      this.take(bytes.subarray(0, newline));
      this.finishLine();
      start = newline + 1;
    }
    const last = bytes.lastIndexOf(NEWLINE);
    if (last >= start) {
      // No line in a run that fits the cap can exceed it; a newline byte never sits inside a
      // multi-byte character, so the run is valid UTF-8 exactly when each of its lines is.
      if (last - start <= this.maxLineBytes && isUtf8(bytes.subarray(start, last))) {
        this.emitLines(bytes.toString('utf8', start, last));
      } else {
        this.splitLines(bytes.subarray(start, last + 1));
      }
      start = last + 1;
    }
    if (start < bytes.length) {
      this.take(bytes.subarray(start));
    }
  }

  /** Flushes a final line that the stream ended without terminating. */
  end(): void {
    this.finishLine();
  }

  /** Emits each line of `text`, a run of complete lines without its last terminator. */
  private emitLines(text: string): void {
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      this.emit(text.charCodeAt(end - 1) === CARRIAGE_RETURN ? text.slice(start, end - 1) : text.slice(start, end));
      if (newline === -1) return;
      start = newline + 1;
    }
  }

  /** Splits `bytes`, which ends with a newline, line by line, each measured and decoded alone. */
  private splitLines(bytes: Buffer): void {
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      this.take(bytes.subarray(start, newline));
      this.finishLine();
      start = newline + 1;
    }
  }

  private emit(text: string): void {
    // A message starts with '{' or '['; only other lines need the whitespace check.
    const first = text.charCodeAt(0);
    if (first === OPEN_BRACE || first === OPEN_BRACKET || (text.length > 0 && text.trim() !== '')) {
      this.handlers.online(text);
    }
  }

  private take(piece: Buffer): void {
    if (this.discarding || piece.length === 0) {
      return;
    }
    // A trailing '\r' is part of a CRLF terminator, not content, so it is not counted.
    const counted = this.size + piece.length;
    if (counted > this.maxLineBytes && !(counted === this.maxLineBytes + 1 && piece[piece.length - 1] === CARRIAGE_RETURN)) {
      this.discarding = true;
      const head = leadingBytes([...this.parts, piece], this.headBytes);
      this.parts = [];
      this.size = 0;
      this.handlers.onoversized(this.maxLineBytes, head);
      return;
    }
    this.parts.push(piece);
    this.size = counted;
  }

  private finishLine(): void {
    if (this.discarding) {
      this.discarding = false;
      return;
    }
    if (this.size === 0) {
      return;
    }
    let line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    if (line[line.length - 1] === CARRIAGE_RETURN) {
      line = line.subarray(0, line.length - 1);
    }
    let text: string;
    try {
      text = this.text.decode(line);
    } catch {
      this.handlers.oninvalidtext();
      return;
    }
    this.emit(text);
  }
}

/** The first `count` bytes of `parts` joined, copying no more than that. */
function leadingBytes(parts: readonly Buffer[], count: number): Buffer {
  const taken: Buffer[] = [];
  let size = 0;
  for (const part of parts) {
    if (size >= count) {
      break;
    }
    const piece = part.subarray(0, count - size);
    taken.push(piece);
    size += piece.length;
  }
  return Buffer.concat(taken, size);
}

/** The ParseFailure an oversized line is delivered as, with the envelope its head shows. */
export function oversizedLine(limit: number, head: Buffer): ParseFailure {
  return new ParseFailure('oversized', `message exceeds the ${limit}-byte line limit`, {
    limit,
    head: readFrameHead(head.toString('utf8')),
  });
}
