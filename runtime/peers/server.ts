import type * as Stateful from '../../generated/protocol/stateful.js';
import type { CapabilityObject } from '../era/capabilities.js';
import type { RevisionModule } from '../core/contract.js';
import { Endpoint } from './endpoint.js';
import type { ServerNotificationHandler, ServerOptions, ServerRequestHandler } from './server-options.js';
import { negotiateExtensions } from './extension.js';
import { installTypedSenders } from './typed-senders.js';
import { serverNotificationSenders, serverRequestSenders } from '../../generated/senders.js';
import { initializeVersion, type ServerVersions } from '../era/server-admission.js';
import { serverEras, type ServerEraHost, type ServerEras, type ServerEraStrategy } from '../era/server-strategy.js';
import { statefulState, type Era, type Negotiated } from '../era/negotiated.js';
import { ProtocolError, SdkError } from '../core/errors.js';
import type { HeaderParameter } from '../era/mcp-headers.js';
import { isJsonObject, type JSONRPCRequest } from '../core/jsonrpc.js';
import type { ProtocolTypesShape } from './protocol-types.js';
import type { ServerSenders } from './server-types.js';
import { LOG_NOTIFICATION } from '../core/special-methods.js';
import type { Params, RequestContext, RequestHandler, RequestOptions } from '../core/request-context.js';
import { resolveRevisions } from '../core/revisions.js';
import { defaultRequestStateCodec, RequestStateCodec } from '../era/request-state.js';
import type { StatelessHost } from '../era/stateless-request.js';
import type { Protocol } from '../core/protocol.js';
import { Subscriptions } from '../era/subscriptions.js';
import type { Transport } from '../core/transport.js';
import { Method } from '../../generated/methods.js';
import type { RestoredSessionState, ServedSession } from '../core/session.js';

type Defaults = Stateful.ProtocolTypes;

export type { RestoredSessionState, ServerNotificationHandler, ServerOptions, ServerRequestHandler } from './server-options.js';

/**
 * The Server as its era strategies see it. A class rather than an object literal with getters,
 * which V8 builds on a slow path, because a stateless HTTP request builds a Server.
 */
class EraBridge implements ServerEraHost {
  constructor(
    readonly versions: ServerVersions,
    private readonly negotiated: () => Negotiated | undefined,
    readonly settle: (state: Negotiated | undefined) => void,
    private readonly engine: Protocol,
    readonly stateless: StatelessHost,
    readonly subscriptions: Subscriptions,
    readonly notify: ServerEraHost['notify'],
  ) {}

  get state(): Negotiated | undefined {
    return this.negotiated();
  }

  get bound(): RevisionModule | undefined {
    return this.engine.revision;
  }

  bind(module: RevisionModule): void {
    this.engine.setRevision(module);
  }
}

// Typed senders of T's server→client requests and notifications (see server-types.ts).
export interface Server<T extends ProtocolTypesShape = Defaults> extends ServerSenders<T> {}

/** Whether the Server prototype has its typed stubs yet (see {@link Server.installStubs}). */
let stubsInstalled = false;

/**
 * A low-level MCP server for the stateful revisions: answers `initialize` with version
 * negotiation, then dispatches requests to handlers typed from the generated method table.
 *
 * @example
 * ```ts
 * import { Server } from 'mcpgen';
 * import { StdioServerTransport } from 'mcpgen/node';
 *
 * const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} } });
 * server.setRequestHandler('tools/list', () => ({
 *   tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
 * }));
 * server.setRequestHandler('tools/call', (params) => ({
 *   content: [{ type: 'text', text: String(params.arguments?.text ?? '') }],
 * }));
 * await server.connect(new StdioServerTransport());
 * ```
 */
export class Server<T extends ProtocolTypesShape = Defaults> extends Endpoint implements ServedSession {
  /** Fires once the client sent `notifications/initialized`. */
  oninitialized?: () => void;
  /** The level the client asked for with `logging/setLevel`, if any. */
  loggingLevel: Stateful.LoggingLevel | undefined;
  /**
   * The `x-mcp-header` parameters of a tool, so that the HTTP transport can check a stateless
   * request's `Mcp-Param-*` headers against its arguments. McpServer sets it from its tools.
   */
  toolHeaderParameters?: ((toolName: string) => readonly HeaderParameter[] | undefined) | undefined;

  private readonly info: Stateful.Implementation;
  private readonly instructions: string | undefined;
  private initialized = false;
  /** Supported revisions of each era, oldest first (facts only: nothing is loaded to know them). */
  private readonly versions: ServerVersions;
  /** How this Server serves each era; {@link strategy} is its negotiated state's. */
  private readonly eras: ServerEras;
  private strategy: ServerEraStrategy;
  /** A restored session whose revision module is still loading; messages wait for it. */
  private restoring: Promise<unknown> | undefined;
  private readonly codec: RequestStateCodec;
  private readonly subscriptions: Subscriptions;

  /**
   * Puts the typed stubs on the Server prototype, once, when the first Server is constructed: a
   * static block would do it at load time, and bundlers keep a class with a static block (and
   * everything it reaches) even in a program that never uses it.
   */
  private static installStubs(): void {
    stubsInstalled = true;
    installTypedSenders(
      Server.prototype,
      serverRequestSenders,
      serverNotificationSenders,
      (server, method, params, options) => server.sendRequest(method, params, options),
      (server, method, params, options) =>
        server.sendNotification(method, params, options?.relatedRequestId !== undefined ? { relatedRequestId: options.relatedRequestId } : {}),
    );
  }

  constructor(info: Stateful.Implementation, options: ServerOptions<T> = {}) {
    super('server', (options.capabilities ?? {}) as CapabilityObject, resolveRevisions(options.supportedRevisions, options.revisions, ['stateful', 'stateless'], options.revisionLoader), options);
    if (!stubsInstalled) Server.installStubs();
    this.info = info;
    this.instructions = options.instructions;
    this.versions = { stateful: this.revisions.ofEra('stateful'), stateless: this.revisions.ofEra('stateless'), revisions: this.revisions, defaultRevision: this.defaultRevision };
    this.codec = options.requestState instanceof RequestStateCodec
      ? options.requestState
      : options.requestState === undefined ? defaultRequestStateCodec() : new RequestStateCodec(options.requestState);
    this.subscriptions = new Subscriptions(this.ownCapabilities, (method, params, relatedRequestId) =>
      this.protocol.notification(method, params, { relatedRequestId }));
    this.eras = serverEras(new EraBridge(
      this.versions,
      () => this.state,
      (state) => this.settle(state),
      this.protocol,
      { serverInfo: info, codec: this.codec, middleware: this.protocol.middleware },
      this.subscriptions,
      (method, params, notifyOptions) => super.sendNotification(method, params, notifyOptions),
    ));
    this.strategy = this.eras.none;
    // Through locals, so that the closures die young with a per-request Server (see Protocol.connect).
    const prepare: Protocol['prepareIncoming'] = (value) => this.prepare(value);
    const admit: Protocol['admitRequest'] = (request) => this.strategy.admit(request);
    this.protocol.prepareIncoming = prepare;
    this.protocol.admitRequest = admit;
    this.protocol.setRequestHandler(Method.Initialize, (params) => this.answerInitialize(params as unknown as Stateful.InitializeRequestParams));
    if (this.versions.stateless.length > 0) {
      const cache = options.discoverCache ?? { ttlMs: 0, cacheScope: 'private' };
      this.registerEraHandler(Method.ServerDiscover, () => ({
        supportedVersions: [...this.versions.stateless].reverse(),
        capabilities: this.ownCapabilities,
        ...(this.instructions !== undefined ? { instructions: this.instructions } : {}),
        ttlMs: cache.ttlMs,
        cacheScope: cache.cacheScope,
      }));
      this.registerEraHandler(Method.SubscriptionsListen, (params, context) => this.subscriptions.listen(params, context));
    }
    this.protocol.setNotificationHandler(Method.NotificationsInitialized, () => {
      this.initialized = true;
      this.oninitialized?.();
    });
    if ((options.capabilities as Stateful.ServerCapabilities | undefined)?.logging) {
      this.protocol.setRequestHandler(Method.LoggingSetLevel, (params) => {
        this.loggingLevel = (params as unknown as Stateful.SetLevelRequestParams).level;
        return {};
      });
      const filter: Protocol['notificationFilter'] = (method, params) => method !== LOG_NOTIFICATION || this.severe(params?.level);
      this.protocol.notificationFilter = filter;
    }
  }

  /**
   * The era this connection speaks: `stateful` after `initialize`, `stateless` after a request
   * that carried its protocol version in `_meta`, undefined before either.
   */
  get era(): Era | undefined {
    return this.state?.era;
  }

  /** The server's name and version. */
  get serverInfo(): Stateful.Implementation {
    return this.info;
  }

  /**
   * The capabilities the client declared in `initialize`; in the stateless era, those of the
   * latest request (each request declares its own, and handlers see them in their context).
   */
  get clientCapabilities(): Stateful.ClientCapabilities | undefined {
    return this.state?.peerCapabilities as Stateful.ClientCapabilities | undefined;
  }

  /** The client's name and version from `initialize`. */
  get clientInfo(): Stateful.Implementation | undefined {
    return this.state?.peerInfo as Stateful.Implementation | undefined;
  }

  /** True once `notifications/initialized` arrived, or a stateless-era request was admitted. */
  get isInitialized(): boolean {
    return this.initialized || this.strategy.handshakeFree;
  }

  /** Starts serving on `transport`. */
  connect(transport: Transport): Promise<void> {
    // Not async: the engine's promise is the answer, without one more per connection.
    return this.protocol.connect(transport);
  }

  /**
   * Puts this Server into the state of a stateful session negotiated elsewhere (another replica
   * behind a load balancer, or before a restart), so it serves that session's requests without a
   * new `initialize`. Safe to call again with a newer state (e.g. a changed logging level). Throws
   * RangeError for a revision this server does not speak, SdkError `INVALID_ARGUMENT` for a
   * Server already serving the stateless era.
   *
   * @example
   * ```ts
   * import { Server } from 'mcpgen';
   *
   * const server = new Server({ name: 'replica', version: '1.0.0' }, { capabilities: { tools: {} } });
   * server.restoreSession({ protocolVersion: '2025-11-25', clientCapabilities: {}, clientInfo: { name: 'c', version: '1' }, initialized: true });
   * server.isInitialized; // true
   * ```
   */
  restoreSession(state: RestoredSessionState): Promise<void> {
    const era = this.revisions.facts(state.protocolVersion).era;
    if (era !== 'stateful' || !this.strategy.restorable) {
      throw new SdkError('INVALID_ARGUMENT', `Only a stateful session can be restored (revision ${state.protocolVersion}, era ${this.era ?? era})`);
    }
    const firstTime = this.state === undefined;
    const bind = (module: RevisionModule): void => {
      if (this.protocol.revision !== module) this.protocol.setRevision(module);
      if (firstTime) negotiateExtensions(this.ownCapabilities, this, module);
    };
    const module = this.revisions.module(state.protocolVersion);
    let bound: Promise<void>;
    if (module !== undefined) {
      bind(module);
      bound = Promise.resolve();
    } else {
      // Messages of the restored session wait (prepareIncoming) until its module is bound.
      const restoring: Promise<void> = this.revisions.load(state.protocolVersion).then(bind).finally(() => {
        if (this.restoring === restoring) this.restoring = undefined;
      });
      this.restoring = restoring;
      bound = restoring;
    }
    this.settle(statefulState(state.protocolVersion, state.clientCapabilities as CapabilityObject, state.clientInfo));
    this.initialized = this.initialized || state.initialized;
    this.loggingLevel = state.loggingLevel;
    return bound;
  }

  /** Ends open `subscriptions/listen` streams with their result, then closes the connection. */
  override close(): Promise<void> {
    if (this.subscriptions.size === 0) return super.close();
    this.subscriptions.endAll();
    // Lets the listen handlers' replies reach the transport before it closes.
    return new Promise((resolve) => setTimeout(resolve, 0)).then(() => super.close());
  }

  /**
   * Sends through the era's strategy: in the stateless era a notification that belongs to no
   * request goes to the `subscriptions/listen` streams that opted in to it, or nowhere.
   */
  protected override sendNotification(method: string, params: unknown, options?: { relatedRequestId?: string | number | undefined }): Promise<void> {
    return this.strategy.notify(method, params, options);
  }

  /** Settles the negotiated state and the strategy of its era (the strategy object changes only with the era). */
  private settle(state: Negotiated | undefined): void {
    this.state = state;
    this.strategy = this.eras[state?.era ?? 'none'];
  }

  /**
   * Handles client→server request `method`. The handler's params and result are typed from the
   * generated method table. Fails with SdkError('CAPABILITY_MISSING') when the method needs a
   * server capability this server did not declare.
   */
  setRequestHandler<M extends keyof T['clientRequests'] & string>(method: M, handler: ServerRequestHandler<M, T>): void {
    this.registerEraHandler(method, handler as unknown as RequestHandler);
  }

  /**
   * Registers a handler that serves both eras: the strategy of the negotiated state runs it
   * (directly, through the MRTR runner, or not before `initialize`). The incoming middlewares
   * run around the handler itself, inside the runner, so that they see the era's context and
   * what they answer is shaped like any result of the era.
   */
  private registerEraHandler(method: string, handler: RequestHandler): void {
    const middleware = this.protocol.middleware;
    const chained: RequestHandler = (params, context) => middleware.incoming === undefined
      ? handler(params, context)
      : middleware.runIncoming(context, params, handler);
    this.registerRequestHandler(method, (params: Params | undefined, context: RequestContext) => this.strategy.run(method, chained, params, context), { runsMiddleware: true });
  }

  /**
   * Loads what the next inbound value needs before it is dispatched: the revision `admit` will
   * bind for a request, else the default one while nothing is bound. Undefined (go on at once)
   * when that module is in memory, which is every message after a connection's first.
   */
  private prepare(value: unknown): Promise<unknown> | undefined {
    if (this.restoring !== undefined) return this.restoring;
    const request = isJsonObject(value) && typeof value.method === 'string' && value.id !== undefined ? (value as unknown as JSONRPCRequest) : undefined;
    const needed = request === undefined ? undefined : this.strategy.revisionFor(request);
    // `admit` binds the needed module; the default one is loaded only for what needs no other.
    return needed !== undefined ? this.revisions.ensure(needed) : this.bindDefault();
  }

  /** Handles client→server notification `method`. */
  setNotificationHandler<M extends keyof T['clientNotifications'] & string>(method: M, handler: ServerNotificationHandler<M, T>): void {
    this.registerNotificationHandler(method, handler as ServerNotificationHandler<M, T>);
  }

  /** Sends any server→client request of the negotiated revision, checking the client's capabilities. */
  request<M extends keyof T['serverRequests'] & string>(method: M, params: T['serverRequests'][M]['params'], options?: RequestOptions): Promise<T['serverRequests'][M]['result']> {
    return this.sendRequest(method, params, options) as Promise<T['serverRequests'][M]['result']>;
  }

  /** Sends any server→client notification of the negotiated revision. */
  notification<M extends keyof T['serverNotifications'] & string>(method: M, params: T['serverNotifications'][M]['params']): Promise<void> {
    return this.sendNotification(method, params);
  }

  /** True when a message at `level` is at least as severe as the level the client set (if any). */
  private severe(level: unknown): boolean {
    if (this.loggingLevel === undefined) return true;
    const order = this.protocol.revision?.loggingLevels ?? [];
    const rank = order.indexOf(String(level));
    return rank === -1 || rank >= order.indexOf(this.loggingLevel);
  }

  private answerInitialize(params: Stateful.InitializeRequestParams): Stateful.InitializeResult {
    if (this.state !== undefined) {
      throw new ProtocolError(this.protocol.revision!.errorCodes.INVALID_REQUEST!, 'The session is already initialized');
    }
    const version = initializeVersion(params, this.versions.stateful);
    this.protocol.setRevision(this.moduleFor(version));
    this.settle(statefulState(version, params.capabilities as CapabilityObject, params.clientInfo));
    return {
      protocolVersion: version,
      capabilities: negotiateExtensions(this.ownCapabilities, this, this.protocol.revision!) as Stateful.ServerCapabilities,
      serverInfo: this.info,
      ...(this.instructions !== undefined ? { instructions: this.instructions } : {}),
    };
  }
}
