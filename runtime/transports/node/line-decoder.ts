/**
 * Splits a byte stream into newline-delimited lines with a hard size cap. Lines are measured
 * and cut as bytes and decoded only once complete, so a multi-byte character split across
 * chunks decodes correctly and an oversized line never has to be held in memory. Decoding is
 * strict, as for HTTP bodies: a line that is not UTF-8 is refused rather than repaired with
 * replacement characters, which would hand the engine text the peer never sent.
 */
import { FRAME_HEAD_BYTES, readFrameHead } from '../../core/frame-head.js';
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

  /** Feeds the next chunk; emits every line it completes. */
  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      const end = newline === -1 ? bytes.length : newline;
      this.take(bytes.subarray(start, end));
      if (newline === -1) {
        return;
      }
      this.finishLine();
      start = newline + 1;
    }
  }

  /** Flushes a final line that the stream ended without terminating. */
  end(): void {
    this.finishLine();
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
    let line = Buffer.concat(this.parts, this.size);
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
    if (text.trim() !== '') {
      this.handlers.online(text);
    }
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
