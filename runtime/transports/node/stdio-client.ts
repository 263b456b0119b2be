import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { SdkError, messageOf } from '../../core/errors.js';
import type { JSONRPCMessage } from '../../core/jsonrpc.js';
import type { MessageExtra, Transport, TransportSendOptions } from '../../core/transport.js';
import { decodeMessage, encodeMessage, ParseFailure } from '../../core/wire-format.js';
import { defaultEnvironment } from './default-environment.js';
import { DEFAULT_MAX_LINE_BYTES, LineDecoder, oversizedLine } from './line-decoder.js';
import { processGroup, terminate, waitUntilFalse, type Terminable } from './process-group.js';
import { hasProcTable, ProcessTree } from './process-tree.js';
import { TextTail } from './text-tail.js';
import { LineWriter } from './line-writer.js';

/** Default number of stderr characters kept: 64 Ki. */
export const DEFAULT_STDERR_CAPACITY = 64 * 1024;
/** Default wait after ending the child's stdin before SIGINT: 200 ms. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 200;
/** Default wait after SIGINT before SIGTERM: 150 ms. */
export const DEFAULT_INTERRUPT_TIMEOUT_MS = 150;
/** Default wait after SIGTERM before SIGKILL: 150 ms (so 500 ms from close() to SIGKILL). */
export const DEFAULT_KILL_TIMEOUT_MS = 150;
/**
 * The environment variable that marks the server's descendants (its value is unique per
 * transport): a descendant that left the process group and lost its parent is still found by it.
 */
export const TREE_MARKER_VARIABLE = 'MCPGEN_STDIO_TREE';

/** How much stderr an unexpected-exit error quotes. */
const STDERR_TAIL_IN_ERRORS = 2_000;
/** How much of a non-JSON stdout line error messages quote. */
const INVALID_OUTPUT_QUOTE = 200;
/** How long output still in the pipes may take to arrive after the child exited. */
const OUTPUT_FLUSH_MS = 500;
/** How long to wait for the exit event once the process tree was killed. */
const REAP_WAIT_MS = 1_000;
/** How often the tree is read while the server has time to exit after end of input. */
const TREE_POLL_MS = 20;

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
  /**
   * Wait in ms after ending stdin for the server to exit by itself, before SIGINT; default
   * {@link DEFAULT_CLOSE_TIMEOUT_MS} (200 ms).
   */
  readonly closeTimeoutMs?: number | undefined;
  /** Wait in ms after SIGINT before SIGTERM; default {@link DEFAULT_INTERRUPT_TIMEOUT_MS} (150 ms). */
  readonly interruptTimeoutMs?: number | undefined;
  /** Wait in ms after SIGTERM before SIGKILL; default {@link DEFAULT_KILL_TIMEOUT_MS} (150 ms). */
  readonly killTimeoutMs?: number | undefined;
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
 * waits `closeTimeoutMs`, then ends the server's whole process tree: SIGINT, SIGTERM after
 * `interruptTimeoutMs`, SIGKILL after `killTimeoutMs` (500 ms in all by default), each sent to
 * every member still running. On Linux the tree is read from /proc before stdin is ended and
 * again at every step, so descendants that left the group (`detached`, setsid) are ended too,
 * as are those that carry the {@link TREE_MARKER_VARIABLE} the server's environment gets;
 * elsewhere the signals go to the process group. The same happens when the server exits by
 * itself, and the transport then closes with a `closeReason` naming the exit status and stderr
 * tail. Pids that needed SIGKILL are kept in `forceKilledPids` and reported to `onerror` as
 * SdkError('PROCESS_KILLED', data `{ pids }`).
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
  /** The child's stdin and stdout: `pipe` in telemetry's terms. */
  readonly networkTransport = 'pipe';
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
  private invalidLine: string | undefined;
  /** The server and its descendants, as signals reach them. */
  private tree: Terminable | undefined;
  private readonly marker = randomUUID();
  private forced: readonly number[] = [];

  constructor(options: StdioClientTransportOptions) {
    this.options = options;
    this.stderrTail = new TextTail(options.stderrCapacity ?? DEFAULT_STDERR_CAPACITY);
    this.decoder = new LineDecoder(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, {
      online: (line) => {
        const value = decodeMessage(line);
        if (value instanceof ParseFailure) this.invalidLine ??= line.slice(0, INVALID_OUTPUT_QUOTE);
        this.onmessage?.(value);
      },
      onoversized: (limit, head) => this.onmessage?.(oversizedLine(limit, head)),
      oninvalidtext: () => this.onmessage?.(new ParseFailure('invalid-json', 'the line is not valid UTF-8 text')),
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

  /**
   * The start of the first stdout line that was not JSON (typically a server logging to
   * stdout instead of stderr), for error messages.
   */
  get invalidOutput(): string | undefined {
    return this.invalidLine;
  }

  /**
   * Pids that were still running after SIGTERM and needed SIGKILL when the server's tree was
   * last ended, ascending (the group leader's pid where /proc cannot be read); empty otherwise.
   */
  get forceKilledPids(): readonly number[] {
    return this.forced;
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
      env: { ...defaultEnvironment(), ...env, [TREE_MARKER_VARIABLE]: this.marker },
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
    this.tree = this.observe(child);
    this.wire(child);
  }

  /**
   * Writes one line to the server's stdin, joined with the other lines of this turn into one
   * write, waiting for 'drain' when its pipe is full.
   */
  send(message: JSONRPCMessage | JSONRPCMessage[], _options?: TransportSendOptions): Promise<void> {
    const child = this.child;
    if (child === undefined || this.shutdown !== undefined || this.exit !== undefined) {
      return Promise.reject(new SdkError('NOT_CONNECTED', 'StdioClientTransport is not running'));
    }
    return this.writer!.write(encodeMessage(message));
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
      // Read the tree before and while the server exits: its exit hands its children to init.
      this.tree?.running(true);
      // What was sent this turn reaches the server before its input ends.
      this.writer?.flush();
      child.stdin.end();
      const timeoutMs = this.options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
      const serverRuns = (): boolean => {
        this.tree?.running(false);
        return this.exit === undefined;
      };
      await waitUntilFalse(serverRuns, timeoutMs, TREE_POLL_MS);
    }
    // Even after the server exited, what it spawned may still run.
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
    if (this.tree === undefined) {
      if (this.exit === undefined) {
        child.kill();
      }
      return;
    }
    this.forced = await terminate(this.tree, {
      interruptMs: this.options.interruptTimeoutMs ?? DEFAULT_INTERRUPT_TIMEOUT_MS,
      terminateMs: this.options.killTimeoutMs ?? DEFAULT_KILL_TIMEOUT_MS,
    });
    if (this.forced.length > 0) {
      const pids = this.forced.join(', ');
      this.onerror?.(new SdkError('PROCESS_KILLED', `Server process ${this.options.command}: pids ${pids} ignored SIGINT and SIGTERM and needed SIGKILL`, {
        data: { pids: this.forced },
      }));
    }
  }

  /** How the server's processes are found and signalled: none on Windows (child.kill only). */
  private observe(child: ChildProcessWithoutNullStreams): Terminable | undefined {
    if (child.pid === undefined || process.platform === 'win32') {
      return undefined;
    }
    return hasProcTable() ? new ProcessTree(child.pid, { name: TREE_MARKER_VARIABLE, value: this.marker }) : processGroup(child.pid);
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

