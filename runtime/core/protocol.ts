import { nameHeaders } from '../../generated/methods.js';
import type { RevisionModule, Validator } from './contract.js';
import { Dispatcher, type Reply } from './dispatcher.js';
import { asError, messageOf, type ProtocolError, SdkError } from './errors.js';
import type { JSONRPCRequest } from './jsonrpc.js';
import { JSONRPC_ERROR_CODES } from './jsonrpc-codes.js';
import { MethodTable, type CustomNotificationSpec, type CustomRequestSpec, type Side } from './method-table.js';
import { PendingRequests } from './pending-requests.js';
import type {
  NotificationHandler,
  NotificationOptions,
  Params,
  RequestHandler,
  RequestOptions,
} from './request-context.js';
import type { MessageExtra, Transport, TransportSendOptions } from './transport.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, type EngineParts, type ProtocolOptions } from './protocol-options.js';
import { Outbound, type RequestFinish } from './outbound.js';
import { InboundQueue } from './inbound-queue.js';
import { nestingDepthOption } from './inbound-shape.js';
import { refuseDropped, sendReply, type ReplyHost } from './substitute-replies.js';
import { inboundLimits } from './inbound-gate.js';
import { MiddlewareStack, type FillFacts, type HandlerFailure } from './middleware.js';

export { DEFAULT_REQUEST_TIMEOUT_MS, type ProtocolOptions } from './protocol-options.js';

/**
 * The JSON-RPC engine of one connection: correlates requests and responses, dispatches
 * incoming messages to handlers, validates traffic against the bound revision's method table,
 * and implements cancellation, progress and timeouts. It never names protocol facts itself:
 * methods, directions, validators and error codes all come from the RevisionModule.
 */
export class Protocol {
  /**
   * Reports what cannot be thrown to a caller: unknown or invalid notifications, responses to
   * unknown ids, error replies without an id, invalid handler results, failed sends of replies
   * and transport errors. Errors thrown by this callback are swallowed.
   */
  onerror?: ((error: Error) => void) | undefined;
  /** Fires once each time the connection ends, after pending requests were rejected. */
  onclose?: (() => void) | undefined;
  /** The role this engine plays. */
  readonly side: Side;
  /**
   * Decides whether an outgoing notification is sent at all (false drops it silently). The
   * Server uses it to hold back log messages below the level the client asked for.
   */
  notificationFilter?: ((method: string, params: Params | undefined) => boolean) | undefined;
  /**
   * Runs before each incoming request is looked up; may rebind the revision or return the
   * error to answer instead (see DispatchHost.admit). The Server uses it to pick the era.
   */
  admitRequest?: ((request: JSONRPCRequest) => ProtocolError | undefined) | undefined;
  /**
   * Runs before each inbound value (message or batch) is dispatched. Undefined means go on at
   * once; a Promise (the Server loading the revision module the message needs) holds this value
   * and every later one, in order, until it settles (see InboundQueue), so that `admitRequest`
   * then finds the module in memory. Once a connection's modules are loaded this is synchronous.
   */
  prepareIncoming?: ((value: unknown) => Promise<unknown> | undefined) | undefined;
  /**
   * The input schema of a tool the peer has listed, passed to the transport with every
   * outgoing message (see TransportSendOptions.toolInputSchema). The Client sets it.
   */
  toolInputSchema?: ((name: string) => unknown) | undefined;

  /** The middlewares around this engine's incoming and outgoing traffic (see Middleware). */
  readonly middleware: MiddlewareStack;

  private readonly methods: MethodTable;
  private readonly pending: PendingRequests;
  private readonly dispatcher: Dispatcher;
  private connection: Transport | undefined;
  private readonly inbound: InboundQueue<{ readonly transport: Transport; readonly value: unknown; readonly extra: MessageExtra | undefined }>;
  private readonly outbound: Outbound;
  /** The `connection` of every call's facts: an opaque key for middleware's per-connection state. */
  private readonly connectionKey = {};
  /** What sending replies needs from the engine. */
  private readonly replyHost: ReplyHost = {
    connected: (transport) => transport === this.connection,
    internalErrorCode: () => this.revision?.errorCodes.INTERNAL_ERROR ?? JSONRPC_ERROR_CODES.INTERNAL_ERROR,
    report: (error) => this.report(error),
  };

  constructor(options: ProtocolOptions) {
    this.side = options.side;
    this.methods = new MethodTable(options.revision);
    this.onerror = options.onerror;
    this.pending = new PendingRequests((request, error) => {
      this.outbound.sendCancellation(request.id, error.message, request.relatedRequestId);
      request.reject(error);
    });
    const parts: EngineParts = {
      side: this.side,
      methods: this.methods,
      pending: this.pending,
      validateIncoming: options.validate ?? true,
      validateOutgoing: options.validateOutgoing ?? true,
      report: (error) => this.report(error),
    };
    this.outbound = new Outbound(this, parts, options.defaultTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
    this.middleware = new MiddlewareStack((call) => this.fillFacts(call), (error) => this.report(error));
    // Spelled out instead of spreading `parts`: V8 adds each member after a spread on a slow
    // path (microseconds per member), and a Protocol is built per stateless HTTP request.
    this.dispatcher = new Dispatcher({
      side: parts.side,
      methods: parts.methods,
      pending: parts.pending,
      validateIncoming: parts.validateIncoming,
      validateOutgoing: parts.validateOutgoing,
      report: parts.report,
      maxNestingDepth: nestingDepthOption(options.maxNestingDepth),
      inboundLimits: inboundLimits(this.side, options.maxConcurrentInbound, options.maxQueuedInbound),
      sender: {
        notification: (method, params, sendOptions) => this.notification(method, params, sendOptions),
        request: (method, params, sendOptions) => this.middleware.outgoing === undefined
          ? this.request(method, params, sendOptions)
          : this.middleware.runOutgoing(method, params, sendOptions, (given, givenOptions) => this.request(method, given, givenOptions)),
      },
      middleware: this.middleware,
      failed: (failure) => this.reportHandlerFailure(failure),
      admit: (request) => this.admitRequest?.(request),
    });
    this.inbound = new InboundQueue({
      prepare: (item) => this.prepareIncoming?.(item.value),
      deliver: (item) => this.deliver(item.transport, item.value, item.extra),
      report: (error) => this.report(error),
      drop: (item) => refuseDropped(item.transport, item.value, this.replyHost),
    });
  }

  /** The bound revision, if negotiated yet. */
  get revision(): RevisionModule | undefined {
    return this.methods.revision;
  }

  /**
   * Reports a handler that threw something other than a ProtocolError: to `onerror` as
   * SdkError('HANDLER_FAILED') naming the method, the request id and the tool, resource or
   * prompt (with what was thrown as its cause), and to every middleware's `failed`.
   */
  reportHandlerFailure(failure: HandlerFailure): void {
    const target = failure.tool !== undefined ? ` for tool ${failure.tool}` : failure.resource !== undefined ? ` for resource ${failure.resource}` : failure.prompt !== undefined ? ` for prompt ${failure.prompt}` : '';
    const request = failure.requestId === undefined ? '' : ` (request ${JSON.stringify(failure.requestId)})`;
    const { error: _thrown, ...data } = failure;
    this.report(new SdkError('HANDLER_FAILED', `The ${failure.method} handler${target} failed${request}: ${messageOf(failure.error)}`, { cause: failure.error, data }));
    this.middleware.tellFailure(failure);
  }

  /** Binds (or rebinds, after version negotiation) the revision whose table drives the engine. */
  setRevision(revision: RevisionModule): void {
    this.methods.revision = revision;
  }

  /** The connected transport, if any. */
  get transport(): Transport | undefined {
    return this.connection;
  }

  /** Number of outgoing requests awaiting a response. */
  get pendingRequestCount(): number {
    return this.pending.size;
  }

  /**
   * Takes ownership of `transport` (its callbacks are replaced) and starts it. Rejects with
   * SdkError('ALREADY_CONNECTED') while another transport is connected.
   */
  async connect(transport: Transport): Promise<void> {
    if (this.connection !== undefined) {
      throw new SdkError('ALREADY_CONNECTED', 'Protocol is already connected to a transport');
    }
    this.connection = transport;
    // Each callback goes through a local: V8 allocates a function literal assigned straight to a
    // property in the old generation (it takes it for a method), where a connection made per
    // request would stay until a full collection (docs/performance.md, "Closures that die young").
    const onmessage: Transport['onmessage'] = (message, extra) => this.receive(transport, message, extra);
    const onclose = (): void => this.handleClose(transport);
    const onerror = (error: Error): void => this.report(error);
    transport.onmessage = onmessage;
    transport.onclose = onclose;
    transport.onerror = onerror;
    try {
      await transport.start();
    } catch (error) {
      if (this.connection === transport) {
        this.connection = undefined;
      }
      throw error;
    }
  }

  /** Closes the transport; pending requests reject with SdkError('CONNECTION_CLOSED'). */
  async close(): Promise<void> {
    const transport = this.connection;
    if (transport === undefined) {
      return;
    }
    try {
      await transport.close();
    } finally {
      this.handleClose(transport);
    }
  }

  /**
   * Registers the handler of an incoming request method, replacing any previous one. With
   * `runsMiddleware`, the handler runs the incoming middlewares itself (see
   * MiddlewareStack.runIncoming) and the engine does not run them around it.
   */
  setRequestHandler<P = Params | undefined, R = unknown>(method: string, handler: RequestHandler<P, R>, options: { readonly runsMiddleware?: boolean } = {}): void {
    this.dispatcher.requestHandlers.set(method, handler as unknown as RequestHandler);
    if (options.runsMiddleware === true) this.dispatcher.chainingMethods.add(method);
    else this.dispatcher.chainingMethods.delete(method);
  }

  /** The handler of incoming request `method`, if one is registered (to wrap it, say). */
  requestHandler(method: string): RequestHandler | undefined {
    return this.dispatcher.requestHandlers.get(method);
  }

  /** True when a handler for incoming request `method` is registered. */
  handles(method: string): boolean {
    return this.dispatcher.requestHandlers.has(method);
  }

  /** Unregisters a request handler; the method is then answered with METHOD_NOT_FOUND. */
  removeRequestHandler(method: string): void {
    this.dispatcher.requestHandlers.delete(method);
    this.dispatcher.chainingMethods.delete(method);
  }

  /** Registers the handler of an incoming notification method, replacing any previous one. */
  setNotificationHandler<P = Params | undefined>(method: string, handler: NotificationHandler<P>): void {
    this.dispatcher.notificationHandlers.set(method, handler as unknown as NotificationHandler);
  }

  /** Unregisters a notification handler. */
  removeNotificationHandler(method: string): void {
    this.dispatcher.notificationHandlers.delete(method);
  }

  /**
   * Adds a request method that is not in the schema, validated by the given validators. Throws
   * when the bound revision or an earlier registration already defines the name.
   */
  registerCustomRequest(method: string, spec: CustomRequestSpec): void {
    this.methods.addRequest(method, spec);
  }

  /** Adds a notification method that is not in the schema. Throws when the name is taken. */
  registerCustomNotification(method: string, spec: CustomNotificationSpec): void {
    this.methods.addNotification(method, spec);
  }

  /**
   * Lets `method`'s result also have `resultType` (checked by `validator`) both ways: how an
   * extension adds a result shape, such as a task handle on tools/call.
   */
  addResultAlternative(method: string, resultType: string, validator: Validator): void {
    this.methods.addResultAlternative(method, resultType, validator);
  }

  /**
   * Lets `method`'s result also be one without `resultType` that has the own member `member`
   * (checked by `validator`), both ways: 2025-11-25's task handle `{ task }` on tools/call.
   */
  addResultMember(method: string, member: string, validator: Validator): void {
    this.methods.addResultMember(method, member, validator);
  }

  /** Whether `method` is a method of the bound revision or a registered custom method. */
  knows(method: string): boolean {
    return this.methods.lookup(method) !== undefined;
  }

  /**
   * Whether a stateless-era HTTP request for `method` must carry `Mcp-Name`: a custom method
   * says so itself (CustomRequestSpec.nameHeader); a schema method's fact is generated
   * (`nameHeaders`), read by name since the transport checks headers before the request's
   * revision is bound.
   */
  requiresNameHeader(method: string): boolean {
    return this.methods.custom(method)?.nameHeader ?? Object.hasOwn(nameHeaders, method);
  }

  /** Removes a custom method registration; returns whether there was one. */
  unregisterCustomMethod(method: string): boolean {
    return this.methods.remove(method);
  }

  /**
   * Sends a request and resolves with its (validated) result. Rejects with ProtocolError when
   * the peer answers with an error, or SdkError for local failures: NOT_CONNECTED,
   * UNKNOWN_METHOD, WRONG_DIRECTION, INVALID_PARAMS, REQUEST_CANCELLED, REQUEST_TIMEOUT,
   * INVALID_RESULT, SEND_FAILED, CONNECTION_CLOSED. `finish`, when given, turns the validated
   * result into what the promise resolves with (see {@link RequestFinish}): what a caller
   * would do in a `.then`, without that second promise and its reaction.
   */
  request<R = unknown>(method: string, params?: Params, options: RequestOptions = {}, finish?: RequestFinish): Promise<R> {
    return this.outbound.request<R>(method, params, options, finish);
  }

  /**
   * Sends a notification. Rejects with SdkError NOT_CONNECTED, UNKNOWN_METHOD, WRONG_DIRECTION,
   * INVALID_PARAMS or SEND_FAILED.
   */
  notification(method: string, params?: Params, options: NotificationOptions = {}): Promise<void> {
    const middleware = this.middleware;
    return middleware.outgoingNotification === undefined
      ? this.outbound.notification(method, params, options)
      : middleware.runOutgoingNotification(method, params, options, (given, givenOptions) => this.outbound.notification(method, given, givenOptions));
  }

  private receive(transport: Transport, value: unknown, extra: MessageExtra | undefined): void {
    if (transport !== this.connection) {
      return;
    }
    this.inbound.push({ transport, value, extra });
  }

  private deliver(transport: Transport, value: unknown, extra: MessageExtra | undefined): void {
    if (transport !== this.connection) {
      return;
    }
    // A reply worked out synchronously is sent at once: no promise per message for responses,
    // notifications and requests whose handlers return values.
    const reply = this.dispatcher.receive(value, extra);
    if (reply instanceof Promise) {
      void reply.then((settled) => this.sendReplyOf(transport, value, settled));
    } else {
      this.sendReplyOf(transport, value, reply);
    }
  }

  private sendReplyOf(transport: Transport, value: unknown, reply: Reply | undefined): void {
    if (reply === undefined) {
      return;
    }
    if (transport !== this.connection) {
      reply.leave?.();
      return;
    }
    sendReply(transport, reply.message, value, this.outbound.sendOptions(reply.relatedRequestId), this.replyHost, reply.leave);
  }

  private handleClose(transport: Transport): void {
    if (transport !== this.connection) {
      return;
    }
    this.connection = undefined;
    this.inbound.clear();
    // The error (and its stack) is built only when something is left to fail: a stateless
    // server closes its engine after every request with nothing pending.
    if (this.pending.size > 0 || this.dispatcher.busy) {
      const reason = transport.closeReason;
      const error = new SdkError('CONNECTION_CLOSED', reason === undefined ? 'Connection closed' : `Connection closed: ${reason.message}`, { cause: reason });
      this.pending.rejectAll(error);
      this.dispatcher.abortAll(error);
    }
    try {
      this.onclose?.();
    } catch (callbackError) {
      this.report(asError(callbackError));
    }
  }

  /** What middleware learns about the connection with each call. */
  private fillFacts(call: Parameters<FillFacts>[0]): void {
    const revision = this.revision;
    const transport = this.connection;
    call.side = this.side;
    call.revision = revision?.revision;
    call.era = revision?.era;
    call.sessionId = transport?.sessionId;
    call.networkTransport = transport?.networkTransport;
    call.connection = this.connectionKey;
  }

  private report(error: Error): void {
    try {
      this.onerror?.(error);
    } catch {
      // A failing error hook must not break message dispatch.
    }
  }
}
