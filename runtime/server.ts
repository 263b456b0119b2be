import { Stateful } from '../generated/latest.js';
import type { CapabilityObject } from './capabilities.js';
import { Endpoint, type EndpointOptions } from './endpoint.js';
import { ProtocolError } from './errors.js';
import type { CapabilitiesOf, ProtocolTypesShape } from './protocol-types.js';
import { LOG_NOTIFICATION } from './special-methods.js';
import type { NotificationContext, RequestContext, RequestOptions } from './request-context.js';
import { resolveSupported } from './revisions.js';
import type { Transport } from './transport.js';

type Defaults = Stateful.ProtocolTypes;

/** Options of a {@link Server}. */
export interface ServerOptions<T extends ProtocolTypesShape = Defaults> extends EndpointOptions {
  /** What this server offers; fixed for the life of the server. */
  readonly capabilities?: CapabilitiesOf<T, 'serverCapabilities', Stateful.ServerCapabilities>;
  /** Guidance for the model, sent in the initialize result. */
  readonly instructions?: string;
  /** Revisions to negotiate (default: every released stateful revision). */
  readonly supportedRevisions?: readonly string[];
}

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

// Typed senders for server→client requests and notifications, generated from the method table.
export interface Server<T extends ProtocolTypesShape = Defaults> extends Stateful.ServerStubs<RequestOptions>, Stateful.ServerNotifiers<RequestOptions> {}

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
export class Server<T extends ProtocolTypesShape = Defaults> extends Endpoint {
  /** Fires once the client sent `notifications/initialized`. */
  oninitialized?: () => void;
  /** The level the client asked for with `logging/setLevel`, if any. */
  loggingLevel: Stateful.LoggingLevel | undefined;

  private readonly info: Stateful.Implementation;
  private readonly instructions: string | undefined;
  private clientInfoValue: Stateful.Implementation | undefined;
  private initialized = false;

  constructor(info: Stateful.Implementation, options: ServerOptions<T> = {}) {
    super('server', (options.capabilities ?? {}) as CapabilityObject, resolveSupported(options.supportedRevisions, options.revisions), options);
    this.info = info;
    this.instructions = options.instructions;
    this.protocol.setRequestHandler('initialize', (params) => this.answerInitialize(params as unknown as Stateful.InitializeRequestParams));
    this.protocol.setNotificationHandler('notifications/initialized', () => {
      this.initialized = true;
      this.oninitialized?.();
    });
    if ((options.capabilities as Stateful.ServerCapabilities | undefined)?.logging) {
      this.protocol.setRequestHandler('logging/setLevel', (params) => {
        this.loggingLevel = (params as unknown as Stateful.SetLevelRequestParams).level;
        return {};
      });
      this.protocol.notificationFilter = (method, params) => method !== LOG_NOTIFICATION || this.severe(params?.level);
    }
    const send = (method: string, params: unknown, sendOptions?: RequestOptions) => this.sendRequest(method, params, sendOptions);
    const notify = (method: string, params: unknown, sendOptions?: RequestOptions) =>
      this.sendNotification(method, params, sendOptions?.relatedRequestId !== undefined ? { relatedRequestId: sendOptions.relatedRequestId } : {});
    Object.assign(this, Stateful.serverStubs(send), Stateful.serverNotifiers(notify));
  }

  /** The capabilities the client declared in `initialize`. */
  get clientCapabilities(): Stateful.ClientCapabilities | undefined {
    return this.peerCapabilitiesValue as Stateful.ClientCapabilities | undefined;
  }

  /** The client's name and version from `initialize`. */
  get clientInfo(): Stateful.Implementation | undefined {
    return this.clientInfoValue;
  }

  /** True once `notifications/initialized` arrived. */
  get isInitialized(): boolean {
    return this.initialized;
  }

  /** Starts serving on `transport`. */
  async connect(transport: Transport): Promise<void> {
    await this.protocol.connect(transport);
  }

  /**
   * Handles client→server request `method`. The handler's params and result are typed from the
   * generated method table. Fails with SdkError('CAPABILITY_MISSING') when the method needs a
   * server capability this server did not declare.
   */
  setRequestHandler<M extends keyof T['clientRequests'] & string>(method: M, handler: ServerRequestHandler<M, T>): void {
    this.registerRequestHandler(method, (params: T['clientRequests'][M]['params'], context: RequestContext) => {
      if (this.negotiated === undefined) {
        throw new ProtocolError(this.protocol.revision!.errorCodes.INVALID_REQUEST!, `Received ${method} before initialize`);
      }
      return handler(params, context);
    });
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
    const supported = this.supportedRevisions;
    const version = supported.includes(params.protocolVersion) ? params.protocolVersion : supported[supported.length - 1]!;
    this.protocol.setRevision(this.moduleFor(version));
    this.negotiated = version;
    this.peerCapabilitiesValue = params.capabilities as CapabilityObject;
    this.clientInfoValue = params.clientInfo;
    return {
      protocolVersion: version,
      capabilities: this.ownCapabilities as Stateful.ServerCapabilities,
      serverInfo: this.info,
      ...(this.instructions !== undefined ? { instructions: this.instructions } : {}),
    };
  }
}
