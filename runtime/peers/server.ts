import type * as Stateful from '../../generated/protocol/stateful.js';
import type * as Stateless from '../../generated/protocol/stateless.js';
import type { CapabilityObject } from '../core/capabilities.js';
import type { RevisionModule } from '../core/contract.js';
import { Endpoint, type EndpointOptions } from './endpoint.js';
import { negotiateExtensions } from './extension.js';
import { typedSenders } from './typed-senders.js';
import { initializeVersion, revisionForRequest } from './server-revision.js';
import { ProtocolError, SdkError } from '../core/errors.js';
import type { HeaderParameter } from '../era/mcp-headers.js';
import { isJsonObject, type JSONRPCRequest } from '../core/jsonrpc.js';
import type { CapabilitiesOf, ProtocolTypesShape } from './protocol-types.js';
import type { ServerSenders } from './server-types.js';
import { INITIALIZE_REQUEST, LOG_NOTIFICATION } from '../core/special-methods.js';
import type { NotificationContext, Params, RequestContext, RequestHandler, RequestOptions } from '../core/request-context.js';
import { resolveRevisions } from '../core/revisions.js';
import { declaredVersion, requestMeta, CLIENT_CAPABILITIES_META, CLIENT_INFO_META } from '../era/meta.js';
import { defaultRequestStateCodec, RequestStateCodec, type RequestStateOptions } from '../era/request-state.js';
import { runStateless, type StatelessHost } from '../era/stateless-request.js';
import { Subscriptions, type CacheHint } from '../era/subscriptions.js';
import type { Transport } from '../core/transport.js';
import { Method } from '../../generated/methods.js';
import type { RestoredSessionState, ServedSession } from '../core/session.js';

type Defaults = Stateful.ProtocolTypes;

/** Options of a {@link Server}. */
export interface ServerOptions<T extends ProtocolTypesShape = Defaults> extends EndpointOptions {
  /** What this server offers; fixed for the life of the server. */
  readonly capabilities?: CapabilitiesOf<T, 'serverCapabilities', Stateful.ServerCapabilities>;
  /** Guidance for the model, sent in the initialize result. */
  readonly instructions?: string;
  /**
   * Revisions to serve (default: every released revision of both eras). Stateful ones are
   * negotiated over `initialize`; stateless ones (2026-07-28 on) are served per request. A
   * list with only stateless revisions refuses the handshake; one with only stateful ones
   * answers stateless requests as an older server would.
   */
  readonly supportedRevisions?: readonly string[];
  /**
   * How multi round-trip requests protect their `requestState` (keys, encryption, expiry,
   * round cap), or a codec shared with other servers. Default: one random key per process,
   * which is right for a single replica; replicas behind a load balancer need shared keys.
   */
  readonly requestState?: RequestStateOptions | RequestStateCodec;
  /** Cache hint of the `server/discover` result (default: `ttlMs` 0, `cacheScope` 'private'). */
  readonly discoverCache?: CacheHint;
}

/** The negotiated state of a stateful session, as {@link Server.restoreSession} takes it. */
export type { RestoredSessionState };

/** A handler for client→server request `M`: exact params in, exact result out. */
export type ServerRequestHandler<M extends keyof T['clientRequests'], T extends ProtocolTypesShape = Defaults> = (
  params: T['clientRequests'][M]['params'],
  context: RequestContext,
) => T['clientRequests'][M]['result'] | Promise<T['clientRequests'][M]['result']>;

/** A handler for client→server notification `M`. */
export type ServerNotificationHandler<M extends keyof T['clientNotifications'], T extends ProtocolTypesShape = Defaults> = (
  params: T['clientNotifications'][M]['params'],
  context: NotificationContext,
) => void | Promise<void>;

// Typed senders of T's server→client requests and notifications (see server-types.ts).
export interface Server<T extends ProtocolTypesShape = Defaults> extends ServerSenders<T> {}

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
  private clientInfoValue: Stateful.Implementation | undefined;
  private initialized = false;
  /** Supported revisions of each era, oldest first (facts only: nothing is loaded to know them). */
  private readonly statefulVersions: readonly string[];
  private readonly statelessVersions: readonly string[];
  /** A restored session whose revision module is still loading; messages wait for it. */
  private restoring: Promise<unknown> | undefined;
  private readonly codec: RequestStateCodec;
  private readonly subscriptions: Subscriptions;
  private readonly statelessHost: StatelessHost;
  /** Which era this connection speaks, fixed by its first request (`initialize` or a request with `_meta`). */
  private eraValue: 'stateful' | 'stateless' | undefined;

  constructor(info: Stateful.Implementation, options: ServerOptions<T> = {}) {
    super('server', (options.capabilities ?? {}) as CapabilityObject, resolveRevisions(options.supportedRevisions, options.revisions, ['stateful', 'stateless'], options.revisionLoader), options);
    this.info = info;
    this.instructions = options.instructions;
    this.statefulVersions = this.revisions.ofEra('stateful');
    this.statelessVersions = this.revisions.ofEra('stateless');
    this.codec = options.requestState instanceof RequestStateCodec
      ? options.requestState
      : options.requestState === undefined ? defaultRequestStateCodec() : new RequestStateCodec(options.requestState);
    this.statelessHost = { serverInfo: info, codec: this.codec, middleware: this.protocol.middleware };
    this.subscriptions = new Subscriptions(this.ownCapabilities, (method, params, relatedRequestId) =>
      this.protocol.notification(method, params, { relatedRequestId }));
    this.protocol.prepareIncoming = (value) => this.prepare(value);
    this.protocol.admitRequest = (request) => this.admit(request);
    this.protocol.setRequestHandler(Method.Initialize, (params) => this.answerInitialize(params as unknown as Stateful.InitializeRequestParams));
    if (this.statelessVersions.length > 0) {
      const cache = options.discoverCache ?? { ttlMs: 0, cacheScope: 'private' };
      this.registerStatelessHandler(Method.ServerDiscover, () => ({
        supportedVersions: [...this.statelessVersions].reverse(),
        capabilities: this.ownCapabilities,
        ...(this.instructions !== undefined ? { instructions: this.instructions } : {}),
        ttlMs: cache.ttlMs,
        cacheScope: cache.cacheScope,
      }));
      this.registerStatelessHandler(Method.SubscriptionsListen, (params, context) => this.subscriptions.listen(params, context));
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
      this.protocol.notificationFilter = (method, params) => method !== LOG_NOTIFICATION || this.severe(params?.level);
    }
    const send = (method: string, params: unknown, sendOptions?: RequestOptions) => this.sendRequest(method, params, sendOptions);
    const notify = (method: string, params: unknown, sendOptions?: RequestOptions) =>
      this.sendNotification(method, params, sendOptions?.relatedRequestId !== undefined ? { relatedRequestId: sendOptions.relatedRequestId } : {});
    Object.assign(this, typedSenders('server', send, notify));
  }

  /**
   * The era this connection speaks: `stateful` after `initialize`, `stateless` after a request
   * that carried its protocol version in `_meta`, undefined before either.
   */
  get era(): 'stateful' | 'stateless' | undefined {
    return this.eraValue;
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
    return this.peerCapabilitiesValue as Stateful.ClientCapabilities | undefined;
  }

  /** The client's name and version from `initialize`. */
  get clientInfo(): Stateful.Implementation | undefined {
    return this.clientInfoValue;
  }

  /** True once `notifications/initialized` arrived, or a stateless-era request was admitted. */
  get isInitialized(): boolean {
    return this.initialized || this.eraValue === 'stateless';
  }

  /** Starts serving on `transport`. */
  async connect(transport: Transport): Promise<void> {
    await this.protocol.connect(transport);
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
    if (era !== 'stateful' || this.eraValue === 'stateless') {
      throw new SdkError('INVALID_ARGUMENT', `Only a stateful session can be restored (revision ${state.protocolVersion}, era ${this.eraValue ?? era})`);
    }
    const firstTime = this.negotiated === undefined;
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
    this.negotiated = state.protocolVersion;
    this.eraValue = 'stateful';
    this.peerCapabilitiesValue = state.clientCapabilities as CapabilityObject;
    this.clientInfoValue = state.clientInfo;
    this.initialized = this.initialized || state.initialized;
    this.loggingLevel = state.loggingLevel;
    return bound;
  }

  /** Ends open `subscriptions/listen` streams with their result, then closes the connection. */
  override async close(): Promise<void> {
    if (this.subscriptions.size > 0) {
      this.subscriptions.endAll();
      // Lets the listen handlers' replies reach the transport before it closes.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await super.close();
  }

  /**
   * In the stateless era a notification that belongs to no request is a change notification:
   * it goes to the `subscriptions/listen` streams that opted in to it, or nowhere.
   */
  protected override async sendNotification(method: string, params: unknown, options?: { relatedRequestId?: string | number | undefined }): Promise<void> {
    if (this.eraValue === 'stateless' && options?.relatedRequestId === undefined) {
      await this.subscriptions.publish(method, params as Params | undefined);
      return;
    }
    await super.sendNotification(method, params, options);
  }

  /**
   * Handles client→server request `method`. The handler's params and result are typed from the
   * generated method table. Fails with SdkError('CAPABILITY_MISSING') when the method needs a
   * server capability this server did not declare.
   */
  setRequestHandler<M extends keyof T['clientRequests'] & string>(method: M, handler: ServerRequestHandler<M, T>): void {
    this.registerStatelessHandler(method, handler as unknown as RequestHandler);
  }

  /**
   * Registers a handler that serves both eras: stateless requests go through the MRTR runner.
   * The incoming middlewares run around the handler itself, inside the runner, so that they see
   * the era's context and what they answer is shaped like any result of the era.
   */
  private registerStatelessHandler(method: string, handler: RequestHandler): void {
    const middleware = this.protocol.middleware;
    const chained: RequestHandler = (params, context) => middleware.incoming === undefined
      ? handler(params, context)
      : middleware.runIncoming(context, params, (given) => handler(given, context));
    this.registerRequestHandler(method, (params: Params | undefined, context: RequestContext) => {
      if (this.eraValue === 'stateless') {
        return runStateless(this.statelessHost, this.protocol.revision!, chained, params, context);
      }
      if (this.negotiated === undefined) {
        throw new ProtocolError(this.protocol.revision!.errorCodes.INVALID_REQUEST!, `Received ${method} before initialize`);
      }
      return chained(params, context);
    }, { runsMiddleware: true });
  }


  /**
   * Picks the era of each request before it is looked up. `initialize` selects the stateful
   * era; a request naming its protocol version in `_meta` selects the stateless one (and
   * binds that revision); once a connection initialized, `_meta` is just metadata.
   */
  private admit(request: JSONRPCRequest): ProtocolError | undefined {
    const needed = this.revisionFor(request);
    const module = needed === undefined ? undefined : this.revisions.module(needed);
    if (needed !== undefined && module === undefined) {
      // prepareIncoming loaded it unless the load failed (reported through onerror).
      return new ProtocolError(this.revisions.facts(needed).errorCodes.INTERNAL_ERROR ?? -32603, `The module of protocol revision ${needed} could not be loaded`);
    }
    if (request.method === INITIALIZE_REQUEST) {
      if (this.statefulVersions.length === 0) {
        const requested = (request.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
        return this.unsupportedVersion(typeof requested === 'string' ? requested : undefined);
      }
      // A client that probed the stateless era first (and fell back) gets the handshake.
      if (this.eraValue !== 'stateful') {
        this.eraValue = undefined;
        this.negotiated = undefined;
        if (this.protocol.revision !== module) this.protocol.setRevision(module!);
      }
      return undefined;
    }
    if (this.eraValue === 'stateful' || this.statelessVersions.length === 0) return undefined;
    const version = declaredVersion(request.params);
    if (version === undefined) {
      // A method of the stateless era alone (a discovery probe) is checked against that era's
      // schema, which refuses it for its missing `_meta`; the era stays open. Anything else
      // meets the stateful rules ("before initialize").
      if (this.eraValue === undefined && module !== undefined && module.era === 'stateless') this.protocol.setRevision(module);
      return undefined;
    }
    if (module === undefined || module.era !== 'stateless') return this.unsupportedVersion(version);
    if (this.protocol.revision !== module) this.protocol.setRevision(module);
    this.eraValue = 'stateless';
    this.negotiated = module.revision;
    const meta = requestMeta(request.params);
    const capabilities = meta?.[CLIENT_CAPABILITIES_META];
    if (typeof capabilities === 'object' && capabilities !== null) this.peerCapabilitiesValue = capabilities as CapabilityObject;
    const clientInfo = meta?.[CLIENT_INFO_META];
    if (typeof clientInfo === 'object' && clientInfo !== null) this.clientInfoValue = clientInfo as Stateful.Implementation;
    return undefined;
  }

  /**
   * Loads what the next inbound value needs before it is dispatched: the revision `admit` will
   * bind for a request, else the default one while nothing is bound. Undefined (go on at once)
   * when that module is in memory, which is every message after a connection's first.
   */
  private prepare(value: unknown): Promise<unknown> | undefined {
    if (this.restoring !== undefined) return this.restoring;
    const request = isJsonObject(value) && typeof value.method === 'string' && value.id !== undefined ? (value as unknown as JSONRPCRequest) : undefined;
    const needed = request === undefined ? undefined : this.revisionFor(request);
    // `admit` binds the needed module; the default one is loaded only for what needs no other.
    return needed !== undefined ? this.revisions.ensure(needed) : this.bindDefault();
  }

  /** The revision whose module `admit` binds for `request` (see {@link revisionForRequest}). */
  private revisionFor(request: JSONRPCRequest): string | undefined {
    return revisionForRequest(request, { era: this.eraValue, stateful: this.statefulVersions, stateless: this.statelessVersions, revisions: this.revisions });
  }

  private initializeVersion(params: unknown): string {
    return initializeVersion(params, this.statefulVersions);
  }

  /**
   * UnsupportedProtocolVersionError, listing the versions a request may name in `_meta`
   * (newest first; the same list `server/discover` gives).
   */
  private unsupportedVersion(requested: string | undefined): ProtocolError {
    const codes = this.revisions.facts(this.statelessVersions[this.statelessVersions.length - 1] ?? this.defaultRevision).errorCodes;
    const supported = [...this.statelessVersions].reverse();
    const text = requested === undefined
      ? `Unsupported protocol version: this server supports ${supported.join(', ')}`
      : `Unsupported protocol version ${JSON.stringify(requested)}: this server supports ${supported.join(', ')}`;
    return new ProtocolError(codes.UNSUPPORTED_PROTOCOL_VERSION ?? codes.INVALID_REQUEST!, text, { supported, ...(requested !== undefined ? { requested } : {}) });
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
    if (this.negotiated !== undefined) {
      throw new ProtocolError(this.protocol.revision!.errorCodes.INVALID_REQUEST!, 'The session is already initialized');
    }
    const version = this.initializeVersion(params);
    this.protocol.setRevision(this.moduleFor(version));
    this.negotiated = version;
    this.eraValue = 'stateful';
    this.peerCapabilitiesValue = params.capabilities as CapabilityObject;
    this.clientInfoValue = params.clientInfo;
    return {
      protocolVersion: version,
      capabilities: negotiateExtensions(this.ownCapabilities, this, this.protocol.revision!) as Stateful.ServerCapabilities,
      serverInfo: this.info,
      ...(this.instructions !== undefined ? { instructions: this.instructions } : {}),
    };
  }
}
