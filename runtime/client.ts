import { Stateful } from '../generated/latest.js';
import type { CapabilityObject } from './capabilities.js';
import { Endpoint, type EndpointOptions } from './endpoint.js';
import { SdkError } from './errors.js';
import type { CapabilitiesOf, ProtocolTypesShape } from './protocol-types.js';
import type { NotificationContext, RequestContext, RequestOptions } from './request-context.js';
import { resolveSupported } from './revisions.js';
import type { Transport } from './transport.js';

type Defaults = Stateful.ProtocolTypes;
type ClientRequests = Stateful.ClientRequestMap;

/** Options of a {@link Client}. */
export interface ClientOptions<T extends ProtocolTypesShape = Defaults> extends EndpointOptions {
  /** What this client offers (sampling, roots, elicitation…); fixed for the life of the client. */
  readonly capabilities?: CapabilitiesOf<T, 'clientCapabilities', Stateful.ClientCapabilities>;
  /** Revisions this client accepts (default: every released stateful revision). */
  readonly supportedRevisions?: readonly string[];
  /** The version to ask for in `initialize` (default: the newest supported one). */
  readonly protocolVersion?: string;
}

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
 * A low-level MCP client for the stateful revisions: runs the `initialize` handshake with
 * version negotiation, checks the server's capabilities before each request, and validates
 * every result before it reaches the caller.
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
  private serverInfoValue: Stateful.Implementation | undefined;
  private instructionsValue: string | undefined;

  constructor(info: Stateful.Implementation, options: ClientOptions<T> = {}) {
    super('client', (options.capabilities ?? {}) as CapabilityObject, resolveSupported(options.supportedRevisions, options.revisions), options);
    const supported = this.supportedRevisions;
    this.info = info;
    this.preferred = options.protocolVersion ?? supported[supported.length - 1]!;
    if (!supported.includes(this.preferred)) {
      throw new RangeError(`protocolVersion ${this.preferred} is not among the supported revisions ${supported.join(', ')}`);
    }
    const send = (method: string, params: unknown, sendOptions?: RequestOptions) => this.sendRequest(method, params, sendOptions);
    const notify = (method: string, params: unknown) => this.sendNotification(method, params);
    Object.assign(this, Stateful.clientStubs(send), Stateful.clientNotifiers(notify));
  }

  /** The capabilities the server declared. */
  get serverCapabilities(): Stateful.ServerCapabilities | undefined {
    return this.peerCapabilitiesValue as Stateful.ServerCapabilities | undefined;
  }

  /** The server's name and version. */
  get serverInfo(): Stateful.Implementation | undefined {
    return this.serverInfoValue;
  }

  /** The server's instructions for the model, if it sent any. */
  get instructions(): string | undefined {
    return this.instructionsValue;
  }

  /**
   * Connects and runs the handshake: `initialize` with the preferred version, refusal of a
   * version this client does not support (SdkError('UNSUPPORTED_VERSION'), connection closed),
   * then `notifications/initialized`.
   */
  async connect(transport: Transport, options: RequestOptions = {}): Promise<void> {
    await this.protocol.connect(transport);
    this.protocol.setRevision(this.moduleFor(this.preferred));
    try {
      const result = (await this.protocol.request(
        'initialize',
        { protocolVersion: this.preferred, capabilities: this.ownCapabilities, clientInfo: this.info },
        options,
      )) as Stateful.InitializeResult;
      if (!this.supportedRevisions.includes(result.protocolVersion)) {
        throw new SdkError(
          'UNSUPPORTED_VERSION',
          `Server chose protocol version ${result.protocolVersion}; this client supports ${this.supportedRevisions.join(', ')}`,
        );
      }
      this.protocol.setRevision(this.moduleFor(result.protocolVersion));
      this.negotiated = result.protocolVersion;
      this.peerCapabilitiesValue = result.capabilities as CapabilityObject;
      this.serverInfoValue = result.serverInfo;
      this.instructionsValue = result.instructions;
      await this.protocol.notification('notifications/initialized', undefined, {});
    } catch (error) {
      this.negotiated = undefined;
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
   * Handles server→client request `method` (sampling, elicitation, roots). Fails with
   * SdkError('CAPABILITY_MISSING') when the client did not declare the capability it needs.
   */
  setRequestHandler<M extends keyof T['serverRequests'] & string>(method: M, handler: ClientRequestHandler<M, T>): void {
    this.registerRequestHandler(method, handler as ClientRequestHandler<M, T>);
  }

  /** Handles server→client notification `method`. */
  setNotificationHandler<M extends keyof T['serverNotifications'] & string>(method: M, handler: ClientNotificationHandler<M, T>): void {
    this.registerNotificationHandler(method, handler as ClientNotificationHandler<M, T>);
  }
}
