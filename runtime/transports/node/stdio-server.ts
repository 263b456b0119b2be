import type { Readable, Writable } from 'node:stream';
import { SdkError } from '../../core/errors.js';
import type { JSONRPCMessage } from '../../core/jsonrpc.js';
import type { MessageExtra, Transport, TransportSendOptions } from '../../core/transport.js';
import { decodeMessage, encodeMessage, ParseFailure } from '../../core/wire-format.js';
import { DEFAULT_MAX_LINE_BYTES, LineDecoder, oversizedLine } from './line-decoder.js';
import { LineWriter } from './line-writer.js';

/** Re-exported because the option it defaults belongs to this transport. */
export { DEFAULT_MAX_LINE_BYTES };

/** Options of a {@link StdioServerTransport}. */
export interface StdioServerTransportOptions {
  /** Where messages come from; default `process.stdin`. */
  readonly input?: Readable;
  /** Where messages go; default `process.stdout`. Nothing but protocol messages is written to it. */
  readonly output?: Writable;
  /**
   * Longest accepted inbound line in bytes (default {@link DEFAULT_MAX_LINE_BYTES}). A longer
   * line is discarded without being buffered and reported to the engine as an `oversized`
   * ParseFailure, which answers it with INVALID_REQUEST, under the request's id when the line's
   * first bytes show it (id null otherwise); the connection stays open.
   */
  readonly maxLineBytes?: number | undefined;
}

/**
 * The server side of the stdio transport: newline-delimited JSON-RPC on stdin/stdout. The
 * connection ends when the input ends (the client closed our stdin) or on `close()`.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { StdioServerTransport } from 'mcpgen/node';
 *
 * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
 * mcp.registerTool('ping', {}, () => ({ content: [{ type: 'text', text: 'pong' }] }));
 * await mcp.connect(new StdioServerTransport());
 * ```
 */
export class StdioServerTransport implements Transport {
  /** Stdin and stdout: `pipe` in telemetry's terms. */
  readonly networkTransport = 'pipe';
  onmessage?: (message: unknown, extra?: MessageExtra) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private readonly input: Readable;
  private readonly output: Writable;
  private readonly decoder: LineDecoder;
  private started = false;
  private closed = false;
  /** Writes in order, waiting for 'drain' when the output is full. */
  private readonly writer: LineWriter;

  constructor(options: StdioServerTransportOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.writer = new LineWriter(this.output);
    this.decoder = new LineDecoder(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, {
      online: (line) => this.onmessage?.(decodeMessage(line)),
      onoversized: (limit, head) => this.onmessage?.(oversizedLine(limit, head)),
      oninvalidtext: () => this.onmessage?.(new ParseFailure('invalid-json', 'the line is not valid UTF-8 text')),
    });
  }

  /** Starts reading the input. */
  async start(): Promise<void> {
    if (this.started) {
      throw new SdkError('ALREADY_CONNECTED', 'StdioServerTransport already started');
    }
    this.started = true;
    this.input.on('data', this.handleData);
    this.input.on('end', this.handleEnd);
    this.input.on('error', this.handleInputError);
    this.output.on('error', this.handleOutputError);
    this.input.resume();
  }

  /**
   * Writes one line, joined with the other lines of this turn into one write; resolves when the
   * output accepted it, waiting for 'drain' when it is full.
   */
  send(message: JSONRPCMessage | JSONRPCMessage[], _options?: TransportSendOptions): Promise<void> {
    if (this.closed) {
      return Promise.reject(new SdkError('NOT_CONNECTED', 'StdioServerTransport is closed'));
    }
    return this.writer.write(encodeMessage(message));
  }

  /** Stops reading and fires `onclose`. The output stream is left open for the process to use. */
  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    // Replies already sent this turn still go out: the output outlives the transport.
    this.writer.flush();
    this.input.off('data', this.handleData);
    this.input.off('end', this.handleEnd);
    this.input.off('error', this.handleInputError);
    this.output.off('error', this.handleOutputError);
    // Pausing releases the event loop's hold on stdin, so the process can exit naturally.
    this.input.pause();
    this.onclose?.();
  }

  private readonly handleData = (chunk: Buffer | string): void => {
    this.decoder.push(chunk);
  };

  private readonly handleEnd = (): void => {
    this.decoder.end();
    void this.close();
  };

  private readonly handleInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly handleOutputError = (error: Error): void => {
    this.onerror?.(error);
    // A broken output (e.g. EPIPE after the client went away) cannot carry replies anymore.
    void this.close();
  };
}
