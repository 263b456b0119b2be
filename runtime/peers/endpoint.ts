import { describePath, gateOf, hasCapability, type CapabilityObject } from '../core/capabilities.js';
import type { RevisionModule } from '../core/contract.js';
import type { CustomNotification, CustomNotificationDefinition, CustomRequest, CustomRequestDefinition } from '../core/custom-methods.js';
import { SdkError } from '../core/errors.js';
import type { Side } from '../core/method-table.js';
import { Protocol, type ProtocolOptions } from '../core/protocol.js';
import type { NotificationHandler, NotificationOptions, Params, RequestHandler, RequestOptions } from '../core/request-context.js';
import type { Transport } from '../core/transport.js';
import { declareExtensions, type Extension } from './extension.js';
import { Method } from '../../generated/methods.js';

/** Options shared by Client and Server. */
export interface EndpointOptions {
  /** Validate every incoming message and received result (default true). */
  readonly validate?: boolean;
  /** Validate what this endpoint sends, handler results included (default true). */
  readonly validateOutgoing?: boolean;
  /**
   * The revision modules to choose from, for a revision that is generated but not pinned in
   * this package (default: every released stateful revision mcpgen ships).
   */
  readonly revisions?: readonly RevisionModule[];
  /** Timeout of requests that set none (default 60 s). */
  readonly defaultTimeoutMs?: number;
  /** Receives errors that have no caller to reject. */
  readonly onerror?: (error: Error) => void;
  /**
   * Extensions this endpoint speaks: each is declared under `capabilities.extensions` and
   * installs its methods (see {@link Extension}).
   */
  readonly extensions?: readonly Extension[];
}

/**
 * What Client and Server share: the engine, capability checks and the lifecycle state. The
 * subclasses add the role-specific half of the `initialize` handshake.
 */
export abstract class Endpoint {
  /** The JSON-RPC engine; exposed for custom methods and advanced use. */
  readonly protocol: Protocol;
  /** Fires when the connection ends. */
  onclose?: () => void;
  /** Revisions this endpoint speaks, oldest first. */
  readonly supportedRevisions: readonly string[];
  private readonly modules: readonly RevisionModule[];
  /** The extensions this endpoint speaks, as given in its options. */
  readonly extensions: readonly Extension[];

  protected readonly ownCapabilities: CapabilityObject;
  protected peerCapabilitiesValue: CapabilityObject | undefined;
  protected negotiated: string | undefined;

  protected constructor(side: Side, capabilities: CapabilityObject, modules: readonly RevisionModule[], options: EndpointOptions) {
    this.ownCapabilities = declareExtensions(capabilities, options.extensions);
    this.extensions = options.extensions ?? [];
    this.modules = modules;
    this.supportedRevisions = modules.map((module) => module.revision);
    // Until the peer's first message says otherwise, the engine speaks the newest revision with a
    // handshake, because that is what an `initialize` must be checked against.
    const stateful = modules.filter((module) => module.era === 'stateful');
    const protocolOptions: ProtocolOptions = {
      side,
      revision: (stateful.length > 0 ? stateful : modules)[(stateful.length > 0 ? stateful : modules).length - 1]!,
      validate: options.validate ?? true,
      validateOutgoing: options.validateOutgoing ?? true,
      ...(options.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: options.defaultTimeoutMs } : {}),
      onerror: options.onerror,
    };
    this.protocol = new Protocol(protocolOptions);
    this.protocol.onclose = () => this.onclose?.();
    // Ping is answered in every state, by both roles.
    this.protocol.setRequestHandler(Method.Ping, () => ({}));
    for (const extension of this.extensions) extension.install?.(this);
  }

  /** The negotiated protocol revision, once the handshake completed. */
  get protocolVersion(): string | undefined {
    return this.negotiated;
  }

  /**
   * True when the negotiated revision has `method` (elicitation/create arrived in 2025-06-18,
   * for example), so callers can adapt instead of catching a refusal.
   */
  supports(method: string): boolean {
    return this.negotiated !== undefined && this.protocol.revision?.methods[method] !== undefined;
  }

  /** The revision modules this endpoint may speak. */
  protected get revisionModules(): readonly RevisionModule[] {
    return this.modules;
  }

  /** The module of a supported revision (throws for any other). */
  protected moduleFor(revision: string): RevisionModule {
    const module = this.modules.find((candidate) => candidate.revision === revision);
    if (module === undefined) throw new RangeError(`Protocol revision ${revision} is not supported here (${this.supportedRevisions.join(', ')})`);
    return module;
  }

  /**
   * Adds a request method the schema does not have (an extension's, say), with validators
   * that type its params and result. Both peers register the same definition; the returned
   * handle sends it and installs its handler.
   *
   * @example
   * ```ts
   * const search = client.customRequest({ method: 'x-acme/search', params: isQuery, result: isHits, direction: 'client-to-server' });
   * const hits = await search.send({ q: 'mcp' });
   * ```
   */
  customRequest<P, R>(definition: CustomRequestDefinition<P, R>): CustomRequest<P, R> {
    const { method, params, result, direction, paramsRequired } = definition;
    this.protocol.registerCustomRequest(method, { params, result, direction, paramsRequired: paramsRequired ?? false });
    return {
      method,
      send: (value, options) => this.sendRequest(method, value, options) as Promise<R>,
      handle: (handler) => this.registerRequestHandler(method, handler as RequestHandler<never, unknown>),
    };
  }

  /** Adds a notification method the schema does not have; see {@link customRequest}. */
  customNotification<P>(definition: CustomNotificationDefinition<P>): CustomNotification<P> {
    const { method, params, direction, paramsRequired } = definition;
    this.protocol.registerCustomNotification(method, { params, direction, paramsRequired: paramsRequired ?? false });
    return {
      method,
      send: (value, options) => this.sendNotification(method, value, options),
      handle: (handler) => this.registerNotificationHandler(method, handler as NotificationHandler<never>),
    };
  }

  /** Closes the connection; pending requests reject with SdkError('CONNECTION_CLOSED'). */
  async close(): Promise<void> {
    await this.protocol.close();
  }

  /**
   * Registers a handler for a request the peer sends. Fails with SdkError('CAPABILITY_MISSING')
   * when the method is gated by a capability this endpoint did not declare.
   */
  protected registerRequestHandler(method: string, handler: RequestHandler<never, unknown>): void {
    const gate = gateOf(method, this.revisionModules);
    if (gate?.holder === 'receiver' && !hasCapability(this.ownCapabilities, gate.path)) {
      throw new SdkError('CAPABILITY_MISSING', `Cannot handle ${method}: capability ${describePath(gate.path)} was not declared`);
    }
    this.protocol.setRequestHandler(method, handler as RequestHandler);
  }

  protected registerNotificationHandler(method: string, handler: NotificationHandler<never>): void {
    this.protocol.setNotificationHandler(method, handler as NotificationHandler);
  }

  /** Sends a request after checking the capability gating it (normally the peer's). */
  protected async sendRequest(method: string, params: unknown, options: RequestOptions | undefined): Promise<unknown> {
    this.requireSendable(method);
    return this.protocol.request(method, params as Params | undefined, options ?? {});
  }

  /** Sends a notification after checking the capability gating it (normally this endpoint's). */
  protected async sendNotification(method: string, params: unknown, options?: NotificationOptions): Promise<void> {
    this.requireSendable(method);
    return this.protocol.notification(method, params as Params | undefined, options ?? {});
  }

  private requireSendable(method: string): void {
    this.requireReady(method);
    const gate = this.protocol.revision?.methods[method]?.capability;
    if (!gate) return;
    const own = gate.holder === 'sender';
    if (!hasCapability(own ? this.ownCapabilities : this.peerCapabilitiesValue, gate.path)) {
      const whose = own ? 'this endpoint did not declare' : 'the peer did not declare';
      throw new SdkError('CAPABILITY_MISSING', `Cannot send ${method}: ${whose} capability ${describePath(gate.path)}`);
    }
  }

  private requireReady(method: string): void {
    if (this.negotiated === undefined) {
      throw new SdkError('NOT_CONNECTED', `Cannot send ${method} before the initialize handshake completed`);
    }
  }
}
