/** The implementations every scenario compares, in their canonical order. */
export const IMPLEMENTATIONS = ['mcpgen', 'v2', 'v1', 'floor'] as const;
export type ImplName = (typeof IMPLEMENTATIONS)[number];

export function isImplName(value: string): value is ImplName {
  return (IMPLEMENTATIONS as readonly string[]).includes(value);
}

/** What the benchmark server offers: the `echo` tool plus fillers up to `toolCount` tools. */
export interface ServerSpec {
  readonly toolCount: number;
  /**
   * When set, the echo tool is I/O-bound: it awaits a timer of this many ms before it answers
   * (the load scenario's tool); otherwise it answers at once.
   */
  readonly ioDelayMs?: number | undefined;
}

/** How the load scenario connects (other scenarios connect with each SDK's defaults). */
export interface ConnectOptions {
  /**
   * Start a session with `initialize`, even where the SDK's default client would not: mcpgen's
   * default client speaks the sessionless 2026-07-28 revision, so it is pinned to 2025-11-25.
   */
  readonly session?: boolean | undefined;
}

/**
 * The revision mcpgen's client asks for: its default (2026-07-28) or pinned to 2025-11-25, the
 * revision v2 and v1 speak. Only mcpgen's client reads it: the others do the same work in both,
 * so an era's ratios compare mcpgen in that era with the same exchange of the others.
 */
export type ClientEra = 'default' | '2025-11-25';

/** A connected client, as far as the benchmark needs one. */
export interface BenchClient {
  /** One `tools/call` of the echo tool; resolves with the echoed text. */
  call(text: string): Promise<string>;
  /** Lists every tool (following pages if the SDK pages); resolves with how many there are. */
  listTools(): Promise<number>;
  close(): Promise<void>;
  /** The server's process, where the server runs in another process. */
  readonly serverPid?: number | undefined;
}

/** How to start a server process: what a stdio client transport spawns. */
export interface ChildCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** The client half of an implementation (bench/impl/<name>/client.ts). */
export interface ClientSide {
  /** A server and a client in this process, joined by the SDK's own in-memory pair. */
  inMemory(spec: ServerSpec, era?: ClientEra): Promise<BenchClient>;
  /** Spawns `server` and connects to it over stdio with the SDK's client transport. */
  connectStdio(server: ChildCommand, era?: ClientEra): Promise<BenchClient>;
}

/** The server half of an implementation (bench/impl/<name>/server.ts). */
export interface ServerSide {
  /** Serves the benchmark server on this process's stdin/stdout. */
  serveStdio(spec: ServerSpec): Promise<void>;
}

/** The transports of the tools/call scenarios. */
export type CallTransport = 'memory' | 'stdio' | 'http-stateful' | 'http-stateless';

export type HttpMode = 'stateful' | 'stateless';
export const HTTP_MODES: readonly HttpMode[] = ['stateful', 'stateless'];

/**
 * Streamable HTTP for one implementation: bench/http/<name>.ts. An implementation without
 * that file is reported as "n/a" in the HTTP scenarios; adding the file is all it takes.
 */
export interface HttpAdapter {
  /**
   * Serves the benchmark server at `http://127.0.0.1:<port>/mcp` in this process, with sessions
   * (`stateful`) or without (`stateless`); resolves with the port (bind port 0).
   */
  serve(mode: HttpMode, spec: ServerSpec): Promise<number>;
  /** Connects a client to `url` the way the SDK's documentation does. */
  connect(url: URL, mode: HttpMode, options?: ConnectOptions): Promise<BenchClient>;
}
