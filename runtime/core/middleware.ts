/**
 * Middleware: functions around the handler of every request and notification the peer sends,
 * and around every request this endpoint sends. One model for both roles, both eras and every
 * transport; the engine runs none of it (no closure, no call object) while nothing is registered.
 */
import { SdkError } from './errors.js';
import type { RequestId } from './jsonrpc.js';
import type { Side } from './method-table.js';
import type { NotificationContext, NotificationOptions, Params, RequestContext, RequestOptions } from './request-context.js';

/** The facts of the connection a call travels on, as the engine knows them when it runs. */
export interface CallFacts {
  /** The role of the endpoint running the middleware. */
  readonly side: Side;
  /** The revision the engine speaks, when one is bound. */
  readonly revision: string | undefined;
  /** The era of that revision. */
  readonly era: 'stateful' | 'stateless' | undefined;
  /** The transport session (Streamable HTTP), when there is one. */
  readonly sessionId: string | undefined;
  /** What carries the bytes underneath (`pipe` for stdio, `tcp` for HTTP), as the transport says. */
  readonly networkTransport: string | undefined;
  /**
   * One object per connection (the same for every call on it): a key for keeping
   * per-connection state in a WeakMap, since request ids repeat across connections.
   */
  readonly connection: object;
}

/** A request the peer sent, on its way to the handler. */
export interface IncomingRequest<P = Params | undefined> extends CallFacts {
  readonly method: string;
  /** The params the next middleware (or the handler) receives unless `next` is given others. */
  readonly params: P;
  readonly requestId: RequestId;
  /** The handler's context: signal, `_meta`, and the transport's facts (`extra`: session, auth). */
  readonly context: RequestContext;
  /** The credentials the transport verified (`context.extra.authInfo`), if any. */
  readonly authInfo: unknown;
}

/** A notification the peer sent, on its way to its handler (if one is registered). */
export interface IncomingNotification<P = Params | undefined> extends CallFacts {
  readonly method: string;
  readonly params: P;
  readonly context: NotificationContext;
  readonly authInfo: unknown;
}

/** A request this endpoint sends, on its way to the peer. */
export interface OutgoingRequest<P = Params | undefined> extends CallFacts {
  readonly method: string;
  readonly params: P;
  /** The caller's options; `relatedRequestId` names the incoming request this one is sent for. */
  readonly options: RequestOptions;
}

/** A notification this endpoint sends, on its way to the peer (progress, logging, list changes, cancellation). */
export interface OutgoingNotification<P = Params | undefined> extends CallFacts {
  readonly method: string;
  readonly params: P;
  /** The sender's options; `relatedRequestId` names the incoming request this one is sent for. */
  readonly options: NotificationOptions;
}

/** What a handler that threw was doing, as onerror and middleware learn it. */
export interface HandlerFailure {
  readonly method: string;
  /** The id of the request being handled (undefined for a notification). */
  readonly requestId: RequestId | undefined;
  /** The tool, resource URI or prompt the request named, when McpServer knows it. */
  readonly tool?: string | undefined;
  readonly resource?: string | undefined;
  readonly prompt?: string | undefined;
  /** What the handler threw. */
  readonly error: unknown;
}

/**
 * Continues the chain: the next middleware, or at its end the handler (incoming) or the wire
 * (outgoing). Given params replace the call's for everything after; may be called once.
 */
export type Next<R> = (params?: Params | undefined) => Promise<R>;

/** {@link Next} of an outgoing request, which may also replace the request's options. */
export type SendNext = (params?: Params | undefined, options?: RequestOptions) => Promise<unknown>;

/** {@link Next} of an outgoing notification, which may also replace the notification's options. */
export type NotifyNext = (params?: Params | undefined, options?: NotificationOptions) => Promise<void>;

/**
 * One middleware; each member is optional. Middlewares run in the order they were added, the
 * first outermost. A member may return without calling `next` (short-circuit: what it returns
 * is the result), call it with other params (rewrite), measure around it (time), or throw
 * (reject: a ProtocolError is answered as it is, anything else as an internal error).
 *
 * @example
 * ```ts
 * import { McpServer, type Middleware } from 'mcpgen';
 *
 * const timing: Middleware = {
 *   async incoming(call, next) {
 *     const started = performance.now();
 *     try {
 *       return await next();
 *     } finally {
 *       console.log(`${call.method} #${call.requestId} took ${(performance.now() - started).toFixed(1)} ms`);
 *     }
 *   },
 * };
 * const mcp = new McpServer({ name: 'timed', version: '1.0.0' }, { middleware: [timing] });
 * ```
 */
export interface Middleware {
  /** Around the handler of each request the peer sends; resolves with the result to answer. */
  incoming?(call: IncomingRequest, next: Next<unknown>): unknown;
  /** Around the handler of each notification the peer sends (run even when none is registered). */
  notification?(call: IncomingNotification, next: Next<void>): void | Promise<void>;
  /** Around each request this endpoint sends; resolves with the result the caller gets. */
  outgoing?(call: OutgoingRequest, next: SendNext): unknown;
  /** Around each notification this endpoint sends; returning without calling `next` drops it. */
  outgoingNotification?(call: OutgoingNotification, next: NotifyNext): void | Promise<void>;
  /** Told of every handler that threw something other than a ProtocolError (a bug, not an answer). */
  failed?(failure: HandlerFailure): void;
}

type Kind = 'incoming' | 'notification' | 'outgoing' | 'outgoingNotification';

/** The facts a {@link MiddlewareStack} fills into each call object, read from the engine as it runs. */
export type FillFacts = (call: { -readonly [K in keyof CallFacts]: CallFacts[K] }) => void;

/** The end of a chain: the handler (given params and context) or the sender (params and options). */
type Last = (...args: never[]) => unknown;

/**
 * One call as middleware sees it: one class for every kind, so that building one is a single
 * allocation of one shape (the chain runs per message).
 */
class Call {
  // Every member is set before a middleware sees the call: the facts by the engine's FillFacts.
  side: Side = 'server';
  revision: string | undefined = undefined;
  era: 'stateful' | 'stateless' | undefined = undefined;
  sessionId: string | undefined = undefined;
  networkTransport: string | undefined = undefined;
  connection: object = Call;
  method = '';
  params: Params | undefined = undefined;
  requestId: RequestId | undefined = undefined;
  context: RequestContext | NotificationContext | undefined = undefined;
  authInfo: unknown = undefined;
  options: RequestOptions | NotificationOptions | undefined = undefined;
  /** What the chain ends in; not for middleware (`next` calls it). */
  last: Last = nothing;

  /** A copy with other params and options, for the middlewares after one that rewrote them. */
  with(params: Params | undefined, options: RequestOptions | NotificationOptions | undefined): Call {
    const copy = Object.assign(new Call(), this);
    copy.params = params;
    copy.options = options;
    return copy;
  }
}

/** Runs a chain from a call: a composed function, made once per change of the middlewares. */
type Chain = (call: Call) => Promise<unknown>;

/**
 * The middlewares of one engine. Each kind's list is undefined while empty, which is all the
 * engine checks on its hot path; each kind's chain is composed when a middleware is added or
 * removed, so that running it allocates the call object and one `next` per middleware only.
 */
export class MiddlewareStack {
  incoming: readonly Middleware[] | undefined;
  notification: readonly Middleware[] | undefined;
  outgoing: readonly Middleware[] | undefined;
  outgoingNotification: readonly Middleware[] | undefined;
  failed: readonly Middleware[] | undefined;
  private readonly all: Middleware[] = [];
  private readonly fill: FillFacts;
  /** Receives what a `failed` member throws. */
  private readonly report: (error: Error) => void;
  private chains: Record<Kind, Chain> = { incoming: endIncoming, notification: endIncoming, outgoing: endOutgoing, outgoingNotification: endOutgoing };

  constructor(fill: FillFacts, report: (error: Error) => void) {
    this.fill = fill;
    this.report = report;
  }

  /** Adds a middleware (after those added before); returns the function that removes it. */
  use(middleware: Middleware): () => void {
    this.all.push(middleware);
    this.refresh();
    return () => this.remove(middleware);
  }

  /** Removes a middleware added earlier (its last addition); does nothing for one never added. */
  remove(middleware: Middleware): void {
    const index = this.all.lastIndexOf(middleware);
    if (index === -1) return;
    this.all.splice(index, 1);
    this.refresh();
  }

  /** Runs the incoming chain of `context`'s request around `handler`. */
  runIncoming(context: RequestContext, params: Params | undefined, handler: (params: Params | undefined, context: RequestContext) => unknown): Promise<unknown> {
    const call = this.call(context.method, params, handler);
    call.requestId = context.requestId;
    call.context = context;
    call.authInfo = context.extra?.authInfo;
    return this.chains.incoming(call);
  }

  /** Runs the notification chain around `handler` (nothing at the end when undefined). */
  runNotification(context: NotificationContext, params: Params | undefined, handler: ((params: Params | undefined, context: NotificationContext) => void | Promise<void>) | undefined): Promise<void> {
    const call = this.call(context.method, params, handler ?? nothing);
    call.context = context;
    call.authInfo = context.extra?.authInfo;
    return this.chains.notification(call) as Promise<void>;
  }

  /** Runs the outgoing chain around `send`. */
  runOutgoing(method: string, params: Params | undefined, options: RequestOptions, send: (params: Params | undefined, options: RequestOptions) => Promise<unknown>): Promise<unknown> {
    const call = this.call(method, params, send);
    call.options = options;
    return this.chains.outgoing(call);
  }

  /** Runs the outgoing notification chain around `send`. */
  runOutgoingNotification(method: string, params: Params | undefined, options: NotificationOptions, send: (params: Params | undefined, options: NotificationOptions) => Promise<void>): Promise<void> {
    const call = this.call(method, params, send);
    call.options = options;
    return this.chains.outgoingNotification(call) as Promise<void>;
  }

  /** Tells every `failed` member; what they throw is reported, never raised. */
  tellFailure(failure: HandlerFailure): void {
    for (const middleware of this.failed ?? []) {
      try {
        middleware.failed!(failure);
      } catch (error) {
        this.report(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  private call(method: string, params: Params | undefined, last: Last): Call {
    const call = new Call();
    this.fill(call);
    call.method = method;
    call.params = params;
    call.last = last;
    return call;
  }

  private refresh(): void {
    const having = (member: Kind | 'failed'): readonly Middleware[] | undefined => {
      const found = this.all.filter((middleware) => typeof middleware[member] === 'function');
      return found.length === 0 ? undefined : found;
    };
    this.incoming = having('incoming');
    this.notification = having('notification');
    this.outgoing = having('outgoing');
    this.outgoingNotification = having('outgoingNotification');
    this.failed = having('failed');
    this.chains = {
      incoming: compose(this.incoming, 'incoming'),
      notification: compose(this.notification, 'notification'),
      outgoing: compose(this.outgoing, 'outgoing'),
      outgoingNotification: compose(this.outgoingNotification, 'outgoingNotification'),
    };
  }
}

function nothing(): void {}

/** The end of an incoming chain: the handler, given the (possibly rewritten) params and the context. */
function endIncoming(call: Call): Promise<unknown> {
  try {
    return promised((call.last as (params: Params | undefined, context: unknown) => unknown)(call.params, call.context));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The end of an outgoing chain: the sender, given the (possibly rewritten) params and options, and the call. */
function endOutgoing(call: Call): Promise<unknown> {
  try {
    return promised((call.last as (params: Params | undefined, options: unknown, call: Call) => unknown)(call.params, call.options, call));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** A promise of `value` without a new one when it is one already (what middleware mostly return). */
function promised(value: unknown): Promise<unknown> {
  return value instanceof Promise ? value : Promise.resolve(value);
}

/**
 * Composes `chain` into one function, innermost first: each link calls its middleware with the
 * call and a `next` that runs the links after it. No async functions: a promise per step would
 * be the chain's main cost, and a member that returns synchronously gets none of its own.
 */
function compose(chain: readonly Middleware[] | undefined, member: Kind): Chain {
  const outgoing = member === 'outgoing' || member === 'outgoingNotification';
  let after: Chain = outgoing ? endOutgoing : endIncoming;
  for (let index = (chain?.length ?? 0) - 1; index >= 0; index--) after = link(chain![index]!, member, outgoing, after);
  return after;
}

function link(middleware: Middleware, member: Kind, outgoing: boolean, after: Chain): Chain {
  const run = middleware[member] as (this: Middleware, call: Call, next: SendNext) => unknown;
  return (call) => {
    let called = false;
    const next = (given?: Params | undefined, givenOptions?: RequestOptions): Promise<unknown> => {
      if (called) return Promise.reject(new SdkError('INVALID_ARGUMENT', `A ${member} middleware called next() twice for ${call.method}`));
      called = true;
      // Only outgoing calls take other options; an incoming call's context is not replaced.
      const options = outgoing ? givenOptions : undefined;
      return after(given === undefined && options === undefined ? call : call.with(given ?? call.params, options ?? call.options));
    };
    try {
      return promised(run.call(middleware, call, next));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
