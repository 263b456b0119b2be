import { describePath, hasCapability, type CapabilityObject } from '../era/capabilities.js';
import type { RevisionModule } from '../core/contract.js';
import type { CustomNotification, CustomNotificationDefinition, CustomRequest, CustomRequestDefinition } from './custom-methods.js';
import { SdkError } from '../core/errors.js';
import type { Side } from '../core/method-table.js';
import type { RequestFinish } from '../core/outbound.js';
import { Protocol, type ProtocolOptions } from '../core/protocol.js';
import type { NotificationHandler, NotificationOptions, Params, RequestHandler, RequestOptions } from '../core/request-context.js';
import type { RevisionLoader } from '../core/revision-set.js';
import type { RevisionSet } from '../core/revision-set.js';
import { declareExtensions, wrapRequestHandler, type Extension } from './extension.js';
import type { Middleware } from '../core/middleware.js';
import type { Negotiated } from '../era/negotiated.js';
import { Method } from '../../generated/methods.js';

/** Options shared by Client and Server. */
export interface EndpointOptions {
  /** Validate every incoming message and received result (default true). */
  readonly validate?: boolean;
  /** Validate what this endpoint sends, handler results included (default true). */
  readonly validateOutgoing?: boolean;
  /**
   * The revision modules to speak, used as they are: nothing is loaded at run time, so a
   * program that imports `revisionModule` from `mcpgen/2025-11-25` and passes it here carries
   * that revision alone (and a Worker needs no dynamic import). Also how a revision that is
   * generated but not pinned in this package is used. Default: every released revision mcpgen
   * ships, each loaded the first time a peer negotiates it.
   */
  readonly revisions?: readonly RevisionModule[];
  /**
   * How the pinned revisions' modules load when `revisions` is not given (default: a dynamic
   * `import()` of the generated module, cached per process). For bundlers that need another
   * way to reach the modules, and for tests.
   */
  readonly revisionLoader?: RevisionLoader;
  /** Timeout of requests that set none (default 60 s). */
  readonly defaultTimeoutMs?: number;
  /**
   * How deeply objects and arrays may nest in a message from the peer, the message being level 1
   * (default 100, at most 1,000). A deeper request is answered -32602 naming the path before
   * any handler, validator or digest reads it; a deeper notification is dropped and a deeper
   * response fails its request, both reported to `onerror`.
   */
  readonly maxNestingDepth?: number;
  /**
   * Most of the peer's requests handled at once (default 16 for a Client, 256 for a Server);
   * the place of each is held until its reply is sent, so replies are throttled too.
   */
  readonly maxConcurrentInbound?: number;
  /**
   * Most of the peer's requests waiting for a place (default 1,000 for a Client, 10,000 for
   * a Server); beyond it a request is answered at once with -32603, "overloaded".
   */
  readonly maxQueuedInbound?: number;
  /** Receives errors that have no caller to reject. */
  readonly onerror?: (error: Error) => void;
  /**
   * Middlewares around every request and notification the peer sends and every request this
   * endpoint sends, the first outermost (see {@link Middleware}); more can be added with `use`.
   */
  readonly middleware?: readonly Middleware[];
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
  /** The revisions this endpoint speaks: their facts, and their modules once loaded. */
  protected readonly revisions: RevisionSet;
  /**
   * The revision the engine speaks until the peer's first message says otherwise: the newest
   * one with a handshake, because that is what an `initialize` must be checked against.
   */
  protected readonly defaultRevision: string;
  /** The extensions this endpoint speaks, as given in its options. */
  readonly extensions: readonly Extension[];

  protected readonly ownCapabilities: CapabilityObject;
  /** What this endpoint and its peer settled on (see {@link Negotiated}); undefined until they did. */
  protected state: Negotiated | undefined;

  protected constructor(side: Side, capabilities: CapabilityObject, revisions: RevisionSet, options: EndpointOptions) {
    this.ownCapabilities = declareExtensions(capabilities, options.extensions);
    this.extensions = options.extensions ?? [];
    this.revisions = revisions;
    this.supportedRevisions = revisions.revisions;
    const stateful = revisions.ofEra('stateful');
    this.defaultRevision = stateful.length > 0 ? stateful[stateful.length - 1]! : revisions.revisions[revisions.revisions.length - 1]!;
    // Every member is written, undefined where unset, instead of spreading conditional objects:
    // a literal with members after a spread is slow to build in V8, and an endpoint is built per
    // stateless HTTP request. The Protocol treats an undefined option as unset.
    const protocolOptions: ProtocolOptions = {
      side,
      // Bound now when its module is in memory (supplied by the caller, or loaded earlier in this
      // process); otherwise the first message binds it.
      revision: revisions.module(this.defaultRevision),
      validate: options.validate ?? true,
      validateOutgoing: options.validateOutgoing ?? true,
      defaultTimeoutMs: options.defaultTimeoutMs,
      maxNestingDepth: options.maxNestingDepth,
      maxConcurrentInbound: options.maxConcurrentInbound,
      maxQueuedInbound: options.maxQueuedInbound,
      onerror: options.onerror,
    };
    this.protocol = new Protocol(protocolOptions);
    // Through a local, so that the closure dies young with a per-request endpoint (see Protocol.connect).
    const onclose = (): void => this.onclose?.();
    this.protocol.onclose = onclose;
    // Ping is answered in every state, by both roles.
    this.protocol.setRequestHandler(Method.Ping, () => ({}));
    for (const middleware of options.middleware ?? []) this.protocol.middleware.use(middleware);
    for (const extension of this.extensions) extension.install?.(this);
  }

  /**
   * Adds a middleware after those already added (see {@link Middleware}); returns the function
   * that removes it again.
   *
   * @example
   * ```ts
   * import { Client } from 'mcpgen';
   *
   * const client = new Client({ name: 'demo', version: '1.0.0' });
   * const stop = client.use({
   *   outgoing: (call, next) => next({ ...call.params, _meta: { ...(call.params?._meta as object | undefined), 'example.com/caller': 'demo' } }),
   * });
   * stop();
   * ```
   */
  use(middleware: Middleware): () => void {
    return this.protocol.middleware.use(middleware);
  }

  /** The negotiated protocol revision, once the handshake completed. */
  get protocolVersion(): string | undefined {
    return this.state?.revision;
  }

  /**
   * True when the negotiated revision has `method` (elicitation/create arrived in 2025-06-18,
   * for example), so callers can adapt instead of catching a refusal.
   */
  supports(method: string): boolean {
    return this.state !== undefined && this.protocol.revision?.methods[method] !== undefined;
  }

  /** The module of a supported revision, which must be loaded (throws otherwise). */
  protected moduleFor(revision: string): RevisionModule {
    return this.revisions.loadedModule(revision);
  }

  /** Binds the default revision to the engine if nothing is bound yet; undefined once it is in memory. */
  protected bindDefault(): Promise<unknown> | undefined {
    if (this.protocol.revision !== undefined) return undefined;
    const module = this.revisions.module(this.defaultRevision);
    if (module !== undefined) {
      this.protocol.setRevision(module);
      return undefined;
    }
    return this.revisions.load(this.defaultRevision).then((loaded) => {
      if (this.protocol.revision === undefined) this.protocol.setRevision(loaded);
    });
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
    this.assertNotInSchema(method);
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
    this.assertNotInSchema(method);
    this.protocol.registerCustomNotification(method, { params, direction, paramsRequired: paramsRequired ?? false });
    return {
      method,
      send: (value, options) => this.sendNotification(method, value, options),
      handle: (handler) => this.registerNotificationHandler(method, handler as NotificationHandler<never>),
    };
  }

  /** A custom method must not take the name of a method of the default revision (which wins lookups). */
  private assertNotInSchema(method: string): void {
    if (this.protocol.revision === undefined && Object.hasOwn(this.revisions.facts(this.defaultRevision).methods, method)) {
      throw new Error(`${method} is defined by revision ${this.defaultRevision}`);
    }
  }

  /** Closes the connection; pending requests reject with SdkError('CONNECTION_CLOSED'). */
  close(): Promise<void> {
    return this.protocol.close();
  }

  /**
   * Registers a handler for a request the peer sends. Fails with SdkError('CAPABILITY_MISSING')
   * when the method is gated by a capability this endpoint did not declare.
   */
  protected registerRequestHandler(method: string, handler: RequestHandler<never, unknown>, options: { readonly runsMiddleware?: boolean } = {}): void {
    const gate = this.revisions.gateOf(method);
    if (gate?.holder === 'receiver' && !hasCapability(this.ownCapabilities, gate.path)) {
      throw new SdkError('CAPABILITY_MISSING', `Cannot handle ${method}: capability ${describePath(gate.path)} was not declared`);
    }
    this.protocol.setRequestHandler(method, wrapRequestHandler(this, method, handler as RequestHandler), options);
  }

  protected registerNotificationHandler(method: string, handler: NotificationHandler<never>): void {
    this.protocol.setNotificationHandler(method, handler as NotificationHandler);
  }

  /** Sends a request through the outgoing middlewares (see {@link transmitRequest}). */
  protected sendRequest(method: string, params: unknown, options: RequestOptions | undefined): Promise<unknown> {
    const middleware = this.protocol.middleware;
    if (middleware.outgoing === undefined) return this.transmitRequest(method, params, options);
    return middleware.runOutgoing(method, params as Params | undefined, options ?? {}, (given, givenOptions) => this.transmitRequest(method, given, givenOptions));
  }

  /** Runs `send` through the outgoing middlewares, for requests that bypass {@link sendRequest} (the handshake). */
  protected throughOutgoing(method: string, params: Params, options: RequestOptions, send: (params: Params | undefined, options: RequestOptions) => Promise<unknown>): Promise<unknown> {
    const middleware = this.protocol.middleware;
    return middleware.outgoing === undefined ? send(params, options) : middleware.runOutgoing(method, params, options, send);
  }

  /**
   * Sends a request after checking the capability gating it (normally the peer's). Not async:
   * a refusal is a rejection all the same, and the call returns the engine's own promise
   * instead of a second one that waits for it.
   */
  protected transmitRequest(method: string, params: unknown, options: RequestOptions | undefined): Promise<unknown> {
    return this.sendChecked(method, params, options);
  }

  /**
   * What {@link transmitRequest} does here, for subclasses that override it: checks the
   * capability, then sends, `finish` turning the result into what the promise resolves with
   * (see Protocol.request).
   */
  protected sendChecked(method: string, params: unknown, options: RequestOptions | undefined, finish?: RequestFinish): Promise<unknown> {
    try {
      this.requireSendable(method);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.protocol.request(method, params as Params | undefined, options ?? {}, finish);
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
    if (!hasCapability(own ? this.ownCapabilities : this.state?.peerCapabilities, gate.path)) {
      const whose = own ? 'this endpoint did not declare' : 'the peer did not declare';
      throw new SdkError('CAPABILITY_MISSING', `Cannot send ${method}: ${whose} capability ${describePath(gate.path)}`);
    }
  }

  private requireReady(method: string): void {
    if (this.state === undefined) {
      throw new SdkError('NOT_CONNECTED', `Cannot send ${method} before the initialize handshake completed`);
    }
  }
}
