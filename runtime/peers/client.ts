import type { RevisionFactsView } from '../core/revision-set.js';
import type * as Stateful from '../../generated/protocol/stateful.js';
import type { CapabilityObject } from '../era/capabilities.js';
import { Endpoint } from './endpoint.js';
import { installTypedSenders } from './typed-senders.js';
import { clientNotificationSenders, clientRequestSenders } from '../../generated/senders.js';
import { answerInputRequest } from './input-answer.js';
import { ToolCatalog } from './client-tools.js';
import { ListenStreams } from './client-listen.js';
import type { ClientNotificationHandler, ClientOptions, ClientRequestHandler, ListAllOptions, ListenSubscription, NegotiationMode, PageItem, PaginatedMethod } from './client-options.js';

export type { ClientNotificationHandler, ClientOptions, ClientRequestHandler, ListAllOptions, ListenSubscription, NegotiationMode, PageItem, PaginatedMethod } from './client-options.js';
import { SdkError } from '../core/errors.js';
import { isJsonObject } from '../core/jsonrpc.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type Protocol } from '../core/protocol.js';
import type { ProtocolTypesShape } from './protocol-types.js';
import { unavailableMethodError, type BothEras, type ClientParams, type ClientSenders, type HandledRequests, type ListenFilter } from './client-types.js';
import type { NotificationContext, NotificationHandler, NotificationOptions, Params, RequestHandler, RequestOptions } from '../core/request-context.js';
import { resolveRevisions } from '../core/revisions.js';
import { defaultEraCache, serverIdentity, type EraCache, type EraChoice } from '../era/client-era.js';
import { DEFAULT_MAX_INPUT_ROUNDS } from '../era/client-mrtr.js';
import { statefulClientEra, statelessClientEra, type ClientEraHost, type ClientEraStrategy } from '../era/client-strategy.js';
import { newest, statelessClientState, withPeer, type ClientEnvelope, type Era, type Negotiated } from '../era/negotiated.js';
import { ResponseCache } from '../era/client-response-cache.js';
import { clientView } from '../era/client-revision.js';
import { identityIn, SERVER_INFO_META } from '../era/meta.js';
import type { Transport } from '../core/transport.js';
import { Method } from '../../generated/methods.js';

type Defaults = BothEras;
type ClientRequests = Stateful.ClientRequestMap;


// Typed senders of T's client→server requests and client notifications (see client-types.ts).
export interface Client<T extends ProtocolTypesShape = Defaults> extends ClientSenders<T> {}

/** Whether the Client prototype has its typed stubs yet (see {@link Client.installStubs}). */
let stubsInstalled = false;

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
  private readonly cache: ResponseCache | undefined;
  /** Handlers of server→client requests, also used for embedded input requests. */
  private readonly inputHandlers = new Map<string, ClientRequestHandler<never, T>>();
  private readonly userNotificationHandlers = new Map<string, NotificationHandler>();
  /** The `subscriptions/listen` calls waiting for their acknowledgement. */
  private readonly listens = new ListenStreams((method, params, options) => this.sendRequest(method, params, options));
  /** The tools the server listed: input schemas for the transport's parameter headers, output schemas to check results. */
  private readonly tools: ToolCatalog;
  private instructionsValue: string | undefined;
  /** What a stateless request says about this client, the same on every request. */
  private readonly envelope: ClientEnvelope;
  /** How this client speaks each era; {@link strategy} is the negotiated one's. */
  private readonly eras: { readonly stateful: ClientEraStrategy; readonly stateless: ClientEraStrategy };
  private strategy: ClientEraStrategy;

  /**
   * Puts the typed stubs on the Client prototype, once, when the first Client is constructed: a
   * static block would do it at load time, and bundlers keep a class with a static block (and
   * everything it reaches) even in a program that never uses it, such as a server.
   */
  private static installStubs(): void {
    stubsInstalled = true;
    installTypedSenders(
      Client.prototype,
      clientRequestSenders,
      clientNotificationSenders,
      (client, method, params, options) => client.sendRequest(method, params, options),
      (client, method, params) => client.sendNotification(method, params),
    );
  }

  constructor(info: Stateful.Implementation, options: ClientOptions<T> = {}) {
    super('client', (options.capabilities ?? {}) as CapabilityObject, resolveRevisions(options.supportedRevisions, options.revisions, ['stateful', 'stateless'], options.revisionLoader), options);
    if (!stubsInstalled) Client.installStubs();
    this.statefulVersions = this.revisions.ofEra('stateful');
    this.statelessVersions = this.revisions.ofEra('stateless');
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
    this.tools = new ToolCatalog(options.validateToolOutput ?? true);
    this.envelope = { capabilities: this.ownCapabilities, clientInfo: (options.sendClientInfo ?? true) ? info : undefined, logLevel: options.logLevel };
    const cacheOptions = options.responseCache;
    this.cache = cacheOptions === false
      ? undefined
      : new ResponseCache({ ...(typeof cacheOptions === 'object' ? cacheOptions : {}), isList: (method) => this.protocol.revision?.methods[method]?.pagination != null });
    const client = this;
    const host: ClientEraHost = {
      get state() { return client.state; },
      get revision() { return client.protocol.revision; },
      cache: this.cache,
      maxInputRounds: this.maxInputRounds,
      defaultTimeoutMs: this.defaultTimeout,
      transmit: (method, params, sendOptions, finish) => this.sendChecked(method, params, sendOptions, finish),
      observe: (method, params, result, mirrored) => this.tools.observe(method, params, result, mirrored, this.reportError),
      get mirrorsToolParameters() { return client.protocol.transport?.mirrorsToolParameters === true; },
      noteIdentity: (result) => {
        const state = this.state!;
        const identity = this.implementationOf(result, state.revision);
        if (identity !== undefined && identity !== state.peerInfo) this.state = withPeer(state, state.peerCapabilities, identity);
      },
      fulfil: (key, method, params, signal) => this.fulfil(key, method, params, signal),
      opening: {
        preferred: this.preferred,
        statefulVersions: this.statefulVersions,
        statelessVersions: this.statelessVersions,
        supportedVersions: this.supportedRevisions,
        capabilities: this.ownCapabilities,
        clientInfo: info,
        load: (version) => this.revisions.load(version),
        bind: (module) => this.protocol.setRevision(module),
        request: (method, params, requestOptions) => this.throughOutgoing(method, params, requestOptions, (given, givenOptions) => this.protocol.request(method, given, givenOptions)),
        notify: (method) => this.protocol.notification(method, undefined, {}),
        settle: (state, instructions) => {
          this.settle(state, this.eras[state.era]);
          this.instructionsValue = instructions;
        },
        enterStateless: (version) => this.enterStateless(version),
        adoptDiscover: (version, result) => this.adoptDiscover(version, result),
        errorCodes: (version) => this.moduleFor(version).errorCodes,
      },
    };
    this.eras = { stateful: statefulClientEra(host), stateless: statelessClientEra(host) };
    this.strategy = this.eras.stateful;
  }

  /** The capabilities the server declared (in `initialize` or `server/discover`). */
  get serverCapabilities(): Stateful.ServerCapabilities | undefined {
    return this.state?.peerCapabilities as Stateful.ServerCapabilities | undefined;
  }

  /** The server's name and version (from `initialize`, `server/discover` or results' `_meta`). */
  get serverInfo(): Stateful.Implementation | undefined {
    return this.state?.peerInfo as Stateful.Implementation | undefined;
  }

  /** The server's instructions for the model, if it sent any. */
  get instructions(): string | undefined {
    return this.instructionsValue;
  }

  /** The era of the connection: `stateless` (2026-07-28 on), `stateful` (`initialize`), or undefined before connecting. */
  get era(): Era | undefined {
    return this.state?.era;
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
    const preferStateless = this.statelessVersions.includes(this.preferred);
    try {
      const cached = key === undefined ? undefined : await this.eraCache?.get(key);
      if (preferStateless && cached !== undefined && await this.eras[cached.era].resume(cached)) return;
      const tryStateless = preferStateless && (this.negotiation === 'pin' || cached?.era !== 'stateful');
      let opened = await (tryStateless ? this.eras.stateless : this.eras.stateful).open(options);
      if (opened.kind === 'fallback') {
        if (this.negotiation === 'pin' || this.statefulVersions.length === 0) {
          throw new SdkError('UNSUPPORTED_VERSION', `The server does not speak the stateless era (${this.statelessVersions.join(', ')}): ${opened.reason}`, { cause: opened.cause });
        }
        this.settle(undefined);
        opened = await this.eras.stateful.open(options);
      }
      // Only a failed probe says something about the server; a client that asked for a
      // stateful version by itself learned nothing about what the server would do otherwise.
      if (tryStateless && opened.kind === 'open') await this.remember(key, opened.choice);
    } catch (error) {
      this.settle(undefined);
      if (key !== undefined) await this.eraCache?.delete(key);
      await this.protocol.close();
      throw error;
    }
  }

  /** Sends any client→server request of the negotiated revision, checking the server's capabilities. */
  request<M extends keyof T['clientRequests'] & string>(method: M, params: ClientParams<T, M>, options?: RequestOptions): Promise<T['clientRequests'][M]['result']> {
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
  setRequestHandler<M extends keyof HandledRequests<T> & string>(method: M, handler: ClientRequestHandler<M, T>): void {
    this.registerRequestHandler(method, handler as ClientRequestHandler<M, T>);
    this.inputHandlers.set(method, handler as unknown as ClientRequestHandler<never, T>);
  }

  /** Handles server→client notification `method`. */
  setNotificationHandler<M extends keyof T['serverNotifications'] & string>(method: M, handler: ClientNotificationHandler<M, T>): void {
    this.userNotificationHandlers.set(method, handler as unknown as NotificationHandler);
    this.registerNotificationHandler(method, this.evictingHandler(method));
  }

  /** The facts of every revision this client supports, loaded or not (for refusals that name where a method exists). */
  private supportedFacts(): RevisionFactsView[] {
    return this.supportedRevisions.map((revision) => this.revisions.facts(revision));
  }

  /**
   * Refuses a method the negotiated revision lacks, then sends through the era's strategy (see
   * {@link ClientEraStrategy}): as it is, or in the stateless envelope with its cache and rounds.
   * Not async, for the same reason as the endpoint's: the strategy's promise is the call's.
   */
  protected override transmitRequest(method: string, params: unknown, options: RequestOptions | undefined): Promise<unknown> {
    try {
      const unavailable = this.protocol.knows(method) ? undefined : unavailableMethodError(method, this.protocol.revision, this.supportedFacts());
      if (unavailable !== undefined) return Promise.reject(unavailable);
      return this.strategy.send(method, params, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private readonly reportError = (error: Error): void => this.protocol.onerror?.(error);

  /** Refuses a notification the negotiated revision lacks as {@link sendRequest} does a request. */
  protected override async sendNotification(method: string, params: unknown, options?: NotificationOptions): Promise<void> {
    const unavailable = this.protocol.knows(method) ? undefined : unavailableMethodError(method, this.protocol.revision, this.supportedFacts());
    if (unavailable !== undefined) throw unavailable;
    return super.sendNotification(method, params, options);
  }

  /**
   * Stateless era: opens a `subscriptions/listen` stream for the change notifications `filter`
   * opts in to. They reach the handlers set with `setNotificationHandler` (and evict the
   * response cache), as session notifications do in the stateful era. Resolves once the
   * server acknowledged, with what it agreed to send; `close()` ends the stream.
   *
   * @example
   * ```ts
   * import { Client, type Stateless } from 'mcpgen';
   *
   * // listen exists in the stateless era only, so the client is typed and pinned to it.
   * const client = new Client<Stateless.ProtocolTypes>({ name: 'demo', version: '1.0.0' }, { protocolVersion: '2026-07-28', negotiation: 'pin' });
   * client.setNotificationHandler('notifications/tools/list_changed', () => console.log('tools changed'));
   * const subscription = await client.listen({ toolsListChanged: true });
   * // later
   * subscription.close();
   * ```
   */
  async listen(filter: ListenFilter<T>, options: Pick<RequestOptions, 'signal'> = {}): Promise<ListenSubscription> {
    if (!this.strategy.listens) {
      throw unavailableMethodError(Method.SubscriptionsListen, this.protocol.revision, this.supportedFacts())
        ?? new SdkError('UNKNOWN_METHOD', `subscriptions/listen belongs to the stateless era; this connection speaks ${this.protocolVersion ?? '(not connected)'}`);
    }
    if (!this.userNotificationHandlers.has(Method.NotificationsSubscriptionsAcknowledged)) this.registerNotificationHandler(Method.NotificationsSubscriptionsAcknowledged, this.evictingHandler(Method.NotificationsSubscriptionsAcknowledged));
    return this.listens.open(filter, options);
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
    this.settle(statelessClientState(version, this.envelope), this.eras.stateless);
    const toolInputSchema: Protocol['toolInputSchema'] = (name) => this.tools.inputSchema(name);
    this.protocol.toolInputSchema = toolInputSchema;
  }

  /** Takes the server's capabilities and identity from a discover result; false when it is unusable. */
  private adoptDiscover(version: string, discover: unknown): boolean {
    if (!isJsonObject(discover) || !isJsonObject(discover.capabilities)) return false;
    const known = this.state?.peerInfo;
    this.enterStateless(version);
    this.instructionsValue = typeof discover.instructions === 'string' ? discover.instructions : undefined;
    const identity = this.implementationOf(discover, version) ?? this.implementationOf({ _meta: { [SERVER_INFO_META]: discover.serverInfo } }, version) ?? known;
    this.state = withPeer(this.state!, discover.capabilities, identity);
    return true;
  }

  /** Settles the negotiated state and the strategy of its era (the stateful one's plain sends until negotiated). */
  private settle(state: Negotiated | undefined, strategy: ClientEraStrategy = this.eras.stateful): void {
    this.state = state;
    this.strategy = strategy;
  }

  private async remember(key: string | undefined, choice: EraChoice): Promise<void> {
    if (key !== undefined) await this.eraCache?.set(key, choice);
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
  private fulfil(key: string, method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    return answerInputRequest({ key, method, params, signal }, {
      revision: this.protocol.revision,
      capabilities: this.ownCapabilities,
      handler: this.inputHandlers.get(method) as unknown as RequestHandler | undefined,
      checkResult: this.checkOutgoing,
      middleware: this.protocol.middleware,
    });
  }

  /** The server identity in a result's `_meta`, if valid (see {@link identityIn}). */
  private implementationOf(result: { readonly [key: string]: unknown }, version: string): Stateful.Implementation | undefined {
    return identityIn(result, this.state?.peerInfo, this.moduleFor(version).definitions.Implementation) as Stateful.Implementation | undefined;
  }

  /** A notification handler that first drops cached results the notification makes stale. */
  private evictingHandler(method: string): NotificationHandler {
    return (params, context: NotificationContext) => {
      this.cache?.evict(method, params);
      if (method === Method.NotificationsSubscriptionsAcknowledged) this.listens.acknowledge(params);
      return this.userNotificationHandlers.get(method)?.(params, context);
    };
  }
}
