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
import { isThenable } from '../core/thenable.js';

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
    /** Where the handler's questions go: the round that makes a broker when the first is asked. */
    private readonly round: StatelessRound | undefined,
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
    if (this.round === undefined) {
      return Promise.reject(new ProtocolError(
        this.module.errorCodes.INTERNAL_ERROR!,
        `Internal error: ${this.method} cannot ask the client for ${method} in protocol ${this.module.revision} (only requests whose result may be input_required can)`,
      ));
    }
    const broker = this.round.broker();
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

/**
 * Runs `handler` for one stateless request and gives the result to send: at once when the
 * handler returns a value and the request brings no state to open, else as a promise.
 */
export function runStateless(
  host: StatelessHost,
  module: RevisionModule,
  handler: RequestHandler,
  params: Params | undefined,
  context: RequestContext,
): unknown {
  const cacheable = module.methods[context.method]?.cacheable === true;
  if (!acceptsInput(module, context.method)) {
    const outcome = handler(params, new StatelessContext(context, undefined, module, undefined, host.middleware));
    return isThenable(outcome)
      ? Promise.resolve(outcome).then((result) => finishResult(result, host.serverInfo, cacheable))
      : finishResult(outcome, host.serverInfo, cacheable);
  }
  const round = new StatelessRound(host, module, params, context);
  if (typeof params?.requestState === 'string') {
    const state = params.requestState;
    return round.reopen(state).then(() => round.run(handler, cacheable));
  }
  return round.run(handler, cacheable);
}

/**
 * One round of a request whose result may be `input_required`: the answers it brings, the
 * broker its handler's questions go to (made when the first is asked: most handlers never ask),
 * and the request-state binding (hashed only when a state is opened or sealed).
 */
class StatelessRound {
  private binding: Promise<RequestStateBinding> | undefined;
  private count = 0;
  private answers: Record<string, unknown> = {};
  private previous: unknown;
  private made: InputBroker | undefined;

  constructor(
    private readonly host: StatelessHost,
    private readonly module: RevisionModule,
    private readonly params: Params | undefined,
    private readonly context: RequestContext,
  ) {}

  /** The broker of this round, made on first use. */
  broker(): InputBroker {
    if (this.made === undefined) {
      const clientCapabilities = this.context._meta?.[CLIENT_CAPABILITIES_META];
      this.made = new InputBroker(this.module, this.answers, isJsonObject(clientCapabilities) ? clientCapabilities : undefined);
    }
    return this.made;
  }

  /** Verifies the state a retry brings and takes the round, answers and user data it carries. */
  async reopen(requestState: string): Promise<void> {
    try {
      const opened = await this.host.codec.open(requestState, await this.bound());
      this.count = opened.round;
      this.answers = { ...opened.answers };
      this.previous = opened.user;
    } catch (error) {
      if (error instanceof RequestStateError) {
        throw new ProtocolError(this.module.errorCodes.INVALID_PARAMS!, `Invalid params: ${error.message}`, { reason: error.reason });
      }
      throw error;
    }
  }

  /** Runs the handler; synchronous unless it returns a promise or asks something. */
  run(handler: RequestHandler, cacheable: boolean): unknown {
    // This retry's answers; the handler's questions pick (and check) the members they need.
    // Answers already carried in the verified state keep their value.
    const inputResponses = this.params?.inputResponses;
    if (isJsonObject(inputResponses)) this.answers = { ...inputResponses, ...this.answers };
    const scoped = new StatelessContext(this.context, this, this.module, this.previous, this.host.middleware);
    let outcome: unknown;
    try {
      outcome = handler(this.params, scoped);
    } catch (error) {
      if (this.made?.pending !== true) throw error;
    }
    if (isThenable(outcome)) return this.settle(outcome, scoped, cacheable);
    return this.made?.pending === true ? this.askClient(scoped) : finishResult(outcome, this.host.serverInfo, cacheable);
  }

  private async settle(outcome: PromiseLike<unknown>, scoped: StatelessContext, cacheable: boolean): Promise<unknown> {
    let result: unknown;
    try {
      result = await outcome;
    } catch (error) {
      if (this.made?.pending !== true) throw error;
    }
    return this.made?.pending === true ? this.askClient(scoped) : finishResult(result, this.host.serverInfo, cacheable);
  }

  /**
   * The `input_required` result of a round that asked something. A question left unanswered
   * ends the round whatever the handler did next: code written for the stateful era often wraps
   * the question in try/catch and returns (or throws) something of its own, which was computed
   * without the answer.
   */
  private async askClient(scoped: StatelessContext): Promise<unknown> {
    const broker = this.made!;
    const inputRequests = broker.inputRequests();
    let requestState: string;
    try {
      requestState = await this.host.codec.seal({ binding: await this.bound(), round: this.count + 1, answers: broker.usedAnswers(), user: scoped.requestState });
    } catch (sealError) {
      if (sealError instanceof RequestStateError) {
        throw new ProtocolError(this.module.errorCodes.INVALID_PARAMS!, `Invalid params: ${this.context.method} asked for input more often than allowed (${sealError.message})`, { reason: sealError.reason });
      }
      throw sealError;
    }
    return finishResult({ resultType: 'input_required', inputRequests, requestState }, this.host.serverInfo);
  }

  private bound(): Promise<RequestStateBinding> {
    return (this.binding ??= bindingOf(this.host, this.context.method, this.params, this.context.extra));
  }
}
