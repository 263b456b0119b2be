import { asError, messageOf, ProtocolError, SdkError } from './errors.js';
import { applyProgress, failPending, settleResponse } from './inbound-responses.js';
import { errorCode, type StandardErrorName } from './jsonrpc-codes.js';
import {
  type Classification,
  classifyMessage,
  isJsonObject,
  isRequestId,
  JSONRPC_VERSION,
  type JSONRPCErrorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type RequestId,
} from './jsonrpc.js';
import { mayBeSentBy, peerOf, type ResolvedMethod } from './method-table.js';
import { metaOf, paramsIssues } from './message-params.js';
import type { EngineParts } from './protocol-options.js';
import { InboundGate, type InboundLimits, type Leave } from './inbound-gate.js';
import {
  HandlerContext,
  type ContextSender,
  type NotificationHandler,
  type Params,
  type RequestHandler,
} from './request-context.js';
import { CANCELLED_NOTIFICATION, INITIALIZE_REQUEST, PROGRESS_NOTIFICATION } from './special-methods.js';
import type { MessageExtra } from './transport.js';
import { checkValue, describeIssues } from './validation.js';
import { ParseFailure } from './wire-format.js';
import { inspectInbound, type NestingExcess } from './inbound-shape.js';
import type { HandlerFailure, MiddlewareStack } from './middleware.js';
import { isThenable } from './thenable.js';
import { IdTable } from './id-table.js';

/** What the dispatcher shares with the engine that owns it. */
export interface DispatchHost extends EngineParts {
  /** The deepest nesting an inbound message may have (see ProtocolOptions.maxNestingDepth). */
  readonly maxNestingDepth: number;
  /** How many of the peer's requests run at once and how many more wait (see InboundGate). */
  readonly inboundLimits: InboundLimits;
  /** Sends on behalf of handler contexts. */
  readonly sender: ContextSender;
  /** The middlewares around handlers; the dispatcher only checks whether any is registered. */
  readonly middleware: MiddlewareStack;
  /** Receives a handler that threw something other than a ProtocolError (the peer is answered anyway). */
  failed(failure: HandlerFailure): void;
  /**
   * Runs before an incoming request is looked up: it may bind another revision to the engine
   * (a dual-era server picks its era from the request's envelope) or refuse the request with
   * the error to answer.
   */
  readonly admit?: ((request: JSONRPCRequest) => ProtocolError | undefined) | undefined;
}

/** A reply to send for one inbound value. */
export interface Reply {
  readonly message: JSONRPCResponse | JSONRPCResponse[];
  /** The request a single response answers, as a transport routing hint. */
  readonly relatedRequestId?: RequestId | undefined;
  /**
   * Frees the handler place the answered request still holds; the engine calls it once the
   * reply has been handed to the transport, so that replies waiting to be sent count against
   * the bound too. Absent when nothing is held.
   */
  readonly leave?: Leave | undefined;
}

/**
 * Handles everything that arrives on a connection: decodes nothing (transports did), but
 * classifies, checks against the method table, runs handlers, settles outgoing requests, and
 * works out the reply. It never sends by itself; the engine sends what `receive` resolves with.
 */
export class Dispatcher {
  /** Incoming request handlers by method. */
  readonly requestHandlers = new Map<string, RequestHandler>();
  /** Incoming notification handlers by method. */
  readonly notificationHandlers = new Map<string, NotificationHandler>();
  /**
   * Methods whose request handlers run the incoming middlewares themselves, further in (the
   * Server's, which run them inside the stateless era's round machinery): the dispatcher does
   * not. Kept by method, in step with `requestHandlers`, because adding to a WeakSet costs
   * several times a Set's and a Server is built per stateless HTTP request.
   */
  readonly chainingMethods = new Set<string>();

  private readonly host: DispatchHost;
  /** Incoming requests whose handlers are running or waiting for a place, by request id. */
  private readonly inflight = new IdTable<RequestId, HandlerContext>();
  private readonly gate: InboundGate;

  constructor(host: DispatchHost) {
    this.host = host;
    this.gate = new InboundGate(host.inboundLimits);
  }

  /**
   * Handles one inbound value (a message, a batch, or a ParseFailure) and gives the reply to
   * send, if any: at once when everything it ran was synchronous (a response, a notification, a
   * request whose handler returned a value), else as a promise. Never throws nor rejects.
   */
  receive(value: unknown, extra: MessageExtra | undefined): Reply | undefined | Promise<Reply | undefined> {
    try {
      if (value instanceof ParseFailure) {
        return this.receiveFailure(value);
      }
      if (Array.isArray(value)) {
        return this.receiveBatch(value, extra);
      }
      const held = new HeldPlace();
      const response = this.dispatch(value, extra, held);
      return response instanceof Promise ? response.then((answer) => replyOf(answer, held)) : replyOf(response, held);
    } catch (error) {
      this.host.report(asError(error));
      return undefined;
    }
  }

  /**
   * Answers an undecodable frame. An oversized frame whose head names its id is settled by that
   * id: a response fails the outgoing request it answered (the peer is told nothing, since
   * a response gets no reply), a request is refused with its own id.
   */
  private receiveFailure(failure: ParseFailure): Reply | undefined {
    if (failure.kind === 'invalid-json') {
      return { message: this.errorResponse(null, 'PARSE_ERROR', `Parse error: ${failure.detail}`) };
    }
    const head = failure.oversized?.head;
    const id = head?.id;
    if (id !== undefined && head!.method === undefined && head!.response) {
      failPending(this.host, id, (request) => new SdkError(
        'MESSAGE_TOO_LARGE',
        `Response ${request === undefined ? '' : `to ${request.method} `}(id ${JSON.stringify(id)}) skipped: ${failure.detail}`,
        { data: { id, limit: failure.oversized!.limit } },
      ));
      return undefined;
    }
    const message = this.errorResponse(id !== undefined && head!.method !== undefined ? id : null, 'INVALID_REQUEST', `Invalid Request: ${failure.detail}`);
    return { message, relatedRequestId: message.id ?? undefined };
  }

  /** Aborts every running handler; their replies are then suppressed. */
  /** Whether some request's handler is still running (or waiting for its turn). */
  get busy(): boolean {
    return this.inflight.size > 0;
  }

  abortAll(reason: Error): void {
    const contexts = this.inflight.values();
    this.inflight.clear();
    for (const context of contexts) {
      context.abort(reason);
    }
  }

  private async receiveBatch(items: unknown[], extra: MessageExtra | undefined): Promise<Reply | undefined> {
    const refusal = this.batchRefusal(items);
    if (refusal !== undefined) {
      return { message: this.errorResponse(null, 'INVALID_REQUEST', `Invalid Request: ${refusal}`) };
    }
    const responses = await Promise.all(items.map((item) => this.dispatch(item, extra)));
    const answered = responses.filter((response): response is JSONRPCResponse => response !== undefined);
    return answered.length === 0 ? undefined : { message: answered };
  }

  private batchRefusal(items: unknown[]): string | undefined {
    const revision = this.host.methods.revision;
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

  /**
   * Handles one message. With `held`, a request answered keeps its handler place and leaves
   * the function that frees it there (the engine frees it once the reply is sent); without
   * (a batch item, whose batch reply waits for every item), the place is freed when the
   * handler ends, so a batch larger than the bound cannot wait for itself.
   */
  private dispatch(value: unknown, extra: MessageExtra | undefined, held?: HeldPlace): Promise<JSONRPCResponse | undefined> | JSONRPCResponse | undefined {
    const classified = classifyMessage(value);
    if (classified.kind === 'invalid') {
      return this.errorResponse(classified.id, 'INVALID_REQUEST', `Invalid Request: ${classified.reason}`);
    }
    // Before anything else reads the message: handlers, validators and digests recurse.
    const excess = inspectInbound(classified.message, this.host.maxNestingDepth);
    if (excess !== undefined) {
      return this.refuseTooDeep(classified, excess);
    }
    switch (classified.kind) {
      case 'request':
        return this.handleRequest(classified.message, extra, held);
      case 'notification':
        try {
          this.handleNotification(classified.message, extra);
        } catch (error) {
          this.host.report(asError(error));
        }
        return undefined;
      case 'response':
        try {
          settleResponse(this.host, classified.message);
        } catch (error) {
          this.host.report(asError(error));
        }
        return undefined;
    }
  }

  /** The answer to a message nested deeper than the limit: nothing past the check reads it. */
  private refuseTooDeep(classified: Exclude<Classification, { kind: 'invalid' }>, excess: NestingExcess): JSONRPCResponse | undefined {
    const limit = `nests deeper than ${this.host.maxNestingDepth} levels`;
    const where = `${excess.member}${excess.path}`;
    switch (classified.kind) {
      case 'request': {
        const { id, method } = classified.message;
        if (excess.member !== 'params') {
          return this.errorResponse(id, 'INVALID_REQUEST', `Invalid Request: ${where} ${limit}`);
        }
        const issues = [{ path: excess.path, message: limit, keyword: '' }];
        return this.errorResponse(id, 'INVALID_PARAMS', `Invalid params for ${method}: ${describeIssues(issues, 'params')}`, { issues });
      }
      case 'notification':
        this.host.report(new SdkError('INVALID_NOTIFICATION', `Dropped notification ${classified.message.method}: ${where} ${limit}`));
        return undefined;
      case 'response': {
        failPending(this.host, classified.message.id, (request) => new SdkError('INVALID_RESULT', `The response${request === undefined ? '' : ` to ${request.method}`} ${limit} at ${where}`));
        return undefined;
      }
    }
  }

  /**
   * Checks a request and runs its handler. Synchronous up to the handler, and after it when the
   * handler returns a value rather than a promise: such a request costs no promise here.
   */
  private handleRequest(message: JSONRPCRequest, extra: MessageExtra | undefined, held: HeldPlace | undefined): JSONRPCResponse | undefined | Promise<JSONRPCResponse | undefined> {
    const { id, method, params } = message;
    try {
      const refusal = this.host.admit?.(message);
      if (refusal !== undefined) {
        return { jsonrpc: JSONRPC_VERSION, id, error: refusal.toJSON() };
      }
      const info = this.host.methods.lookup(method);
      const handler = this.requestHandlers.get(method);
      if (!this.acceptsFromPeer(info, 'request') || handler === undefined) {
        return this.errorResponse(id, 'METHOD_NOT_FOUND', `Method not found: ${method}`);
      }
      if (this.inflight.has(id)) {
        return this.errorResponse(id, 'INVALID_REQUEST', `Invalid Request: id ${JSON.stringify(id)} is already in use`);
      }
      const issues = this.host.validateIncoming ? paramsIssues(info, params) : null;
      if (issues !== null) {
        const text = `Invalid params for ${method}: ${describeIssues(issues, 'params')}`;
        return this.errorResponse(id, 'INVALID_PARAMS', text, { issues });
      }
      const context = new HandlerContext(method, id, metaOf(params), extra, this.host.sender);
      const entry = this.gate.enter(context);
      if (entry === undefined) {
        return this.overloaded(id, method);
      }
      this.inflight.set(id, context);
      if (typeof entry === 'function') return this.runHandler(entry, context, info, handler, params as Params | undefined, held);
      return this.runWhenAdmitted(entry, context, info, handler, params as Params | undefined, held);
    } catch (error) {
      // Whatever escapes (an admission hook that throws, say), the request is still answered.
      return this.internalError(id, method, error);
    }
  }

  /** Runs the handler of a request that waited for its place, once it has one. */
  private async runWhenAdmitted(entry: Promise<Leave | undefined>, context: HandlerContext, info: ResolvedMethod, handler: RequestHandler, params: Params | undefined, held: HeldPlace | undefined): Promise<JSONRPCResponse | undefined> {
    try {
      const leave = await entry;
      if (leave === undefined) {
        // Cancelled, or the connection closed, while it waited: no answer is due.
        if (this.inflight.get(context.requestId) === context) this.inflight.delete(context.requestId);
        return undefined;
      }
      return await this.runHandler(leave, context, info, handler, params, held);
    } catch (error) {
      return this.internalError(context.requestId, context.method, error);
    }
  }

  /** Runs the handler and shapes its outcome; synchronous when the handler is. */
  private runHandler(leave: Leave, context: HandlerContext, info: ResolvedMethod, handler: RequestHandler, params: Params | undefined, held: HeldPlace | undefined): JSONRPCResponse | undefined | Promise<JSONRPCResponse | undefined> {
    let response: JSONRPCResponse | undefined;
    try {
      // Cancelled between its turn and now: it runs no handler and gets no answer.
      if (!context.aborted) {
        // Without middleware the handler is called as it is: no call object, no closure.
        const outcome = this.host.middleware.incoming === undefined || this.chainingMethods.has(context.method)
          ? handler(params, context)
          : this.host.middleware.runIncoming(context, params, handler);
        if (isThenable(outcome)) return this.settleHandler(outcome, leave, context, info, held);
        response = this.answer(context, info, outcome);
      }
    } catch (error) {
      response = this.failure(context, error);
    }
    return this.finish(context, response, leave, held);
  }

  private async settleHandler(outcome: PromiseLike<unknown>, leave: Leave, context: HandlerContext, info: ResolvedMethod, held: HeldPlace | undefined): Promise<JSONRPCResponse | undefined> {
    let response: JSONRPCResponse | undefined;
    try {
      response = this.answer(context, info, await outcome);
    } catch (error) {
      response = this.failure(context, error);
    }
    return this.finish(context, response, leave, held);
  }

  /** The response to a handler's result; none once the request was cancelled. */
  private answer(context: HandlerContext, info: ResolvedMethod, result: unknown): JSONRPCResponse | undefined {
    return context.aborted ? undefined : this.resultResponse(context.requestId, info, result ?? {});
  }

  /** The response to a handler that threw; none once the request was cancelled. */
  private failure(context: HandlerContext, error: unknown): JSONRPCResponse | undefined {
    if (context.aborted) return undefined;
    // A ProtocolError is the handler's answer; anything else is a failure, answered -32603.
    if (error instanceof ProtocolError) return { jsonrpc: JSONRPC_VERSION, id: context.requestId, error: error.toJSON() };
    this.host.failed({ method: context.method, requestId: context.requestId, error });
    return this.errorResponse(context.requestId, 'INTERNAL_ERROR', messageOf(error));
  }

  /** Ends a request's run: it leaves the in-flight table, and its place is freed or handed on with the reply. */
  private finish(context: HandlerContext, response: JSONRPCResponse | undefined, leave: Leave, held: HeldPlace | undefined): JSONRPCResponse | undefined {
    if (this.inflight.get(context.requestId) === context) this.inflight.delete(context.requestId);
    if (held === undefined || response === undefined) leave();
    else held.leave = leave;
    return response;
  }

  private internalError(id: RequestId, method: string, error: unknown): JSONRPCErrorResponse {
    return this.errorResponse(id, 'INTERNAL_ERROR', `Internal error while handling ${method}: ${messageOf(error)}`);
  }

  /** The answer to a request that finds every handler place and the queue taken. */
  private overloaded(id: RequestId, method: string): JSONRPCErrorResponse {
    const { maxConcurrent, maxQueued } = this.gate.limits;
    const side = this.host.side;
    const text = `Internal error: the ${side} is overloaded (${maxConcurrent} requests are being handled and ${maxQueued} more wait); send ${method} again later`;
    return this.errorResponse(id, 'INTERNAL_ERROR', text, { maxConcurrentInbound: maxConcurrent, maxQueuedInbound: maxQueued });
  }

  private resultResponse(id: RequestId, info: ResolvedMethod, result: unknown): JSONRPCResponse {
    const issues = this.host.validateOutgoing && info.result !== null ? checkValue(info.result, result) : null;
    if (issues !== null) {
      const text = `Handler for ${info.method} returned an invalid result: ${describeIssues(issues, 'result')}`;
      this.host.report(new SdkError('INVALID_RESULT', text, { data: { issues } }));
      return this.errorResponse(id, 'INTERNAL_ERROR', text);
    }
    return { jsonrpc: JSONRPC_VERSION, id, result };
  }

  private handleNotification(message: JSONRPCNotification, extra: MessageExtra | undefined): void {
    const { method, params } = message;
    const info = this.host.methods.lookup(method);
    if (!this.acceptsFromPeer(info, 'notification')) {
      const peer = peerOf(this.host.side);
      this.host.report(new SdkError('UNKNOWN_METHOD', `Dropped notification ${method}: not a notification the ${peer} may send`));
      return;
    }
    const issues = this.host.validateIncoming ? paramsIssues(info, params) : null;
    if (issues !== null) {
      const text = `Dropped invalid notification ${method}: ${describeIssues(issues, 'params')}`;
      this.host.report(new SdkError('INVALID_NOTIFICATION', text, { data: { issues } }));
      return;
    }
    if (method === CANCELLED_NOTIFICATION) {
      this.applyCancellation(params);
    } else if (method === PROGRESS_NOTIFICATION) {
      applyProgress(this.host, params);
    }
    const handler = this.notificationHandlers.get(method);
    const middleware = this.host.middleware;
    if (handler === undefined && middleware.notification === undefined) {
      return;
    }
    const context = { method, _meta: metaOf(params), extra };
    const run = middleware.notification === undefined
      ? async () => handler!(params as Params | undefined, context)
      : () => middleware.runNotification(context, params as Params | undefined, handler);
    void run().catch((error: unknown) => {
      if (error instanceof ProtocolError) this.host.report(error);
      else this.host.failed({ method, requestId: undefined, error });
    });
  }

  private applyCancellation(params: unknown): void {
    const requestId = isJsonObject(params) ? params.requestId : undefined;
    if (!isRequestId(requestId)) {
      return;
    }
    const context = this.inflight.get(requestId);
    if (context === undefined) {
      // Already answered, or never seen: cancellation is advisory, so this is not an error.
      return;
    }
    this.inflight.delete(requestId);
    const reason = isJsonObject(params) && typeof params.reason === 'string' ? params.reason : undefined;
    const text = reason === undefined ? 'Cancelled by peer' : `Cancelled by peer: ${reason}`;
    context.abort(new SdkError('REQUEST_CANCELLED', text, { data: { reason } }));
  }

  private acceptsFromPeer(info: ResolvedMethod | undefined, kind: ResolvedMethod['kind']): info is ResolvedMethod {
    return info !== undefined && info.kind === kind && !info.embedded && mayBeSentBy(info.direction, peerOf(this.host.side));
  }

  private errorResponse(id: RequestId | null, name: StandardErrorName, message: string, data?: unknown): JSONRPCErrorResponse {
    const error = new ProtocolError(errorCode(this.host.methods.revision, name), message, data);
    return { jsonrpc: JSONRPC_VERSION, id, error: error.toJSON() };
  }
}

/**
 * Where the request of a single message leaves the handler place its reply still holds: one
 * at most, so one slot (an empty array allocates its storage on the first push).
 */
class HeldPlace {
  leave: Leave | undefined = undefined;
}

/** The reply for `response` of a single message, carrying the place it holds in `held`. */
function replyOf(response: JSONRPCResponse | undefined, held: HeldPlace): Reply | undefined {
  return response === undefined ? undefined : { message: response, relatedRequestId: response.id ?? undefined, leave: held.leave };
}
