import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { SdkError, messageOf } from '../../core/errors.js';
import type { JSONRPCMessage } from '../../core/jsonrpc.js';
import type { MessageExtra, Transport, TransportSendOptions } from '../../core/transport.js';
import { decodeMessage, encodeMessage } from '../../core/wire-format.js';
import { defaultEnvironment } from './default-environment.js';
import { DEFAULT_MAX_LINE_BYTES, LineDecoder, oversizedLine } from './line-decoder.js';
import { terminateGroup, waitUntilFalse } from './process-group.js';
import { TextTail } from './text-tail.js';
import { LineWriter } from './line-writer.js';

/** Default number of stderr characters kept: 64 Ki. */
export const DEFAULT_STDERR_CAPACITY = 64 * 1024;
/** Default wait after ending the child's stdin before SIGTERM: 2 s. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 2_000;
/** Default wait after SIGTERM before SIGKILL: 2 s. */
export const DEFAULT_KILL_TIMEOUT_MS = 2_000;

/** How much stderr an unexpected-exit error quotes. */
const STDERR_TAIL_IN_ERRORS = 2_000;
/** How long output still in the pipes may take to arrive after the child exited. */
const OUTPUT_FLUSH_MS = 500;
/** How long to wait for the exit event once the process group was killed. */
const REAP_WAIT_MS = 1_000;

/** Options of a {@link StdioClientTransport}. */
export interface StdioClientTransportOptions {
  /** The server executable. */
  readonly command: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  /** Variables added over {@link defaultEnvironment} (which passes only a safe few through). */
  readonly env?: Readonly<Record<string, string>>;
  /** Characters of stderr kept for `stderr` and crash reports; default {@link DEFAULT_STDERR_CAPACITY}. */
  readonly stderrCapacity?: number;
  /** Receives stderr output as it arrives, in addition to the kept tail. */
  readonly onstderr?: (chunk: string) => void;
  /** Wait after ending stdin for the server to exit by itself; default {@link DEFAULT_CLOSE_TIMEOUT_MS}. */
  readonly closeTimeoutMs?: number;
  /** Wait after SIGTERM before SIGKILL; default {@link DEFAULT_KILL_TIMEOUT_MS}. */
  readonly killTimeoutMs?: number;
  /**
   * Longest accepted line from the server in bytes (default {@link DEFAULT_MAX_LINE_BYTES}). A
   * longer line is skipped without being buffered and the connection stays open: a response
   * whose id its first bytes show fails that request at once with SdkError('MESSAGE_TOO_LARGE',
   * data `{ id, limit }`); a request is refused with INVALID_REQUEST as the server does.
   */
  readonly maxLineBytes?: number | undefined;
}

/** How the child process ended. */
export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * The client side of the stdio transport: spawns the server as the leader of its own process
 * group and speaks newline-delimited JSON-RPC over its stdin/stdout. `close()` ends stdin,
 * waits `closeTimeoutMs`, then terminates the whole group (SIGTERM, then SIGKILL after
 * `killTimeoutMs`), so nothing the server spawned outlives the connection. When the server exits
 * by itself, the transport closes with a `closeReason` naming the exit status and stderr tail.
 *
 * @example
 * ```ts
 * import { Client } from 'mcpgen';
 * import { StdioClientTransport } from 'mcpgen/node';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 * await client.connect(new StdioClientTransport({ command: 'node', args: ['server.js'] }));
 * console.log(client.serverInfo?.name);
 * await client.close(); // ends the server's stdin, then its process group
 * ```
 */
export class StdioClientTransport implements Transport {
  onmessage?: (message: unknown, extra?: MessageExtra) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private readonly options: StdioClientTransportOptions;
  private readonly stderrTail: TextTail;
  private readonly decoder: LineDecoder;
  private child: ChildProcessWithoutNullStreams | undefined;
  private exit: ExitStatus | undefined;
  /** Resolves on the child's 'exit' event. */
  private exited: Promise<void> = Promise.resolve();
  private stdoutEnded = false;
  private shutdown: Promise<void> | undefined;
  private reason: Error | undefined;
  /** Writes to the child's stdin in order, waiting for 'drain' when its pipe is full. */
  private writer: LineWriter | undefined;

  constructor(options: StdioClientTransportOptions) {
    this.options = options;
    this.stderrTail = new TextTail(options.stderrCapacity ?? DEFAULT_STDERR_CAPACITY);
    this.decoder = new LineDecoder(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, {
      online: (line) => this.onmessage?.(decodeMessage(line)),
      onoversized: (limit, head) => this.onmessage?.(oversizedLine(limit, head)),
    });
  }

  /** The child's process id once spawned. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The most recent stderr output (up to `stderrCapacity` characters). */
  get stderr(): string {
    return this.stderrTail.text();
  }

  /** How the child ended, once it has. */
  get exitStatus(): ExitStatus | undefined {
    return this.exit;
  }

  /** Set when the server exited without `close()` being called. */
  get closeReason(): Error | undefined {
    return this.reason;
  }

  /** Spawns the server; rejects with SdkError('SPAWN_FAILED') when it cannot be started. */
  async start(): Promise<void> {
    if (this.child !== undefined) {
      throw new SdkError('ALREADY_CONNECTED', 'StdioClientTransport already started');
    }
    const { command, args = [], cwd, env } = this.options;
    const child = spawn(command, [...args], {
      cwd,
      env: { ...defaultEnvironment(), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    this.child = child;
    this.writer = new LineWriter(child.stdin);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => {
        child.off('error', reject);
        resolve();
      });
      child.once('error', reject);
    }).catch((error: unknown) => {
      this.child = undefined;
      throw new SdkError('SPAWN_FAILED', `Cannot start ${command}: ${messageOf(error)}`, { cause: error });
    });
    this.wire(child);
  }

  /** Writes one line to the server's stdin, waiting for 'drain' when its pipe is full. */
  send(message: JSONRPCMessage | JSONRPCMessage[], _options?: TransportSendOptions): Promise<void> {
    const child = this.child;
    if (child === undefined || this.shutdown !== undefined || this.exit !== undefined) {
      return Promise.reject(new SdkError('NOT_CONNECTED', 'StdioClientTransport is not running'));
    }
    return this.writer!.write(`${encodeMessage(message)}\n`);
  }

  /** Ends the server and its process group (see the class comment); fires `onclose` once. */
  close(): Promise<void> {
    this.shutdown ??= this.stop();
    return this.shutdown;
  }

  private wire(child: ChildProcessWithoutNullStreams): void {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.stdout.on('data', (chunk: Buffer) => this.decoder.push(chunk));
    child.stdout.on('end', () => {
      this.stdoutEnded = true;
      this.decoder.end();
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      this.stderrTail.append(chunk);
      this.options.onstderr?.(chunk);
    });
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      // EPIPE only means the server is gone; its exit is reported through closeReason instead.
      if (error.code !== 'EPIPE' && this.shutdown === undefined) {
        this.onerror?.(error);
      }
    });
    child.on('error', (error) => this.onerror?.(error));
    child.once('exit', (code, signal) => {
      this.exit = { code, signal };
      if (this.shutdown === undefined) {
        this.shutdown = this.afterUnexpectedExit();
      }
    });
  }

  private async stop(): Promise<void> {
    const child = this.child;
    if (child === undefined) {
      this.onclose?.();
      return;
    }
    if (this.exit === undefined) {
      child.stdin.end();
      await within(this.exited, this.options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS);
    }
    // Even after the leader exited, others in its group (grandchildren) may still run.
    await this.terminate(child);
    await within(this.exited, REAP_WAIT_MS);
    this.detach(child);
    this.onclose?.();
  }

  private async afterUnexpectedExit(): Promise<void> {
    const child = this.child!;
    await this.terminate(child);
    await waitUntilFalse(() => !this.stdoutEnded, OUTPUT_FLUSH_MS, 10);
    this.reason = new SdkError('CONNECTION_CLOSED', this.describeExit(), { data: { ...this.exit, stderr: this.stderrTail.tail(STDERR_TAIL_IN_ERRORS) } });
    this.detach(child);
    this.onclose?.();
  }

  private async terminate(child: ChildProcessWithoutNullStreams): Promise<void> {
    const killTimeoutMs = this.options.killTimeoutMs ?? DEFAULT_KILL_TIMEOUT_MS;
    if (child.pid === undefined) {
      return;
    }
    if (process.platform === 'win32') {
      if (this.exit === undefined) {
        child.kill();
      }
      return;
    }
    await terminateGroup(child.pid, killTimeoutMs);
  }

  private detach(child: ChildProcessWithoutNullStreams): void {
    child.stdout.removeAllListeners('data');
    child.stderr.removeAllListeners('data');
    child.stdin.destroy();
    child.stdout.destroy();
    child.stderr.destroy();
  }

  private describeExit(): string {
    const status = this.exit?.signal != null ? `signal ${this.exit.signal}` : `code ${this.exit?.code ?? 'unknown'}`;
    const tail = this.stderrTail.tail(STDERR_TAIL_IN_ERRORS).trim();
    return `server process ${this.options.command} exited with ${status}${tail === '' ? '' : `; stderr: ${tail}`}`;
  }
}

/** Waits for `promise`, but no longer than `ms`. */
async function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

