/**
 * The connection manager: every configured server at once, connected concurrently within
 * limits, each with its own status, caches and failure handling, behind one tool namespace
 * (`mcp__<server>__<tool>`) that a host can hand to a model.
 */
import type * as Stateful from '../../../generated/protocol/stateful.js';
import type { Client } from '../../peers/client.js';
import type { ClientResult } from '../../peers/client-types.js';
import { SdkError } from '../../core/errors.js';
import type { RequestOptions } from '../../core/request-context.js';
import { withOAuth } from '../auth/fetch.js';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_LOCAL_CONCURRENCY, DEFAULT_REMOTE_CONCURRENCY, type ConnectionManagerOptions } from './manager-options.js';
import type { ConfigDiagnostic, RemoteServerConfig, ServerConfig } from './config.js';
import { loadConfig, type LoadConfigOptions, type LoadedConfig, type ResolvedServer } from './config-loader.js';
import { Limiter } from './limiter.js';
import { ResultSizer } from './result-sizing.js';
import type { ApprovalRequest } from './trust.js';
import { NodeOAuth, type LoginOptions, type LoginResult } from './oauth.js';
import { ServerConnection, type ServerStatus } from './server-connection.js';
import { ToolNameMap, type ToolRef } from './tool-names.js';
import { withUrlElicitation } from './url-elicitation.js';
import { installElicitationHandler, withElicitationCapabilities } from './elicitation-handlers.js';
import { TasksClient } from '../tasks/client.js';
import { Method } from '../../../generated/methods.js';

export {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_LOCAL_CONCURRENCY,
  DEFAULT_REMOTE_CONCURRENCY,
  type ConnectionManagerOptions,
} from './manager-options.js';

/** A tool of some server, under the name shown to a model. */
export interface HostTool {
  /** `mcp__<server>__<tool>` (see {@link ToolNameMap}). */
  readonly name: string;
  readonly server: string;
  readonly tool: Stateful.Tool;
}

/** A tool addressed by its exposed name or by server and tool name. */
export type ToolAddress = string | ToolRef;

/**
 * Connects to many MCP servers at once and routes requests to them.
 *
 * - `connectAll()` connects every enabled server concurrently (stdio 3 at a time, remote 20 at
 *   a time by default) and never rejects: each server ends up `connected`, `failed` (with a
 *   reason), `needs-auth` (HTTP 401) and so on, and one failure never affects the others.
 * - Tools, resources and prompts are cached per server, dropped on `list_changed` and on
 *   disconnect. Lost remote servers reconnect with backoff; Streamable HTTP sessions that
 *   expire are re-initialized by the transport.
 * - Every request has a timeout (per call, per server, or the manager's default) that removes
 *   its timer and listeners once it settles.
 *
 * @example
 * ```ts
 * import { ConnectionManager } from 'mcpgen/host';
 *
 * const { manager, config } = ConnectionManager.fromConfig({ cwd: process.cwd() });
 * for (const problem of config.diagnostics) console.warn(`${problem.file ?? '(code)'} ${problem.path}: ${problem.message}`);
 * await manager.connectAll();
 * for (const tool of await manager.tools()) console.log(tool.name, tool.tool.description);
 * const result = await manager.callTool('mcp__everything__echo', { message: 'hi' });
 * await manager.close();
 * ```
 */
export class ConnectionManager {
  private readonly connections = new Map<string, ServerConnection>();
  private readonly rejected = new Map<string, ConfigDiagnostic>();
  private readonly pending = new Map<string, ApprovalRequest>();
  private readonly options: ConnectionManagerOptions;
  private readonly local: Limiter;
  private readonly remote: Limiter;
  private names: ToolNameMap | undefined;
  /** Follows tool calls that the server runs as tasks (both eras) to their final result. */
  private readonly tasks = new TasksClient();
  private nodeOAuth: NodeOAuth | undefined;
  private readonly sizer: ResultSizer | undefined;
  /** The entries as configured, before OAuth was wrapped around their fetch. */
  private readonly entries = new Map<string, ServerConfig>();

  /** Creates a manager for `servers` (resolved from configuration, or given by name). */
  constructor(servers: Iterable<ResolvedServer> | Readonly<Record<string, ServerConfig>>, options: ConnectionManagerOptions = {}) {
    this.options = options;
    this.local = new Limiter(options.localConcurrency ?? DEFAULT_LOCAL_CONCURRENCY);
    this.remote = new Limiter(options.remoteConcurrency ?? DEFAULT_REMOTE_CONCURRENCY);
    this.sizer = options.resultSizing === false ? undefined : new ResultSizer(options.resultSizing, options.env ?? process.env);
    const entries: [string, ServerConfig][] = isIterable(servers)
      ? [...servers].map((server) => [server.name, server.config])
      : Object.entries(servers);
    const capabilities = withElicitationCapabilities(options.capabilities, { url: options.onUrlElicitation, form: options.onFormElicitation });
    for (const [name, entry] of entries) {
      this.entries.set(name, entry);
      const config = entry.type === 'stdio' || entry.type === 'ws' ? entry : this.withOAuth(name, entry);
      this.connections.set(name, new ServerConnection(name, config, {
        clientInfo: options.clientInfo ?? { name: 'mcpgen-host', version: '0.1.0' },
        capabilities,
        connectTimeoutMs: options.connectTimeoutMs ?? timeoutFromEnv(options.env ?? process.env) ?? DEFAULT_CONNECT_TIMEOUT_MS,
        callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
        stderrCapacity: options.stderrCapacity,
        reconnect: options.reconnect,
        configureClient: (client, server) => this.configure(client, server),
        extensions: [this.tasks],
        onstatus: (status) => {
          this.names = undefined;
          options.onstatus?.(name, status);
        },
        onlistchanged: (kind) => {
          if (kind === 'tools') this.names = undefined;
          options.onlistchanged?.(name, kind);
        },
        onstderr: options.onstderr === undefined ? undefined : (chunk) => options.onstderr!(name, chunk),
        closeTimeoutMs: options.closeTimeoutMs,
        killTimeoutMs: options.killTimeoutMs,
      }));
    }
    for (const [name, problem] of options.rejected ?? []) if (!this.connections.has(name)) this.rejected.set(name, problem);
    for (const request of options.pending ?? []) {
      if (!this.connections.has(request.name) && !this.rejected.has(request.name)) this.pending.set(request.name, request);
    }
  }

  /**
   * Loads the configuration (see {@link loadConfig}) and creates a manager for it; entries
   * that were malformed are listed as failed servers, and project or local entries nobody
   * approved yet as `needs-approval` (`config.pending` has them, to ask the user about).
   */
  static fromConfig(load: LoadConfigOptions = {}, options: ConnectionManagerOptions = {}): { manager: ConnectionManager; config: LoadedConfig } {
    const config = loadConfig({ ...load, env: load.env ?? options.env });
    const manager = new ConnectionManager(config.servers, { env: load.env, ...options, rejected: config.rejected, pending: config.pending });
    return { manager, config };
  }

  /** Every server name (malformed and unapproved entries included), sorted. */
  get serverNames(): string[] {
    return [...new Set([...this.connections.keys(), ...this.rejected.keys(), ...this.pending.keys()])].sort();
  }

  /**
   * The status of one server; malformed entries are `failed` with the configuration error,
   * unapproved ones `needs-approval`.
   */
  status(server: string): ServerStatus {
    const problem = this.rejected.get(server);
    if (problem !== undefined) return { state: 'failed', reason: `invalid configuration at ${problem.path}${problem.file === undefined ? '' : ` in ${problem.file}`}: ${problem.message}` };
    const request = this.pending.get(server);
    if (request !== undefined) return { state: 'needs-approval', reason: unapprovedReason(request) };
    return this.connection(server).status;
  }

  /** Every server's status. */
  statuses(): Record<string, ServerStatus> {
    return Object.fromEntries(this.serverNames.map((name) => [name, this.status(name)]));
  }

  /** The server's connection object (status, stderr, client). */
  connection(server: string): ServerConnection {
    const connection = this.connections.get(server);
    if (connection === undefined) {
      const problem = this.rejected.get(server);
      const request = this.pending.get(server);
      if (request !== undefined) throw new SdkError('NOT_CONNECTED', `${server}: ${unapprovedReason(request)}`);
      throw new SdkError('NOT_CONNECTED', problem === undefined ? `no server named ${server} is configured` : `${server} has an invalid configuration: ${problem.message}`);
    }
    return connection;
  }

  /** Connects one server (waiting for a connect in progress); resolves with its status. */
  connect(server: string): Promise<ServerStatus> {
    const connection = this.connection(server);
    return connection.connect(connection.local ? (task) => this.local.run(task) : (task) => this.remote.run(task));
  }

  /** Connects every enabled server (or those named) concurrently; resolves with all statuses. */
  async connectAll(servers?: readonly string[]): Promise<Record<string, ServerStatus>> {
    const names = servers ?? [...this.connections.keys()];
    await Promise.all(names.filter((name) => this.connections.get(name)?.status.state !== 'disabled').map((name) => this.connect(name)));
    return this.statuses();
  }

  /** The tools of every connected server (or of one), under their exposed names. */
  async tools(server?: string, options?: RequestOptions): Promise<HostTool[]> {
    const lists = await this.listEach(server, (connection) => connection.tools(options));
    const names = new ToolNameMap(lists.flatMap(([name, tools]) => tools.map((tool) => ({ server: name, tool: tool.name }))));
    if (server === undefined) this.names = names;
    return lists.flatMap(([name, tools]) => tools.map((tool) => ({ name: names.nameOf({ server: name, tool: tool.name })!, server: name, tool })));
  }

  /** The server and tool behind an exposed name, from the last full {@link tools} listing. */
  async resolveTool(name: string): Promise<ToolRef | undefined> {
    if (this.names === undefined) await this.tools();
    return this.names?.resolve(name);
  }

  /**
   * Calls a tool by exposed name or by `{ server, tool }`. A tool the server runs as a task
   * (one whose `execution.taskSupport` asks for it) is polled to its final result. A -32042
   * refusal goes through `onUrlElicitation` and is retried up to 3 times (see {@link withUrlElicitation}).
   * The result is sized for a model by the `resultSizing` option.
   */
  async callTool(address: ToolAddress, args?: Record<string, unknown>, options?: RequestOptions): Promise<ClientResult<typeof Method.ToolsCall>> {
    const ref = typeof address === 'string' ? await this.resolveTool(address) : address;
    if (ref === undefined) throw new SdkError('NOT_CONNECTED', `no connected server offers a tool named ${String(address)}`);
    const connection = this.connection(ref.server);
    const params: Stateful.CallToolRequestParams = args === undefined ? { name: ref.tool } : { name: ref.tool, arguments: args };
    const result = await withUrlElicitation(
      () => connection.request((client, callOptions) => this.tasks.callTool(client, params, callOptions), options),
      { server: ref.server, method: Method.ToolsCall, target: ref.tool, signal: options?.signal },
      this.options.onUrlElicitation,
    );
    return this.sizer === undefined ? result : (await this.sizer.size(result as Stateful.CallToolResult, ref)) as typeof result;
  }

  /** The resources of every connected server (or of one). */
  async resources(server?: string, options?: RequestOptions): Promise<{ server: string; resource: Stateful.Resource }[]> {
    const lists = await this.listEach(server, (connection) => connection.resources(options));
    return lists.flatMap(([name, resources]) => resources.map((resource) => ({ server: name, resource })));
  }

  /** The resource templates of every connected server (or of one). */
  async resourceTemplates(server?: string, options?: RequestOptions): Promise<{ server: string; template: Stateful.ResourceTemplate }[]> {
    const lists = await this.listEach(server, (connection) => connection.resourceTemplates(options));
    return lists.flatMap(([name, templates]) => templates.map((template) => ({ server: name, template })));
  }

  /** Reads a resource of `server`. */
  readResource(server: string, uri: string, options?: RequestOptions): Promise<Stateful.ReadResourceResult> {
    const connection = this.connection(server);
    return withUrlElicitation(
      () => connection.request((client, callOptions) => client.readResource({ uri }, callOptions), options),
      { server, method: Method.ResourcesRead, target: uri, signal: options?.signal },
      this.options.onUrlElicitation,
    );
  }

  /** The prompts of every connected server (or of one). */
  async prompts(server?: string, options?: RequestOptions): Promise<{ server: string; prompt: Stateful.Prompt }[]> {
    const lists = await this.listEach(server, (connection) => connection.prompts(options));
    return lists.flatMap(([name, prompts]) => prompts.map((prompt) => ({ server: name, prompt })));
  }

  /** Gets a prompt of `server`. */
  getPrompt(server: string, name: string, args?: Record<string, string>, options?: RequestOptions): Promise<Stateful.GetPromptResult> {
    const connection = this.connection(server);
    const params: Stateful.GetPromptRequestParams = args === undefined ? { name } : { name, arguments: args };
    return withUrlElicitation(
      () => connection.request((client, callOptions) => client.getPrompt(params, callOptions), options),
      { server, method: Method.PromptsGet, target: name, signal: options?.signal },
      this.options.onUrlElicitation,
    );
  }

  /** Asks `server` for completions of a prompt's or resource template's argument (`completion/complete`). */
  complete(server: string, params: Stateful.CompleteRequestParams, options?: RequestOptions): Promise<Stateful.CompleteResult> {
    const connection = this.connection(server);
    return connection.request((client, callOptions) => client.request(Method.CompletionComplete, params, callOptions) as Promise<Stateful.CompleteResult>, options);
  }

  /**
   * Authorizes a remote server interactively (see {@link NodeOAuth.login}: the browser, a
   * loopback redirect, tokens stored for later connects). Needs the default OAuth or a
   * {@link NodeOAuth} as the `oauth` option. A server left `needs-auth` connects on the next
   * {@link connect}.
   */
  login(server: string, options?: LoginOptions): Promise<LoginResult> {
    const entry = this.remoteEntry(server);
    return this.oauthHelper('login').login(server, entry, options);
  }

  /** Forgets the stored tokens of a remote server; resolves whether there were any. */
  logout(server: string): Promise<boolean> {
    return this.oauthHelper('logout').logout(this.remoteEntry(server));
  }

  /** Closes every server (stdio servers' process groups are ended); the manager is done. */
  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  /**
   * Lists for one server (failing if it cannot answer) or for every connected server (skipping
   * the others, so that one broken server does not hide the rest).
   */
  private async listEach<T>(server: string | undefined, list: (connection: ServerConnection) => Promise<T[]>): Promise<[string, T[]][]> {
    if (server !== undefined) return [[server, await list(this.connection(server))]];
    const connected = [...this.connections.values()].filter((connection) => connection.status.state === 'connected');
    const settled = await Promise.allSettled(connected.map(async (connection) => [connection.name, await list(connection)] as [string, T[]]));
    return settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  }

  /** `entry` with its OAuth provider (if any) wrapped around its fetch. */
  private withOAuth(name: string, entry: RemoteServerConfig): RemoteServerConfig {
    const option = this.options.oauth;
    if (option === false) return entry;
    let provider = option === undefined ? undefined : (option instanceof NodeOAuth ? option.factory : option)(name, entry);
    if (provider === undefined && entry.oauth !== undefined && entry.auth === undefined) {
      provider = this.oauthHelper().providerFor(name, entry);
    }
    if (provider === undefined) return entry;
    const base = entry.auth?.fetch ?? ((url, init) => globalThis.fetch(url, init));
    return { ...entry, auth: { ...entry.auth, fetch: withOAuth(base, provider, { serverUrl: entry.url }) } };
  }

  /** The {@link NodeOAuth} behind the `oauth` option, or the default one (created on first use). */
  private oauthHelper(purpose?: string): NodeOAuth {
    const option = this.options.oauth;
    if (option instanceof NodeOAuth) return option;
    if (purpose !== undefined && option !== undefined) {
      throw new SdkError('INVALID_ARGUMENT', `${purpose} needs the manager's default OAuth or a NodeOAuth as its oauth option`);
    }
    this.nodeOAuth ??= new NodeOAuth({ env: this.options.env });
    return this.nodeOAuth;
  }

  private remoteEntry(server: string): RemoteServerConfig {
    this.connection(server);
    const config = this.entries.get(server)!;
    if (config.type === 'stdio') throw new SdkError('INVALID_ARGUMENT', `${server} is a stdio server; only remote servers use OAuth`);
    if (config.type === 'ws') throw new SdkError('INVALID_ARGUMENT', `${server} is a ws server; those are authorized with headers, not OAuth`);
    return config;
  }

  private configure(client: Client, server: string): void {
    installElicitationHandler(client, server, { url: this.options.onUrlElicitation, form: this.options.onFormElicitation });
    this.options.configureClient?.(client, server);
  }
}

function unapprovedReason(request: ApprovalRequest): string {
  return `the ${request.scope} entry in ${request.file} is not approved yet`;
}

function isIterable(value: unknown): value is Iterable<ResolvedServer> {
  return typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}

/** `MCP_TIMEOUT` in milliseconds, when set to a positive number. */
function timeoutFromEnv(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const value = Number(env.MCP_TIMEOUT);
  return env.MCP_TIMEOUT !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}
