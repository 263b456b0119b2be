import type { RevisionModule } from './contract.js';
import { messageOf, ProtocolError, SdkError } from './errors.js';
import { errorCode, type StandardErrorName } from './jsonrpc-codes.js';
import {
  classifyMessage,
  isErrorResponse,
  isJsonObject,
  isRequestId,
  JSONRPC_VERSION,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type RequestId,
} from './jsonrpc.js';
import {
  mayBeSentBy,
  MethodTable,
  peerOf,
  type CustomNotificationSpec,
  type CustomRequestSpec,
  type ResolvedMethod,
  type Side,
} from './method-table.js';
import { PendingRequests, type PendingRequest, type Progress } from './pending-requests.js';
import {
  createRequestContext,
  type Meta,
  type NotificationHandler,
  type NotificationOptions,
  type Params,
  type RequestHandler,
  type RequestOptions,
} from './request-context.js';
import { CANCELLED_NOTIFICATION, INITIALIZE_REQUEST, PROGRESS_NOTIFICATION } from './special-methods.js';
import type { MessageExtra, Transport, TransportSendOptions } from './transport.js';
import { checkValue, describeIssues, missingParamsIssue, type IssueReport } from './validation.js';
import { ParseFailure } from './wire-format.js';

/** The per-request timeout used when neither the engine nor the call sets one: 60 seconds. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** Construction options of a {@link Protocol}. */
export interface ProtocolOptions {
  /** The role this engine plays; it accepts only methods the other role may send. */
  readonly side: Side;
  /** The revision to speak; may be bound later with `setRevision()` once negotiated. */
  readonly revision?: RevisionModule | undefined;
  /**
   * Validate everything incoming: request params, response results and notification params.
   * Default true; `false` turns all incoming checks off (method lookup still applies).
   */
  readonly validate?: boolean | undefined;
  /**
   * Validate everything this side sends: handler results (a bad one is answered with an internal
   * error and reported), and params of outgoing requests and notifications (rejected locally
   * with SdkError('INVALID_PARAMS')). Default true.
   */
  readonly validateOutgoing?: boolean | undefined;
  /** Timeout of outgoing requests that set none themselves; default {@link DEFAULT_REQUEST_TIMEOUT_MS}. */
  readonly defaultTimeoutMs?: number | undefined;
  /** Receives problems that have no caller to reject (see {@link Protocol.onerror}). */
  readonly onerror?: ((error: Error) => void) | undefined;
}

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

  private readonly methods: MethodTable;
  private readonly validateIncoming: boolean;
  private readonly validateOutgoing: boolean;
  private readonly defaultTimeoutMs: number;
  private readonly pending: PendingRequests;
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private readonly inflight = new Map<RequestId, AbortController>();
  private connection: Transport | undefined;
  private nextId = 1;

  constructor(options: ProtocolOptions) {
    this.side = options.side;
    this.methods = new MethodTable(options.revision);
    this.validateIncoming = options.validate ?? true;
    this.validateOutgoing = options.validateOutgoing ?? true;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.onerror = options.onerror;
    this.pending = new PendingRequests((request, error) => {
      this.sendCancellation(request.id, error.message);
      request.reject(error);
    });
  }

  /** The bound revision, if negotiated yet. */
  get revision(): RevisionModule | undefined {
    return this.methods.revision;
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
    transport.onmessage = (message, extra) => this.receive(transport, message, extra);
    transport.onclose = () => this.handleClose(transport);
    transport.onerror = (error) => this.report(error);
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

  /** Registers the handler of an incoming request method, replacing any previous one. */
  setRequestHandler<P = Params | undefined, R = unknown>(method: string, handler: RequestHandler<P, R>): void {
    this.requestHandlers.set(method, handler as unknown as RequestHandler);
  }

  /** Unregisters a request handler; the method is then answered with METHOD_NOT_FOUND. */
  removeRequestHandler(method: string): void {
    this.requestHandlers.delete(method);
  }

  /** Registers the handler of an incoming notification method, replacing any previous one. */
  setNotificationHandler<P = Params | undefined>(method: string, handler: NotificationHandler<P>): void {
    this.notificationHandlers.set(method, handler as unknown as NotificationHandler);
  }

  /** Unregisters a notification handler. */
  removeNotificationHandler(method: string): void {
    this.notificationHandlers.delete(method);
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

  /** Removes a custom method registration; returns whether there was one. */
  unregisterCustomMethod(method: string): boolean {
    return this.methods.remove(method);
  }

  /**
   * Sends a request and resolves with its (validated) result. Rejects with ProtocolError when
   * the peer answers with an error, or SdkError for local failures: NOT_CONNECTED,
   * UNKNOWN_METHOD, WRONG_DIRECTION, INVALID_PARAMS, REQUEST_CANCELLED, REQUEST_TIMEOUT,
   * INVALID_RESULT, SEND_FAILED, CONNECTION_CLOSED.
   */
  async request<R = unknown>(method: string, params?: Params, options: RequestOptions = {}): Promise<R> {
    const transport = this.requireConnection();
    const info = this.resolveOutgoing(method, 'request');
    const { signal } = options;
    if (signal?.aborted === true) {
      throw cancelledError(method, signal.reason);
    }
    const id = this.nextId++;
    const tracksProgress = options.onprogress !== undefined || options.resetTimeoutOnProgress === true;
    const sent = tracksProgress ? withProgressToken(params, id) : params;
    this.checkOutgoingParams(info, sent);
    const message: JSONRPCRequest = sent === undefined
      ? { jsonrpc: JSONRPC_VERSION, id, method }
      : { jsonrpc: JSONRPC_VERSION, id, method, params: sent };
    const sendOptions = relatedOptions(options.relatedRequestId);
    return new Promise<R>((resolve, reject) => {
      const onAbort = (): void => {
        const request = this.pending.take(id);
        if (request !== undefined) {
          this.sendCancellation(id, reasonText(signal?.reason), options.relatedRequestId);
          request.reject(cancelledError(method, signal?.reason));
        }
      };
      const detach = (): void => signal?.removeEventListener('abort', onAbort);
      this.pending.add({
        id,
        method,
        resultValidator: this.validateIncoming ? info.result : null,
        tracksProgress,
        onprogress: options.onprogress,
        policy: {
          timeoutMs: options.timeout ?? this.defaultTimeoutMs,
          resetOnProgress: options.resetTimeoutOnProgress ?? false,
          maxTotalTimeoutMs: options.maxTotalTimeout,
        },
        resolve: (result) => {
          detach();
          resolve(result as R);
        },
        reject: (error) => {
          detach();
          reject(error);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      transmit(transport, message, sendOptions).catch((error: unknown) => {
        this.pending.take(id)?.reject(
          new SdkError('SEND_FAILED', `Failed to send ${method}: ${messageOf(error)}`, { cause: error }),
        );
      });
    });
  }

  /**
   * Sends a notification. Rejects with SdkError NOT_CONNECTED, UNKNOWN_METHOD, WRONG_DIRECTION,
   * INVALID_PARAMS or SEND_FAILED.
   */
  async notification(method: string, params?: Params, options: NotificationOptions = {}): Promise<void> {
    const transport = this.requireConnection();
    const info = this.resolveOutgoing(method, 'notification');
    this.checkOutgoingParams(info, params);
    const message: JSONRPCNotification = params === undefined
      ? { jsonrpc: JSONRPC_VERSION, method }
      : { jsonrpc: JSONRPC_VERSION, method, params };
    try {
      await transmit(transport, message, relatedOptions(options.relatedRequestId));
    } catch (error) {
      throw new SdkError('SEND_FAILED', `Failed to send ${method}: ${messageOf(error)}`, { cause: error });
    }
  }

  private receive(transport: Transport, value: unknown, extra: MessageExtra | undefined): void {
    if (transport !== this.connection) {
      return;
    }
    if (value instanceof ParseFailure) {
      const reply = value.kind === 'invalid-json'
        ? this.errorResponse(null, 'PARSE_ERROR', `Parse error: ${value.detail}`)
        : this.errorResponse(null, 'INVALID_REQUEST', `Invalid Request: ${value.detail}`);
      this.reply(transport, reply);
      return;
    }
    if (Array.isArray(value)) {
      void this.receiveBatch(transport, value, extra);
      return;
    }
    void this.dispatch(value, extra).then((reply) => {
      if (reply !== undefined) {
        this.reply(transport, reply, reply.id ?? undefined);
      }
    });
  }

  private async receiveBatch(transport: Transport, items: unknown[], extra: MessageExtra | undefined): Promise<void> {
    const refusal = this.batchRefusal(items);
    if (refusal !== undefined) {
      this.reply(transport, this.errorResponse(null, 'INVALID_REQUEST', `Invalid Request: ${refusal}`));
      return;
    }
    const replies = await Promise.all(items.map((item) => this.dispatch(item, extra)));
    const answered = replies.filter((reply): reply is JSONRPCResponse => reply !== undefined);
    if (answered.length > 0) {
      this.reply(transport, answered);
    }
  }

  private batchRefusal(items: unknown[]): string | undefined {
    const revision = this.revision;
    if (revision === undefined) {
      return 'batches are not accepted before a revision is bound';
    }
    if (!revision.batching) {
      return `revision ${revision.revision} does not allow JSON-RPC batches`;
    }
    if (items.length === 0) {
      return 'empty batch';
    }
    if (items.some((item) => isJsonObject(item) && item.method === INITIALIZE_REQUEST)) {
      return `${INITIALIZE_REQUEST} must not be part of a batch`;
    }
    return undefined;
  }

  /** Handles one non-batch message; resolves with the reply to send, if any. Never rejects. */
  private async dispatch(value: unknown, extra: MessageExtra | undefined): Promise<JSONRPCResponse | undefined> {
    const classified = classifyMessage(value);
    switch (classified.kind) {
      case 'invalid':
        return this.errorResponse(classified.id, 'INVALID_REQUEST', `Invalid Request: ${classified.reason}`);
      case 'request':
        return this.handleRequest(classified.message, extra);
      case 'notification':
        this.handleNotification(classified.message, extra);
        return undefined;
      case 'response':
        this.handleResponse(classified.message);
        return undefined;
    }
  }

  private async handleRequest(message: JSONRPCRequest, extra: MessageExtra | undefined): Promise<JSONRPCResponse | undefined> {
    const { id, method, params } = message;
    const info = this.methods.lookup(method);
    const handler = this.requestHandlers.get(method);
    if (!this.acceptsFromPeer(info, 'request') || handler === undefined) {
      return this.errorResponse(id, 'METHOD_NOT_FOUND', `Method not found: ${method}`);
    }
    if (this.inflight.has(id)) {
      return this.errorResponse(id, 'INVALID_REQUEST', `Invalid Request: id ${JSON.stringify(id)} is already in use`);
    }
    const issues = this.validateIncoming ? paramsIssues(info, params) : null;
    if (issues !== null) {
      const text = `Invalid params for ${method}: ${describeIssues(issues, 'params')}`;
      return this.errorResponse(id, 'INVALID_PARAMS', text, { issues });
    }
    const controller = new AbortController();
    this.inflight.set(id, controller);
    const context = createRequestContext({
      method,
      requestId: id,
      signal: controller.signal,
      meta: metaOf(params),
      extra,
      sender: this,
    });
    let result: unknown;
    try {
      result = await handler(params as Params | undefined, context);
    } catch (error) {
      return controller.signal.aborted ? undefined : this.handlerFailure(id, error);
    } finally {
      if (this.inflight.get(id) === controller) {
        this.inflight.delete(id);
      }
    }
    if (controller.signal.aborted) {
      return undefined;
    }
    return this.resultResponse(id, info, result ?? {});
  }

  private resultResponse(id: RequestId, info: ResolvedMethod, result: unknown): JSONRPCResponse {
    const issues = this.validateOutgoing && info.result !== null ? checkValue(info.result, result) : null;
    if (issues !== null) {
      const text = `Handler for ${info.method} returned an invalid result: ${describeIssues(issues, 'result')}`;
      this.report(new SdkError('INVALID_RESULT', text, { data: { issues } }));
      return this.errorResponse(id, 'INTERNAL_ERROR', text);
    }
    return { jsonrpc: JSONRPC_VERSION, id, result };
  }

  private handlerFailure(id: RequestId, error: unknown): JSONRPCErrorResponse {
    if (error instanceof ProtocolError) {
      return { jsonrpc: JSONRPC_VERSION, id, error: error.toJSON() };
    }
    return this.errorResponse(id, 'INTERNAL_ERROR', messageOf(error));
  }

  private handleNotification(message: JSONRPCNotification, extra: MessageExtra | undefined): void {
    const { method, params } = message;
    const info = this.methods.lookup(method);
    if (!this.acceptsFromPeer(info, 'notification')) {
      this.report(new SdkError('UNKNOWN_METHOD', `Dropped notification ${method}: not a notification the ${peerOf(this.side)} may send`));
      return;
    }
    const issues = this.validateIncoming ? paramsIssues(info, params) : null;
    if (issues !== null) {
      const text = `Dropped invalid notification ${method}: ${describeIssues(issues, 'params')}`;
      this.report(new SdkError('INVALID_NOTIFICATION', text, { data: { issues } }));
      return;
    }
    if (method === CANCELLED_NOTIFICATION) {
      this.applyCancellation(params);
    } else if (method === PROGRESS_NOTIFICATION) {
      this.applyProgress(params);
    }
    const handler = this.notificationHandlers.get(method);
    if (handler === undefined) {
      return;
    }
    const context = { method, _meta: metaOf(params), extra };
    void (async () => handler(params as Params | undefined, context))().catch((error: unknown) => {
      this.report(error instanceof Error ? error : new Error(messageOf(error)));
    });
  }

  private applyCancellation(params: unknown): void {
    const requestId = isJsonObject(params) ? params.requestId : undefined;
    if (!isRequestId(requestId)) {
      return;
    }
    const controller = this.inflight.get(requestId);
    if (controller === undefined) {
      return;
    }
    this.inflight.delete(requestId);
    const reason = isJsonObject(params) && typeof params.reason === 'string' ? params.reason : undefined;
    const text = reason === undefined ? 'Cancelled by peer' : `Cancelled by peer: ${reason}`;
    controller.abort(new SdkError('REQUEST_CANCELLED', text, { data: { reason } }));
  }

  private applyProgress(params: unknown): void {
    if (!isJsonObject(params)) {
      return;
    }
    const request = this.pending.touch(params.progressToken);
    if (request === undefined) {
      this.report(new SdkError('UNEXPECTED_RESPONSE', `Progress for unknown token ${JSON.stringify(params.progressToken)}`));
      return;
    }
    if (request.onprogress === undefined) {
      return;
    }
    try {
      request.onprogress(progressOf(params));
    } catch (error) {
      this.report(error instanceof Error ? error : new Error(messageOf(error)));
    }
  }

  private handleResponse(message: JSONRPCResponse): void {
    if (message.id === null) {
      const error = ProtocolError.fromError((message as JSONRPCErrorResponse).error);
      this.report(new ProtocolError(error.code, `Peer reported an error without request id: ${error.message}`, error.data));
      return;
    }
    const request = this.pending.take(message.id);
    if (request === undefined) {
      this.report(new SdkError('UNEXPECTED_RESPONSE', `Response for unknown request id ${JSON.stringify(message.id)}`, {
        data: { id: message.id },
      }));
      return;
    }
    if (isErrorResponse(message)) {
      request.reject(ProtocolError.fromError(message.error));
      return;
    }
    this.settleResult(request, message.result);
  }

  private settleResult(request: PendingRequest, result: unknown): void {
    const issues = request.resultValidator === null ? null : checkValue(request.resultValidator, result);
    if (issues === null) {
      request.resolve(result);
      return;
    }
    const text = `Invalid result for ${request.method}: ${describeIssues(issues, 'result')}`;
    request.reject(new SdkError('INVALID_RESULT', text, { data: { issues } }));
  }

  private handleClose(transport: Transport): void {
    if (transport !== this.connection) {
      return;
    }
    this.connection = undefined;
    const reason = transport.closeReason;
    const error = new SdkError(
      'CONNECTION_CLOSED',
      reason === undefined ? 'Connection closed' : `Connection closed: ${reason.message}`,
      { cause: reason },
    );
    this.pending.rejectAll(error);
    const controllers = [...this.inflight.values()];
    this.inflight.clear();
    for (const controller of controllers) {
      controller.abort(error);
    }
    try {
      this.onclose?.();
    } catch (callbackError) {
      this.report(callbackError instanceof Error ? callbackError : new Error(messageOf(callbackError)));
    }
  }

  private acceptsFromPeer(info: ResolvedMethod | undefined, kind: ResolvedMethod['kind']): info is ResolvedMethod {
    return info !== undefined && info.kind === kind && !info.embedded && mayBeSentBy(info.direction, peerOf(this.side));
  }

  private resolveOutgoing(method: string, kind: ResolvedMethod['kind']): ResolvedMethod {
    const info = this.methods.lookup(method);
    if (info === undefined || info.kind !== kind || info.embedded) {
      const where = this.revision === undefined ? 'no revision is bound' : `revision ${this.revision.revision}`;
      throw new SdkError('UNKNOWN_METHOD', `${method} is not a ${kind} of ${where} nor a registered custom ${kind}`);
    }
    if (!mayBeSentBy(info.direction, this.side)) {
      throw new SdkError('WRONG_DIRECTION', `${method} cannot be sent by the ${this.side}`);
    }
    return info;
  }

  private checkOutgoingParams(info: ResolvedMethod, params: Params | undefined): void {
    const issues = this.validateOutgoing ? paramsIssues(info, params) : null;
    if (issues !== null) {
      throw new SdkError('INVALID_PARAMS', `Invalid params for ${info.method}: ${describeIssues(issues, 'params')}`, {
        data: { issues },
      });
    }
  }

  private requireConnection(): Transport {
    if (this.connection === undefined) {
      throw new SdkError('NOT_CONNECTED', 'Protocol is not connected to a transport');
    }
    return this.connection;
  }

  private sendCancellation(requestId: number, reason: string, relatedRequestId?: RequestId): void {
    if (this.connection === undefined) {
      return;
    }
    this.notification(CANCELLED_NOTIFICATION, { requestId, reason }, { relatedRequestId }).catch((error: unknown) => {
      this.report(error instanceof Error ? error : new Error(messageOf(error)));
    });
  }

  private reply(transport: Transport, reply: JSONRPCResponse | JSONRPCResponse[], relatedRequestId?: RequestId): void {
    if (transport !== this.connection) {
      return;
    }
    transmit(transport, reply, relatedOptions(relatedRequestId)).catch((error: unknown) => {
      this.report(new SdkError('SEND_FAILED', `Failed to send a reply: ${messageOf(error)}`, { cause: error }));
    });
  }

  private errorResponse(id: RequestId | null, name: StandardErrorName, message: string, data?: unknown): JSONRPCErrorResponse {
    const error = new ProtocolError(errorCode(this.revision, name), message, data);
    return { jsonrpc: JSONRPC_VERSION, id, error: error.toJSON() };
  }

  private report(error: Error): void {
    try {
      this.onerror?.(error);
    } catch {
      // A failing error hook must not break message dispatch.
    }
  }
}

/** Calls `transport.send` so that a synchronous throw becomes a rejection. */
async function transmit(
  transport: Transport,
  message: JSONRPCMessage | JSONRPCMessage[],
  options: TransportSendOptions | undefined,
): Promise<void> {
  await transport.send(message, options);
}

function relatedOptions(relatedRequestId: RequestId | undefined): TransportSendOptions | undefined {
  return relatedRequestId === undefined ? undefined : { relatedRequestId };
}

function paramsIssues(info: ResolvedMethod, params: unknown): IssueReport[] | null {
  if (params === undefined) {
    return info.paramsRequired ? missingParamsIssue() : null;
  }
  return checkValue(info.params, params);
}

function metaOf(params: unknown): Meta | undefined {
  return isJsonObject(params) && isJsonObject(params._meta) ? params._meta : undefined;
}

function withProgressToken(params: Params | undefined, token: number): Params {
  const meta = isJsonObject(params?._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, progressToken: token } };
}

function progressOf(params: { [key: string]: unknown }): Progress {
  const progress: { progress: number; total?: number; message?: string } = { progress: params.progress as number };
  if (typeof params.total === 'number') {
    progress.total = params.total;
  }
  if (typeof params.message === 'string') {
    progress.message = params.message;
  }
  return progress;
}

function reasonText(reason: unknown): string {
  if (reason === undefined) {
    return 'Request cancelled';
  }
  return messageOf(reason);
}

function cancelledError(method: string, reason: unknown): SdkError {
  return new SdkError('REQUEST_CANCELLED', `Request ${method} was cancelled: ${reasonText(reason)}`, { cause: reason });
}
