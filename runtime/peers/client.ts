import { Stateful, Stateless } from '../../generated/latest.js';
import { gateOf, hasCapability, describePath, type CapabilityObject } from '../core/capabilities.js';
import { Endpoint, type EndpointOptions } from './endpoint.js';
import { findTransportError, ProtocolError, SdkError } from '../core/errors.js';
import { isJsonObject } from '../core/jsonrpc.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../core/protocol.js';
import type { CapabilitiesOf, ProtocolTypesShape } from '../core/protocol-types.js';
import type { NotificationContext, NotificationHandler, Params, RequestContext, RequestHandler, RequestOptions } from '../core/request-context.js';
import { resolveRevisions } from '../core/revisions.js';
import { defaultEraCache, serverIdentity, type EraCache, type EraChoice } from '../era/client-era.js';
import { DEFAULT_MAX_INPUT_ROUNDS, runInputRounds } from '../era/client-mrtr.js';
import { ResponseCache, type ResponseCacheOptions } from '../era/client-response-cache.js';
import { clientView } from '../era/client-revision.js';
import { headerParameters } from '../era/mcp-headers.js';
import { CLIENT_CAPABILITIES_META, CLIENT_INFO_META, LOG_LEVEL_META, PROTOCOL_VERSION_META, SERVER_INFO_META } from '../era/meta.js';
import type { Transport } from '../core/transport.js';
import { checkValue, describeIssues } from '../core/validation.js';
import { acceptsInput } from '../era/input-broker.js';

type Defaults = Stateful.ProtocolTypes;
type ClientRequests = Stateful.ClientRequestMap;

/** Options of a {@link Client}. */
export interface ClientOptions<T extends ProtocolTypesShape = Defaults> extends EndpointOptions {
  /** What this client offers (sampling, roots, elicitation…); fixed for the life of the client. */
  readonly capabilities?: CapabilitiesOf<T, 'clientCapabilities', Stateful.ClientCapabilities>;
  /** Revisions this client accepts (default: every released stateful revision). */
  readonly supportedRevisions?: readonly string[];
  /**
   * The version this client prefers (default: the newest supported one, 2026-07-28). A
   * stateless-era version is tried first with `server/discover`; a stateful one is asked for
   * in `initialize` directly.
   */
  readonly protocolVersion?: string;
  /**
   * How the era is chosen. `auto` (default): when the preferred version is of the stateless era,
   * probe with `server/discover` and fall back to the `initialize` handshake when the server
   * answers like an older server (method not found, another error that is not one of the
   * stateless era's, an HTTP 4xx without such an error, or no answer in time). `pin`: speak the
   * preferred version's era only, failing instead of falling back.
   */
  readonly negotiation?: NegotiationMode;
  /**
   * Remembers each server's era so that the next connection skips the probe (default: an
   * in-memory cache shared by all Clients of the process; `false` turns caching off).
   */
  readonly eraCache?: EraCache | false;
  /** The identity the era cache files this server under (default: the transport's URL or command line). */
  readonly serverKey?: string;
  /** Most rounds of a multi round-trip request before SdkError('INPUT_ROUNDS_EXCEEDED') (default 10). */
  readonly maxInputRounds?: number;
  /**
   * Caches results the server marks with `ttlMs` (lists, resource reads) in the stateless era,
   * until they expire or a matching change notification arrives (default on; `false` turns it off).
   */
  readonly responseCache?: boolean | ResponseCacheOptions;
  /** The log level to ask for on every request in the stateless era (default: none, so no log messages). */
  readonly logLevel?: Stateless.LoggingLevel;
  /** Send `clientInfo` in every request's `_meta` in the stateless era (default true). */
  readonly sendClientInfo?: boolean;
}

/** How a {@link Client} picks the protocol era; see {@link ClientOptions.negotiation}. */
export type NegotiationMode = 'auto' | 'pin';

/** A handler for server→client request `M`. */
export type ClientRequestHandler<M extends keyof T['serverRequests'], T extends ProtocolTypesShape = Defaults> = (
  params: T['serverRequests'][M]['params'],
  context: RequestContext,
) => T['serverRequests'][M]['result'] | Promise<T['serverRequests'][M]['result']>;

/** A handler for server→client notification `M`. */
export type ClientNotificationHandler<M extends keyof T['serverNotifications'], T extends ProtocolTypesShape = Defaults> = (
  params: T['serverNotifications'][M]['params'],
  context: NotificationContext,
) => void | Promise<void>;

/** Client→server list methods whose results page with `nextCursor`. */
export type PaginatedMethod = {
  [M in keyof ClientRequests]: ClientRequests[M]['result'] extends { nextCursor?: string } ? M : never;
}[keyof ClientRequests];

/** The item type of a paginated list method (`Tool` for tools/list). */
export type PageItem<M extends PaginatedMethod> = {
  [K in keyof ClientRequests[M]['result']]-?: K extends '_meta' | 'nextCursor' ? never : NonNullable<ClientRequests[M]['result'][K]> extends ReadonlyArray<infer I> ? I : never;
}[keyof ClientRequests[M]['result']];

/** Options of {@link Client.listAll}. */
export interface ListAllOptions extends RequestOptions {
  /** Stop with SdkError('PAGE_LIMIT') after this many pages (default 100). */
  readonly maxPages?: number;
}

// Typed senders for every client→server request and client notification, generated from the method table.
export interface Client<T extends ProtocolTypesShape = Defaults> extends Stateful.ClientStubs<RequestOptions>, Stateful.ClientNotifiers<RequestOptions> {}

/**
 * A low-level MCP client for every revision. In the stateless era (2026-07-28 on) it learns the
 * server's versions and capabilities from `server/discover`, puts the version, its capabilities
 * and identity into every request's `_meta`, answers multi round-trip requests with the
 * handlers given to {@link setRequestHandler}, and caches results the server marks cacheable.
 * Older servers get the `initialize` handshake with version negotiation. Either way it checks
 * the server's capabilities before each request and validates every result before it reaches
 * the caller.
 *
 * @example
 * ```ts
 * import { Client } from 'mcpgen';
 * import { StdioClientTransport } from 'mcpgen/node';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 * await client.connect(new StdioClientTransport({ command: 'node', args: ['server.js'] }));
 * const tools = await client.listAll('tools/list');
 * const result = await client.callTool({ name: tools[0]!.name, arguments: {} });
 * await client.close();
 * ```
 */
export class Client<T extends ProtocolTypesShape = Defaults> extends Endpoint {
  private readonly info: Stateful.Implementation;
  private readonly preferred: string;
  private readonly negotiation: NegotiationMode;
  private readonly statefulVersions: readonly string[];
  private readonly statelessVersions: readonly string[];
  private readonly eraCache: EraCache | undefined;
  private readonly serverKeyOption: string | undefined;
  private readonly maxInputRounds: number;
  private readonly defaultTimeout: number;
  private readonly checkOutgoing: boolean;
  private readonly logLevel: string | undefined;
  private readonly sendClientInfo: boolean;
  private readonly cache: ResponseCache | undefined;
  /** Handlers of server→client requests, also used for embedded input requests. */
  private readonly inputHandlers = new Map<string, ClientRequestHandler<never, T>>();
  private readonly userNotificationHandlers = new Map<string, NotificationHandler>();
  /** Listen calls waiting for their acknowledgement; each takes the first one it has not seen claimed. */
  private readonly acknowledgementWaiters: Array<(params: Params | undefined) => void> = [];
  /** Input schemas of the tools the server listed, for the transport's parameter headers. */
  private readonly toolSchemas = new Map<string, unknown>();
  private serverInfoValue: Stateful.Implementation | undefined;
  private instructionsValue: string | undefined;
  private eraValue: 'stateful' | 'stateless' | undefined;
  /** The `_meta` members every stateless request carries; reset whenever the era changes. */
  private baseMeta: Readonly<Record<string, unknown>> | undefined;
  private currentKey: string | undefined;

  constructor(info: Stateful.Implementation, options: ClientOptions<T> = {}) {
    super('client', (options.capabilities ?? {}) as CapabilityObject, resolveRevisions(options.supportedRevisions, options.revisions, ['stateful', 'stateless']), options);
    const modules = this.revisionModules;
    this.statefulVersions = modules.filter((module) => module.era === 'stateful').map((module) => module.revision);
    this.statelessVersions = modules.filter((module) => module.era === 'stateless').map((module) => module.revision);
    const supported = this.supportedRevisions;
    this.info = info;
    this.preferred = options.protocolVersion ?? newest(this.statelessVersions) ?? newest(this.statefulVersions)!;
    if (!supported.includes(this.preferred)) {
      throw new RangeError(`protocolVersion ${this.preferred} is not among the supported revisions ${supported.join(', ')}`);
    }
    this.negotiation = options.negotiation ?? 'auto';
    this.eraCache = options.eraCache === false ? undefined : (options.eraCache ?? defaultEraCache);
    this.serverKeyOption = options.serverKey;
    this.maxInputRounds = options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    this.defaultTimeout = options.defaultTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.checkOutgoing = options.validateOutgoing ?? true;
    this.logLevel = options.logLevel;
    this.sendClientInfo = options.sendClientInfo ?? true;
    const cacheOptions = options.responseCache;
    this.cache = cacheOptions === false
      ? undefined
      : new ResponseCache({ ...(typeof cacheOptions === 'object' ? cacheOptions : {}), isList: (method) => this.protocol.revision?.methods[method]?.pagination != null });
    const send = (method: string, params: unknown, sendOptions?: RequestOptions) => this.sendRequest(method, params, sendOptions);
    const notify = (method: string, params: unknown) => this.sendNotification(method, params);
    Object.assign(this, Stateful.clientStubs(send), Stateful.clientNotifiers(notify));
  }

  /** The capabilities the server declared (in `initialize` or `server/discover`). */
  get serverCapabilities(): Stateful.ServerCapabilities | undefined {
    return this.peerCapabilitiesValue as Stateful.ServerCapabilities | undefined;
  }

  /** The server's name and version (from `initialize`, `server/discover` or results' `_meta`). */
  get serverInfo(): Stateful.Implementation | undefined {
    return this.serverInfoValue;
  }

  /** The server's instructions for the model, if it sent any. */
  get instructions(): string | undefined {
    return this.instructionsValue;
  }

  /** The era of the connection: `stateless` (2026-07-28 on), `stateful` (`initialize`), or undefined before connecting. */
  get era(): 'stateful' | 'stateless' | undefined {
    return this.eraValue;
  }

  /** The cache of cacheable results, when enabled (e.g. to `clear()` it when credentials change). */
  get responseCache(): ResponseCache | undefined {
    return this.cache;
  }

  /**
   * Connects and settles the era. With a stateless preferred version: `server/discover` (again
   * once with a version the server names when it refuses the first), else, unless pinned, the
   * `initialize` handshake: `initialize` with the preferred stateful version, refusal of a
   * version this client does not support (SdkError('UNSUPPORTED_VERSION'), connection closed),
   * then `notifications/initialized`. The outcome is remembered per server in the era cache.
   */
  async connect(transport: Transport, options: RequestOptions = {}): Promise<void> {
    await this.protocol.connect(transport);
    const key = this.serverKeyOption ?? serverIdentity(transport);
    this.currentKey = key;
    const preferStateless = this.statelessVersions.includes(this.preferred);
    try {
      const cached = key === undefined ? undefined : await this.eraCache?.get(key);
      if (preferStateless && cached?.era === 'stateless' && this.statelessVersions.includes(cached.protocolVersion) && this.adoptDiscover(cached.protocolVersion, cached.discover)) {
        return;
      }
      const tryStateless = preferStateless && (this.negotiation === 'pin' || cached?.era !== 'stateful');
      if (tryStateless) {
        const outcome = await this.discoverEra(options);
        if (outcome.kind === 'stateless') {
          await this.remember(key, { era: 'stateless', protocolVersion: outcome.version, discover: outcome.result });
          return;
        }
        if (this.negotiation === 'pin' || this.statefulVersions.length === 0) {
          throw new SdkError('UNSUPPORTED_VERSION', `The server does not speak the stateless era (${this.statelessVersions.join(', ')}): ${outcome.reason}`, { cause: outcome.cause });
        }
        this.leaveStateless();
      }
      await this.handshake(options);
      // Only a failed probe says something about the server; a client that asked for a
      // stateful version by itself learned nothing about what the server would do otherwise.
      if (tryStateless) await this.remember(key, { era: 'stateful' });
    } catch (error) {
      this.negotiated = undefined;
      this.eraValue = undefined;
      this.baseMeta = undefined;
      if (key !== undefined) await this.eraCache?.delete(key);
      await this.protocol.close();
      throw error;
    }
  }

  /** Sends any client→server request of the negotiated revision, checking the server's capabilities. */
  request<M extends keyof T['clientRequests'] & string>(method: M, params: T['clientRequests'][M]['params'], options?: RequestOptions): Promise<T['clientRequests'][M]['result']> {
    return this.sendRequest(method, params, options) as Promise<T['clientRequests'][M]['result']>;
  }

  /**
   * Follows `nextCursor` through every page of a list method and returns all items. Stops with
   * SdkError('PAGE_LIMIT') after `maxPages` pages, so a server that never ends cannot loop it.
   */
  async listAll<M extends PaginatedMethod & string>(method: M, params?: Omit<NonNullable<ClientRequests[M]['params']>, 'cursor'>, options: ListAllOptions = {}): Promise<PageItem<M>[]> {
    const info = this.protocol.revision?.methods[method];
    if (!info?.pagination) throw new SdkError('UNKNOWN_METHOD', `${method} is not a paginated method in protocol ${this.protocolVersion ?? '(not connected)'}`);
    const field = info.pagination.itemsField;
    const maxPages = options.maxPages ?? 100;
    const items: PageItem<M>[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const result = (await this.sendRequest(method, cursor === undefined ? params : { ...(params ?? {}), cursor }, options)) as Record<string, unknown>;
      items.push(...((result[field] as PageItem<M>[] | undefined) ?? []));
      cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
      if (cursor === undefined) return items;
    }
    throw new SdkError('PAGE_LIMIT', `${method} returned more than ${maxPages} pages`);
  }

  /**
   * Handles server→client request `method` (sampling, elicitation, roots): as a request of its
   * own in the stateful era, and as an input request embedded in an `InputRequiredResult` in
   * the stateless era. Fails with SdkError('CAPABILITY_MISSING') when the client did not
   * declare the capability it needs.
   */
  setRequestHandler<M extends keyof T['serverRequests'] & string>(method: M, handler: ClientRequestHandler<M, T>): void {
    this.registerRequestHandler(method, handler as ClientRequestHandler<M, T>);
    this.inputHandlers.set(method, handler as unknown as ClientRequestHandler<never, T>);
  }

  /** Handles server→client notification `method`. */
  setNotificationHandler<M extends keyof T['serverNotifications'] & string>(method: M, handler: ClientNotificationHandler<M, T>): void {
    this.userNotificationHandlers.set(method, handler as unknown as NotificationHandler);
    this.registerNotificationHandler(method, this.evictingHandler(method));
  }

  /**
   * In the stateless era: adds the `_meta` every request carries, answers cached results,
   * follows multi round-trip requests to their final result and keeps what results teach
   * (tool schemas, the server's identity). In the stateful era: sends as it is.
   */
  protected override async sendRequest(method: string, params: unknown, options: RequestOptions | undefined): Promise<unknown> {
    if (this.eraValue !== 'stateless') return super.sendRequest(method, params, options);
    const info = this.protocol.revision?.methods[method];
    if (info?.cacheable === true) {
      const cached = this.cache?.lookup(method, params);
      if (cached !== undefined) return cached;
    }
    const send = (sent: Params, roundOptions: RequestOptions): Promise<unknown> => super.sendRequest(method, this.withMeta(sent), roundOptions);
    let result: unknown;
    if (acceptsInput(this.protocol.revision!, method)) {
      result = await runInputRounds(method, params as Params | undefined, options ?? {}, {
        send,
        fulfil: (key, inputMethod, inputParams, signal) => this.fulfil(key, inputMethod, inputParams, signal),
      }, { maxRounds: this.maxInputRounds, timeoutMs: options?.timeout ?? this.defaultTimeout });
    } else {
      result = await send((params ?? {}) as Params, options ?? {});
    }
    return this.learn(method, params, result);
  }

  /**
   * Stateless era: opens a `subscriptions/listen` stream for the change notifications `filter`
   * opts in to. They reach the handlers set with `setNotificationHandler` (and evict the
   * response cache), as session notifications do in the stateful era. Resolves once the
   * server acknowledged, with what it agreed to send; `close()` ends the stream.
   *
   * @example
   * ```ts
   * client.setNotificationHandler('notifications/tools/list_changed', () => console.log('tools changed'));
   * const subscription = await client.listen({ toolsListChanged: true });
   * // later
   * subscription.close();
   * ```
   */
  async listen(filter: Stateless.SubscriptionFilter, options: Pick<RequestOptions, 'signal'> = {}): Promise<ListenSubscription> {
    if (this.eraValue !== 'stateless') {
      throw new SdkError('UNKNOWN_METHOD', `subscriptions/listen belongs to the stateless era; this connection speaks ${this.protocolVersion ?? '(not connected)'}`);
    }
    for (const method of LISTENED) {
      if (!this.userNotificationHandlers.has(method)) this.registerNotificationHandler(method, this.evictingHandler(method));
    }
    const controller = new AbortController();
    const signal = options.signal === undefined ? controller.signal : AbortSignal.any([controller.signal, options.signal]);
    let waiter: ((params: Params | undefined) => void) | undefined;
    const acknowledged = new Promise<Params | undefined>((resolve) => {
      waiter = resolve;
      this.acknowledgementWaiters.push(resolve);
    });
    const ended = this.sendRequest(SUBSCRIPTIONS_LISTEN, { notifications: filter }, { signal, timeout: Infinity }).then(
      () => undefined,
      (error: unknown) => {
        if (controller.signal.aborted) return undefined;
        throw error;
      },
    );
    // The caller may never look at `ended`; its failure is also reported through the first await below.
    ended.catch(() => undefined);
    let first: Params | undefined;
    try {
      first = await Promise.race([acknowledged, ended.then(() => undefined)]);
    } finally {
      const index = this.acknowledgementWaiters.indexOf(waiter!);
      if (index !== -1) this.acknowledgementWaiters.splice(index, 1);
    }
    return {
      acknowledged: (first?.notifications ?? {}) as Stateless.SubscriptionFilter,
      ended,
      close: () => controller.abort(new SdkError('REQUEST_CANCELLED', 'The subscription was closed')),
    };
  }

  /** Runs the `initialize` handshake (the stateful era). */
  private async handshake(options: RequestOptions): Promise<void> {
    const version = this.statefulVersions.includes(this.preferred) ? this.preferred : newest(this.statefulVersions)!;
    this.protocol.setRevision(this.moduleFor(version));
    const result = (await this.protocol.request(
      'initialize',
      { protocolVersion: version, capabilities: this.ownCapabilities, clientInfo: this.info },
      options,
    )) as Stateful.InitializeResult;
    if (!this.statefulVersions.includes(result.protocolVersion)) {
      throw new SdkError(
        'UNSUPPORTED_VERSION',
        `Server chose protocol version ${result.protocolVersion}; this client supports ${this.statefulVersions.join(', ')}`,
      );
    }
    this.protocol.setRevision(this.moduleFor(result.protocolVersion));
    this.negotiated = result.protocolVersion;
    this.eraValue = 'stateful';
    this.baseMeta = undefined;
    this.peerCapabilitiesValue = result.capabilities as CapabilityObject;
    this.serverInfoValue = result.serverInfo;
    this.instructionsValue = result.instructions;
    await this.protocol.notification('notifications/initialized', undefined, {});
  }

  /**
   * Probes with `server/discover`. A refusal naming supported versions is retried once with
   * the newest one this client shares; errors of the stateless era (a refused capability, a
   * header mismatch) are thrown, as they prove a stateless server that refused this client;
   * anything else means an older server.
   */
  private async discoverEra(options: RequestOptions): Promise<DiscoverOutcome> {
    let version = newest(this.statelessVersions.includes(this.preferred) ? this.statelessVersions.filter((v) => v <= this.preferred) : this.statelessVersions)!;
    for (let attempt = 0; ; attempt++) {
      this.enterStateless(version);
      let result: Stateless.DiscoverResult;
      try {
        result = (await this.protocol.request('server/discover', this.withMeta({}), options)) as Stateless.DiscoverResult;
      } catch (error) {
        const rpc = rpcErrorOf(error);
        const codes = this.moduleFor(version).errorCodes;
        if (rpc !== undefined && rpc.code === codes.UNSUPPORTED_PROTOCOL_VERSION) {
          const offered = supportedOf(rpc.data);
          const mutual = newest(this.statelessVersions.filter((candidate) => offered.includes(candidate)));
          if (mutual !== undefined && attempt === 0) {
            version = mutual;
            continue;
          }
          if (mutual === undefined && this.statefulVersions.some((candidate) => offered.includes(candidate))) {
            return { kind: 'stateful', reason: `it supports only ${offered.join(', ')}`, cause: error };
          }
          throw new SdkError('UNSUPPORTED_VERSION', `The server refused protocol version ${version} and supports ${offered.join(', ') || 'no version named'}; this client supports ${this.supportedRevisions.join(', ')}`, { cause: error });
        }
        if (rpc !== undefined && (rpc.code === codes.MISSING_REQUIRED_CLIENT_CAPABILITY || rpc.code === codes.HEADER_MISMATCH)) throw error;
        if (!looksLegacy(error, rpc)) throw error;
        const reason = rpc === undefined ? (error instanceof Error ? error.message : String(error)) : `server/discover failed with ${rpc.code} ${rpc.message}`;
        return { kind: 'stateful', reason, cause: error };
      }
      const mutual = newest(this.statelessVersions.filter((candidate) => result.supportedVersions.includes(candidate)));
      if (mutual === undefined) {
        if (this.statefulVersions.some((candidate) => result.supportedVersions.includes(candidate))) {
          return { kind: 'stateful', reason: `it supports only ${result.supportedVersions.join(', ')}`, cause: undefined };
        }
        throw new SdkError('UNSUPPORTED_VERSION', `The server supports ${result.supportedVersions.join(', ')}; this client supports ${this.supportedRevisions.join(', ')}`);
      }
      this.adoptDiscover(mutual, result);
      return { kind: 'stateless', version: mutual, result };
    }
  }

  /** Binds the stateless revision `version` to the engine, which tells the transport with every message. */
  private enterStateless(version: string): void {
    const module = this.moduleFor(version);
    this.protocol.setRevision(clientView(module));
    if (this.cache !== undefined) {
      // Change notifications evict cached results even where the application handles none.
      for (const [method, info] of Object.entries(module.methods)) {
        if (info.kind === 'notification' && info.direction !== 'client-to-server' && !this.userNotificationHandlers.has(method)) {
          this.registerNotificationHandler(method, this.evictingHandler(method));
        }
      }
    }
    this.negotiated = version;
    this.eraValue = 'stateless';
    this.baseMeta = undefined;
    this.protocol.toolInputSchema = (name) => this.toolSchemas.get(name);
  }

  private leaveStateless(): void {
    this.negotiated = undefined;
    this.eraValue = undefined;
    this.baseMeta = undefined;
  }

  /** Takes the server's capabilities and identity from a discover result; false when it is unusable. */
  private adoptDiscover(version: string, discover: unknown): boolean {
    if (!isJsonObject(discover) || !isJsonObject(discover.capabilities)) return false;
    this.enterStateless(version);
    this.peerCapabilitiesValue = discover.capabilities;
    this.instructionsValue = typeof discover.instructions === 'string' ? discover.instructions : undefined;
    const identity = this.implementationOf(discover, version) ?? this.implementationOf({ _meta: { [SERVER_INFO_META]: discover.serverInfo } }, version);
    if (identity !== undefined) this.serverInfoValue = identity;
    return true;
  }

  private async remember(key: string | undefined, choice: EraChoice): Promise<void> {
    if (key !== undefined) await this.eraCache?.set(key, choice);
  }

  /** `params` with this client's `_meta` for the stateless era merged under the caller's own `_meta` members. */
  private withMeta(params: Params): Params {
    // The era's own members are the same on every request: built once, shared by requests
    // that bring no `_meta` of their own (nothing downstream mutates it).
    const base = (this.baseMeta ??= Object.freeze({
      [PROTOCOL_VERSION_META]: this.negotiated!,
      [CLIENT_CAPABILITIES_META]: this.ownCapabilities as Stateless.ClientCapabilities,
      ...(this.sendClientInfo ? { [CLIENT_INFO_META]: this.info } : {}),
      ...(this.logLevel !== undefined ? { [LOG_LEVEL_META]: this.logLevel as Stateless.LoggingLevel } : {}),
    }));
    const own = params._meta;
    return { ...params, _meta: isJsonObject(own) ? { ...base, ...own } : base };
  }

  /**
   * Answers an input request (`elicitation/create`, `sampling/createMessage`, `roots/list`)
   * with the handler registered for it, as the questions of a multi round-trip request are
   * answered: how extensions (a task's questions) reach the same handlers.
   */
  answerInputRequest(method: string, params: unknown, signal: AbortSignal = new AbortController().signal): Promise<unknown> {
    return this.fulfil(method, method, params, signal);
  }

  /** Answers one input request of an `InputRequiredResult` with the registered handler. */
  private async fulfil(key: string, method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    const module = this.protocol.revision;
    const info = module?.methods[method];
    if (info === undefined || !info.embedded) {
      throw new SdkError('UNKNOWN_METHOD', `The server asked for input with ${method}, which is not an input request of ${module?.revision ?? 'this revision'}`);
    }
    const gate = gateOf(method, module === undefined ? [] : [module]);
    if (gate !== null && gate.holder === 'receiver' && !hasCapability(this.ownCapabilities, gate.path)) {
      throw new SdkError('CAPABILITY_MISSING', `The server asked for input with ${method}, but this client did not declare capability ${describePath(gate.path)}`);
    }
    const handler = this.inputHandlers.get(method) as unknown as RequestHandler | undefined;
    if (handler === undefined) {
      throw new SdkError('CAPABILITY_MISSING', `The server asked for input with ${method}, and no handler is registered for it (setRequestHandler)`);
    }
    const context: RequestContext = {
      method,
      requestId: key,
      signal,
      _meta: isJsonObject(params) && isJsonObject(params._meta) ? params._meta : undefined,
      extra: undefined,
      sendNotification: async () => {
        throw new SdkError('WRONG_DIRECTION', `An input request handler (${method}) cannot send notifications in the stateless era`);
      },
      sendRequest: async () => {
        throw new SdkError('WRONG_DIRECTION', `An input request handler (${method}) cannot send requests in the stateless era`);
      },
      reportProgress: async () => undefined,
      log: async () => undefined,
    };
    const result = (await handler(params as Params | undefined, context)) ?? {};
    const issues = this.checkOutgoing && info.result !== null ? checkValue(info.result, result) : null;
    if (issues !== null) {
      throw new SdkError('INVALID_RESULT', `The ${method} handler returned an invalid result: ${describeIssues(issues, 'result')}`, { data: { issues } });
    }
    return result;
  }

  /** Keeps what a stateless result teaches, caches it if it may be, and returns what the caller gets. */
  private learn(method: string, params: unknown, result: unknown): unknown {
    if (!isJsonObject(result)) return result;
    const identity = this.implementationOf(result, this.negotiated!);
    if (identity !== undefined) this.serverInfoValue = identity;
    let returned: unknown = result;
    if (Array.isArray(result.tools)) returned = this.learnTools(result);
    // Only results the schema gives cache hints carry them; an extension's `ttlMs` (a task's lifetime) is no hint.
    if (this.protocol.revision?.methods[method]?.cacheable === true) this.cache?.store(method, params, returned);
    return returned;
  }

  /**
   * Records tool input schemas, and where the transport mirrors `x-mcp-header` parameters,
   * drops tools whose annotations are invalid (reported through `onerror`), as the spec requires.
   */
  private learnTools(result: { readonly [key: string]: unknown }): unknown {
    const mirrors = this.protocol.transport?.mirrorsToolParameters === true;
    const kept: unknown[] = [];
    for (const tool of result.tools as unknown[]) {
      if (!isJsonObject(tool) || typeof tool.name !== 'string') continue;
      if (mirrors) {
        const parsed = headerParameters(tool.inputSchema);
        if (!parsed.ok) {
          this.protocol.onerror?.(new SdkError('INVALID_RESULT', `Ignoring tool ${JSON.stringify(tool.name)}: ${parsed.reason}`, { data: { tool: tool.name } }));
          continue;
        }
      }
      this.toolSchemas.set(tool.name, tool.inputSchema);
      kept.push(tool);
    }
    return kept.length === (result.tools as unknown[]).length ? result : { ...result, tools: kept };
  }

  /** The server identity in a result's `_meta`, if valid. */
  private implementationOf(result: { readonly [key: string]: unknown }, version: string): Stateful.Implementation | undefined {
    const meta = isJsonObject(result._meta) ? result._meta : undefined;
    const candidate = meta?.[SERVER_INFO_META];
    if (candidate === undefined) return undefined;
    // The same identity on every result: checked once, not per result.
    const known = this.serverInfoValue;
    if (known !== undefined && isJsonObject(candidate) && candidate.name === known.name && candidate.version === known.version) return known;
    const validate = this.moduleFor(version).definitions.Implementation;
    return candidate !== undefined && (validate === undefined || validate(candidate)) ? (candidate as Stateful.Implementation) : undefined;
  }

  /** A notification handler that first drops cached results the notification makes stale. */
  private evictingHandler(method: string): NotificationHandler {
    return (params, context: NotificationContext) => {
      this.cache?.evict(method, params);
      if (method === SUBSCRIPTIONS_ACKNOWLEDGED) this.acknowledgementWaiters.shift()?.(params);
      return this.userNotificationHandlers.get(method)?.(params, context);
    };
  }
}

/** An open `subscriptions/listen` stream (see {@link Client.listen}). */
export interface ListenSubscription {
  /** The notification kinds the server agreed to send. */
  readonly acknowledged: Stateless.SubscriptionFilter;
  /** Settles when the stream ends: resolves when the server ended it or it was closed here. */
  readonly ended: Promise<void>;
  /** Ends the stream. */
  close(): void;
}

/** Methods the listen stream carries; the runtime names them because it routes them. */
const SUBSCRIPTIONS_LISTEN = 'subscriptions/listen';
const SUBSCRIPTIONS_ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';
const LISTENED = [SUBSCRIPTIONS_ACKNOWLEDGED];

type DiscoverOutcome =
  | { readonly kind: 'stateless'; readonly version: string; readonly result: Stateless.DiscoverResult }
  | { readonly kind: 'stateful'; readonly reason: string; readonly cause: unknown };

function newest(versions: readonly string[]): string | undefined {
  return [...versions].sort().at(-1);
}

/** The JSON-RPC error a failure carries: the peer's answer, or the body of an HTTP error answer. */
function rpcErrorOf(error: unknown): { readonly code: number; readonly message: string; readonly data?: unknown } | undefined {
  if (error instanceof ProtocolError) return { code: error.code, message: error.message, data: error.data };
  return findTransportError(error)?.rpcError;
}

function supportedOf(data: unknown): string[] {
  const supported = isJsonObject(data) ? data.supported : undefined;
  return Array.isArray(supported) ? supported.filter((value): value is string => typeof value === 'string') : [];
}

/**
 * Whether a failed probe means an older server: any JSON-RPC error answer, an HTTP 4xx other
 * than 401/403 (credentials are not an era question), or no answer in time. Network failures,
 * server errors, a closed connection and the caller's cancellation are not.
 */
function looksLegacy(error: unknown, rpc: { readonly code: number } | undefined): boolean {
  if (error instanceof ProtocolError) return true;
  const http = findTransportError(error);
  if (http?.status !== undefined) return http.status >= 400 && http.status < 500 && http.status !== 401 && http.status !== 403;
  if (rpc !== undefined) return true;
  return error instanceof SdkError && error.code === 'REQUEST_TIMEOUT';
}
