/**
 * Runs one request of the stateless era through its handler: verifies the MRTR request state,
 * gives the handler a context whose client requests become input requests, applies the
 * request's own log level, and shapes what the handler returns into a result of the era
 * (`resultType`, the server's identity in `_meta`, or an `InputRequiredResult`).
 */
import type { CapabilityObject } from './capabilities.js';
import type { RevisionModule } from '../core/contract.js';
import { ProtocolError } from '../core/errors.js';
import { isJsonObject, type RequestId } from '../core/jsonrpc.js';
import { LOG_NOTIFICATION } from '../core/special-methods.js';
import type { Meta, Params, RequestContext, RequestHandler, RequestOptions } from '../core/request-context.js';
import type { MessageExtra } from '../core/transport.js';
import type { MiddlewareStack } from '../core/middleware.js';
import { acceptsInput, InputBroker } from './input-broker.js';
import { CLIENT_CAPABILITIES_META, finishResult, LOG_LEVEL_META } from './meta.js';
import { principalOf } from './principal.js';
import { digestArguments, RequestStateError, type RequestStateBinding, type RequestStateCodec } from './request-state.js';

/** What the runner needs from the Server. */
export interface StatelessHost {
  readonly serverInfo: unknown;
  readonly codec: RequestStateCodec;
  /** The Server's middlewares: its outgoing ones see the questions a handler asks. */
  readonly middleware?: MiddlewareStack | undefined;
}

/**
 * The handler context of a stateless request: requests to the client go through the MRTR
 * broker, and log messages are sent only at or above the level this request asked for.
 */
export class StatelessContext implements RequestContext {
  /** Data the handler wants back on the retry; travels in the integrity-protected request state. */
  requestState: unknown;

  constructor(
    private readonly inner: RequestContext,
    /** Where the handler's questions go: a broker, or how to make one when the first is asked. */
    private readonly broker: InputBroker | (() => InputBroker) | undefined,
    private readonly module: RevisionModule,
    previousState: unknown,
    private readonly middleware?: MiddlewareStack | undefined,
  ) {
    this.requestState = previousState;
  }

  get method(): string {
    return this.inner.method;
  }

  get requestId(): RequestId {
    return this.inner.requestId;
  }

  get signal(): AbortSignal {
    return this.inner.signal;
  }

  get _meta(): Meta | undefined {
    return this.inner._meta;
  }

  get extra(): MessageExtra | undefined {
    return this.inner.extra;
  }

  /** The capabilities the client declared on this request. */
  get clientCapabilities(): CapabilityObject | undefined {
    const value = this._meta?.[CLIENT_CAPABILITIES_META];
    return isJsonObject(value) ? value : undefined;
  }

  sendNotification(method: string, params?: Params): Promise<void> {
    if (method === LOG_NOTIFICATION && !this.wantsLog(params?.level)) return Promise.resolve();
    return this.inner.sendNotification(method, params);
  }

  sendRequest<R = unknown>(method: string, params?: Params, options?: RequestOptions): Promise<R> {
    if (this.broker === undefined) {
      return Promise.reject(new ProtocolError(
        this.module.errorCodes.INTERNAL_ERROR!,
        `Internal error: ${this.method} cannot ask the client for ${method} in protocol ${this.module.revision} (only requests whose result may be input_required can)`,
      ));
    }
    const broker = typeof this.broker === 'function' ? this.broker() : this.broker;
    const ask = (given: Params | undefined): Promise<unknown> => broker.request(method, given, options?.inputKey);
    // A question is an outgoing request of the server's, though it travels inside the result.
    if (this.middleware?.outgoing === undefined) return ask(params) as Promise<R>;
    return this.middleware.runOutgoing(method, params, { ...options, relatedRequestId: this.requestId }, ask) as Promise<R>;
  }

  reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    return this.inner.reportProgress(progress, total, message);
  }

  log(level: string, data: unknown, logger?: string): Promise<void> {
    if (!this.wantsLog(level)) return Promise.resolve();
    return this.inner.log(level, data, logger);
  }

  /** Log messages flow only when the request named a level, and only at or above it. */
  private wantsLog(level: unknown): boolean {
    const wanted = this._meta?.[LOG_LEVEL_META];
    if (typeof wanted !== 'string') return false;
    const order = this.module.loggingLevels;
    const rank = order.indexOf(String(level));
    return rank === -1 || rank >= order.indexOf(wanted);
  }
}


/** The name in a server's `serverInfo`, the default server identity of its states. */
function serverNameOf(serverInfo: unknown): string | undefined {
  return isJsonObject(serverInfo) && typeof serverInfo.name === 'string' ? serverInfo.name : undefined;
}

/** The request-state binding of a request: method, target, a digest of its arguments, its principal and this server. */
async function bindingOf(host: StatelessHost, method: string, params: Params | undefined, extra: MessageExtra | undefined): Promise<RequestStateBinding> {
  const target = typeof params?.name === 'string' ? params.name : typeof params?.uri === 'string' ? params.uri : '';
  const argumentsDigest = await digestArguments(params?.arguments ?? {});
  const subject = principalOf(extra);
  const server = host.codec.audience ?? serverNameOf(host.serverInfo);
  return { method, target, argumentsDigest, ...(subject !== undefined ? { subject } : {}), ...(server !== undefined ? { server } : {}) };
}

/** Runs `handler` for one stateless request and returns the result to send. */
export async function runStateless(
  host: StatelessHost,
  module: RevisionModule,
  handler: RequestHandler,
  params: Params | undefined,
  context: RequestContext,
): Promise<unknown> {
  const method = context.method;
  const cacheable = module.methods[method]?.cacheable === true;
  if (!acceptsInput(module, method)) {
    return finishResult(await handler(params, new StatelessContext(context, undefined, module, undefined, host.middleware)), host.serverInfo, cacheable);
  }
  const invalidParams = module.errorCodes.INVALID_PARAMS!;
  // The binding hashes the arguments, so it is computed only when a state is opened or sealed:
  // most calls neither bring one nor ask anything.
  let binding: Promise<RequestStateBinding> | undefined;
  const bound = (): Promise<RequestStateBinding> => (binding ??= bindingOf(host, method, params, context.extra));
  let round = 0;
  let answers: Record<string, unknown> = {};
  let previous: unknown;
  if (typeof params?.requestState === 'string') {
    try {
      const opened = await host.codec.open(params.requestState, await bound());
      round = opened.round;
      answers = { ...opened.answers };
      previous = opened.user;
    } catch (error) {
      if (error instanceof RequestStateError) {
        throw new ProtocolError(invalidParams, `Invalid params: ${error.message}`, { reason: error.reason });
      }
      throw error;
    }
  }
  // This retry's answers; the handler's questions pick (and check) the members they need.
  // Answers already carried in the verified state keep their value.
  if (isJsonObject(params?.inputResponses)) answers = { ...params.inputResponses, ...answers };
  // Most handlers never ask: the broker is made when the first question is.
  let broker: InputBroker | undefined;
  const brokerOf = (): InputBroker => {
    const clientCapabilities = context._meta?.[CLIENT_CAPABILITIES_META];
    return (broker ??= new InputBroker(module, answers, isJsonObject(clientCapabilities) ? clientCapabilities : undefined));
  };
  const scoped = new StatelessContext(context, brokerOf, module, previous, host.middleware);
  let result: unknown;
  try {
    result = await handler(params, scoped);
  } catch (error) {
    if (broker?.pending !== true) throw error;
  }
  // A question left unanswered ends the round whatever the handler did next: code written for
  // the stateful era often wraps the question in try/catch and returns (or throws) something of
  // its own, which was computed without the answer.
  if (broker?.pending === true) {
    const inputRequests = broker.inputRequests();
    let requestState: string;
    try {
      requestState = await host.codec.seal({ binding: await bound(), round: round + 1, answers: broker.usedAnswers(), user: scoped.requestState });
    } catch (sealError) {
      if (sealError instanceof RequestStateError) {
        throw new ProtocolError(invalidParams, `Invalid params: ${method} asked for input more often than allowed (${sealError.message})`, { reason: sealError.reason });
      }
      throw sealError;
    }
    return finishResult({ resultType: 'input_required', inputRequests, requestState }, host.serverInfo);
  }
  return finishResult(result, host.serverInfo, cacheable);
}
