/**
 * One configured server as the host sees it: its status, its client and transport, its cached
 * lists, and the rules for losing it (a stdio server that exits has failed; a remote one is
 * reconnected with backoff).
 */
import type * as Stateful from '../../../generated/protocol/stateful.js';
import { Client } from '../../peers/client.js';
import { ListCache, type CachedListKind } from '../../peers/client-helpers/list-cache.js';
import type { Extension } from '../../peers/extension.js';
import { SdkError, asError, messageOf } from '../../core/errors.js';
import { findHttpTransportError } from '../../transports/http/client-errors.js';
import type { RequestOptions } from '../../core/request-context.js';
import type { Transport } from '../../core/transport.js';
import { StdioClientTransport } from '../../transports/node/stdio-client.js';
import type { ServerConfig } from './config.js';
import { createTransport, transportKind, type HostTransportKind } from './transports.js';
import { withDeadline } from './deadline.js';
import { authorizationFailureOf, describeFailure } from './connection-failures.js';
import { Method } from '../../../generated/methods.js';

/** Where a server stands. */
export type ServerState = 'pending' | 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'needs-auth' | 'needs-approval' | 'disabled' | 'closed';

/**
 * A server's status; `reason` explains `failed`, `needs-auth` and `needs-approval` (a project
 * entry the user has not approved; the manager never starts it).
 */
export interface ServerStatus {
  readonly state: ServerState;
  readonly reason?: string | undefined;
  readonly error?: Error | undefined;
  readonly transport?: HostTransportKind | undefined;
  readonly protocolVersion?: string | undefined;
  readonly serverInfo?: Stateful.Implementation | undefined;
  /** How long the last successful connect took, in milliseconds. */
  readonly connectMs?: number | undefined;
  /** While reconnecting: the attempt about to be made (1-based). */
  readonly attempt?: number | undefined;
}

/** How a lost remote server is reconnected. */
export interface ReconnectSettings {
  /** Delay before the first attempt (default 500 ms); doubles after each failure. */
  readonly initialDelayMs?: number | undefined;
  /** Longest delay (default 30 s). */
  readonly maxDelayMs?: number | undefined;
  /** Attempts before the server counts as failed (default 5). */
  readonly maxAttempts?: number | undefined;
}

/** Settings of one {@link ServerConnection}, filled in by the manager. */
export interface ServerConnectionOptions {
  readonly clientInfo: Stateful.Implementation;
  readonly capabilities?: Stateful.ClientCapabilities | undefined;
  readonly connectTimeoutMs: number;
  readonly callTimeoutMs: number;
  readonly stderrCapacity?: number | undefined;
  /** `false` never reconnects. */
  readonly reconnect?: ReconnectSettings | false | undefined;
  /** Installs the host's handlers (sampling, roots, elicitation) on each new client. */
  readonly configureClient?: ((client: Client, server: string) => void) | undefined;
  /** Extensions each new client declares (the manager's tasks client). */
  readonly extensions?: readonly Extension[] | undefined;
  readonly onstatus?: ((status: ServerStatus) => void) | undefined;
  readonly onlistchanged?: ((kind: CachedListKind) => void) | undefined;
  readonly onstderr?: ((chunk: string) => void) | undefined;
  readonly closeTimeoutMs?: number | undefined;
  readonly killTimeoutMs?: number | undefined;
}

/** A server of the manager; see the module comment. */
export class ServerConnection {
  readonly name: string;
  readonly config: ServerConfig;
  private readonly options: ServerConnectionOptions;
  private statusValue: ServerStatus;
  private client: Client | undefined;
  private lists: ListCache | undefined;
  private transport: Transport | undefined;
  private stdio: StdioClientTransport | undefined;
  private connecting: Promise<ServerStatus> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private closed = false;
  /** Shutdowns of abandoned clients still in progress. */
  private readonly closing = new Set<Promise<void>>();

  constructor(name: string, config: ServerConfig, options: ServerConnectionOptions) {
    this.name = name;
    this.config = config;
    this.options = options;
    this.statusValue = config.disabled === true ? { state: 'disabled' } : { state: 'pending' };
  }

  get status(): ServerStatus {
    return this.statusValue;
  }

  /** True for servers started as child processes. */
  get local(): boolean {
    return this.config.type === 'stdio';
  }

  /** The kept tail of a stdio server's stderr (capped), or '' for remote servers. */
  get stderr(): string {
    return this.stdio?.stderr ?? '';
  }

  /** The connected client, if any (for requests the manager has no shortcut for). */
  get currentClient(): Client | undefined {
    return this.statusValue.state === 'connected' ? this.client : undefined;
  }

  /**
   * Connects unless connected or connecting, and resolves with the resulting status; never
   * rejects (failures are in the status). `limit` wraps the attempt, for concurrency limits.
   */
  connect(limit: <T>(task: () => Promise<T>) => Promise<T> = (task) => task()): Promise<ServerStatus> {
    if (this.closed || this.statusValue.state === 'connected') return Promise.resolve(this.statusValue);
    this.connecting ??= limit(() => this.attempt()).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Forgets the cached lists (they are fetched again on the next read). */
  invalidate(kind?: CachedListKind): void {
    this.lists?.invalidate(kind);
  }

  tools(options?: RequestOptions): Promise<Stateful.Tool[]> {
    return this.withLists((lists) => lists.tools(), options);
  }

  resources(options?: RequestOptions): Promise<Stateful.Resource[]> {
    return this.withLists((lists) => lists.resources(), options);
  }

  resourceTemplates(options?: RequestOptions): Promise<Stateful.ResourceTemplate[]> {
    return this.withLists((lists) => lists.resourceTemplates(), options);
  }

  prompts(options?: RequestOptions): Promise<Stateful.Prompt[]> {
    return this.withLists((lists) => lists.prompts(), options);
  }

  /**
   * Runs `send` with the connected client. The whole call, including a wait for a connect in
   * progress, is bounded by `options.timeout` (default the server's call timeout), and every
   * timer and listener it installs is gone once it settles.
   */
  async request<R>(send: (client: Client, options: RequestOptions) => Promise<R>, options: RequestOptions = {}): Promise<R> {
    const timeoutMs = options.timeout ?? this.config.callTimeoutMs ?? this.options.callTimeoutMs;
    const started = Date.now();
    const client = await withDeadline(this.ready(), timeoutMs, options.signal, () => new SdkError('REQUEST_TIMEOUT', `${this.name} did not become ready within ${timeoutMs} ms`));
    const remaining = Math.max(1, timeoutMs - (Date.now() - started));
    try {
      return await send(client, { ...options, timeout: options.resetTimeoutOnProgress === true ? timeoutMs : remaining });
    } catch (error) {
      this.inspectFailure(client, error);
      throw error;
    }
  }

  /** Closes the client (ending a stdio server's process group) and stops reconnecting. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.drop();
    this.setStatus({ state: 'closed' });
    await this.connecting?.catch(() => undefined);
    if (client !== undefined) this.settle(client.close());
    await Promise.all(this.closing);
  }

  /** Tracks the shutdown of a client this connection no longer uses, so close() can wait for it. */
  private settle(closing: Promise<void>): void {
    const tracked = closing.catch(() => undefined).finally(() => this.closing.delete(tracked));
    this.closing.add(tracked);
  }

  private async withLists<R>(read: (lists: ListCache) => Promise<R>, options?: RequestOptions): Promise<R> {
    return this.request(async () => read(this.lists!), options);
  }

  /** The client once connected; starts a connect when pending, waits for one in progress. */
  private async ready(): Promise<Client> {
    if (this.statusValue.state === 'pending') await this.connect();
    else if (this.connecting !== undefined) await this.connecting;
    const status = this.statusValue;
    if (status.state === 'connected' && this.client !== undefined && this.lists !== undefined) return this.client;
    if (status.state === 'reconnecting') {
      throw new SdkError('NOT_CONNECTED', `${this.name} is reconnecting (attempt ${status.attempt ?? 1}): ${status.reason ?? 'connection lost'}`);
    }
    const why = status.reason === undefined ? status.state : `${status.state}: ${status.reason}`;
    throw new SdkError('NOT_CONNECTED', `${this.name} is not connected (${why})`, { cause: status.error });
  }

  private async attempt(): Promise<ServerStatus> {
    const reconnecting = this.statusValue.state === 'reconnecting';
    this.setStatus(reconnecting ? this.statusValue : { state: 'connecting' });
    const started = performance.now();
    const timeoutMs = this.config.connectTimeoutMs ?? this.options.connectTimeoutMs;
    const client = new Client(this.options.clientInfo, {
      capabilities: this.options.capabilities,
      defaultTimeoutMs: this.config.callTimeoutMs ?? this.options.callTimeoutMs,
      extensions: this.options.extensions ?? [],
    });
    this.options.configureClient?.(client, this.name);
    const transport = createTransport(this.config, {
      stderrCapacity: this.options.stderrCapacity,
      onstderr: this.options.onstderr,
      closeTimeoutMs: this.options.closeTimeoutMs,
      killTimeoutMs: this.options.killTimeoutMs,
      onsessionrenewed: () => this.lists?.invalidate(),
    });
    if (transport instanceof StdioClientTransport) this.stdio = transport;
    try {
      const timeout = () => new SdkError('REQUEST_TIMEOUT', `connecting to ${this.name} timed out after ${timeoutMs} ms`);
      await withDeadline(client.connect(transport, { timeout: timeoutMs }), timeoutMs, undefined, timeout);
    } catch (error) {
      // The status is reported at once; a child that ignores stdin EOF may take seconds to end,
      // and close() waits for that.
      const status = this.afterFailure(error, transport, reconnecting);
      this.settle(client.close());
      return status;
    }
    if (this.closed) {
      this.settle(client.close());
      return this.statusValue;
    }
    this.attempts = 0;
    this.client = client;
    this.transport = transport;
    this.lists = new ListCache(client, { onchange: (kind) => this.options.onlistchanged?.(kind) });
    const onclose = (): void => this.lost(client, undefined);
    client.onclose = onclose;
    // The listen request may be the first to reach a stateless-era server the process already
    // knew (connect then sends nothing), so its failure can be the first sign of a 401.
    listenForChanges(client, (error) => this.inspectFailure(client, error));
    this.setStatus({
      state: 'connected',
      transport: transportKind(transport),
      protocolVersion: client.protocolVersion,
      serverInfo: client.serverInfo,
      connectMs: Math.round(performance.now() - started),
    });
    return this.statusValue;
  }

  private afterFailure(error: unknown, transport: Transport, reconnecting: boolean): ServerStatus {
    if (this.closed) return this.statusValue;
    const failure = asError(error);
    const reason = describeFailure(failure, transport);
    const authorization = authorizationFailureOf(failure);
    if (authorization !== undefined) {
      this.setStatus({ state: 'needs-auth', reason: authorization.message, error: authorization });
    } else if (findHttpTransportError(failure)?.status === 401) {
      this.setStatus({ state: 'needs-auth', reason, error: failure });
    } else if (reconnecting) {
      this.scheduleReconnect(reason, failure);
    } else {
      this.setStatus({ state: 'failed', reason, error: failure });
    }
    return this.statusValue;
  }

  /** Looks at a failed request for signs that the connection itself is gone or unauthorised. */
  private inspectFailure(client: Client, error: unknown): void {
    if (this.local || client !== this.client) return;
    const authorization = authorizationFailureOf(error);
    const http = findHttpTransportError(error);
    if (authorization !== undefined) {
      // The OAuth layer could not get a token without the user (or was refused): not a lost connection.
      this.drop();
      this.settle(client.close());
      this.setStatus({ state: 'needs-auth', reason: authorization.message, error: authorization });
    } else if (http?.status === 401) {
      this.drop();
      this.settle(client.close());
      this.setStatus({ state: 'needs-auth', reason: http.message, error: http });
    } else if (http !== undefined && http.status === undefined && !(error instanceof SdkError && error.code === 'REQUEST_TIMEOUT')) {
      // No response at all (refused, reset): the server is gone, not just this request.
      this.lost(client, http);
    }
  }

  /** The connection of `client` ended without `close()`. */
  private lost(client: Client, cause: Error | undefined): void {
    if (this.closed || client !== this.client) return;
    const transport = this.transport;
    this.drop();
    this.settle(client.close());
    const error = cause ?? transport?.closeReason ?? new SdkError('CONNECTION_CLOSED', 'the connection closed');
    const reason = transport === undefined ? messageOf(error) : describeFailure(error, transport);
    if (this.local || this.options.reconnect === false) this.setStatus({ state: 'failed', reason, error });
    else this.scheduleReconnect(reason, error);
  }

  private scheduleReconnect(reason: string, error: Error): void {
    const settings = this.options.reconnect === false ? undefined : this.options.reconnect;
    const maxAttempts = settings?.maxAttempts ?? 5;
    this.attempts += 1;
    if (this.attempts > maxAttempts) {
      this.setStatus({ state: 'failed', reason: `${reason} (gave up after ${maxAttempts} reconnection attempts)`, error });
      return;
    }
    const delay = Math.min((settings?.initialDelayMs ?? 500) * 2 ** (this.attempts - 1), settings?.maxDelayMs ?? 30_000);
    this.setStatus({ state: 'reconnecting', reason, error, attempt: this.attempts });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delay);
    this.reconnectTimer.unref?.();
  }

  /** Forgets the client and its caches. */
  private drop(): void {
    this.lists?.dispose();
    this.lists = undefined;
    this.client = undefined;
    this.transport = undefined;
  }

  private setStatus(status: ServerStatus): void {
    this.statusValue = status;
    this.options.onstatus?.(status);
  }
}

/**
 * In the stateless era (2026-07-28 on) list_changed notifications arrive only on an open
 * `subscriptions/listen` request; this opens one for the lists the server can announce
 * changes of, so the cache is dropped as it is in the stateful era. The request stays open
 * for the life of the connection and ends with it.
 */
function listenForChanges(client: Client, onfailure: (error: unknown) => void): void {
  if (!client.supports(Method.SubscriptionsListen)) return;
  const capabilities = client.serverCapabilities;
  const notifications = {
    toolsListChanged: capabilities?.tools?.listChanged === true,
    promptsListChanged: capabilities?.prompts?.listChanged === true,
    resourcesListChanged: capabilities?.resources?.listChanged === true,
  };
  if (!Object.values(notifications).some(Boolean)) return;
  // The method belongs to the stateless era's table, not the stateful one Client's typing follows.
  const request = client.request as (method: string, params: unknown, options: RequestOptions) => Promise<unknown>;
  request.call(client, Method.SubscriptionsListen, { notifications }, { timeout: Number.POSITIVE_INFINITY }).catch(onfailure);
}
