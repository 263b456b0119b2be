import type { RequestId } from './jsonrpc.js';
import type { Progress } from './pending-requests.js';
import { LOG_NOTIFICATION, PROGRESS_NOTIFICATION } from './special-methods.js';
import type { MessageExtra } from './transport.js';

/** Object-shaped `params`, the only shape MCP uses. */
export type Params = { [key: string]: unknown };

/** The `_meta` member of params, when the sender included one. */
export type Meta = { readonly [key: string]: unknown };

/** Options of an outgoing request. */
export interface RequestOptions {
  /** Aborting it sends notifications/cancelled and rejects with SdkError('REQUEST_CANCELLED'). */
  readonly signal?: AbortSignal | undefined;
  /** Milliseconds to wait for the response; defaults to the engine's `defaultTimeoutMs`. */
  readonly timeout?: number | undefined;
  /**
   * Restart the timeout on every progress notification for this request. A progress token is
   * attached whenever this is set, even without `onprogress`, so that the peer reports progress.
   */
  readonly resetTimeoutOnProgress?: boolean | undefined;
  /** Hard cap in milliseconds from sending, which progress cannot extend. */
  readonly maxTotalTimeout?: number | undefined;
  /** Receives progress updates; attaches a progress token to the request's `_meta`. */
  readonly onprogress?: ((progress: Progress) => void) | undefined;
  /** The incoming request this one is sent on behalf of (a transport routing hint). */
  readonly relatedRequestId?: RequestId | undefined;
  /**
   * Stateless era only: the key this question gets in the `inputRequests` of a multi
   * round-trip request (default: the method and the question's sequence number).
   */
  readonly inputKey?: string | undefined;
  /**
   * Called with the id the engine gives the request, just before it is sent (each round of a
   * multi round-trip request is a request of its own, with its own id): for telemetry.
   */
  readonly onRequestId?: ((id: RequestId) => void) | undefined;
}

/** Options of an outgoing notification. */
export interface NotificationOptions {
  /** The incoming request this notification belongs to (a transport routing hint). */
  readonly relatedRequestId?: RequestId | undefined;
}

/** What a request handler receives besides the params. */
export interface RequestContext {
  /** The method being handled. */
  readonly method: string;
  /** The id the peer gave the request. */
  readonly requestId: RequestId;
  /** Aborted when the peer cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /** The request's `params._meta`, if any. */
  readonly _meta: Meta | undefined;
  /** What the transport knew about the message (session, credentials). */
  readonly extra: MessageExtra | undefined;
  /** Sends a notification tied to this request. */
  sendNotification(method: string, params?: Params): Promise<void>;
  /** Sends a request tied to this request; it is cancelled too when this request is. */
  sendRequest<R = unknown>(method: string, params?: Params, options?: RequestOptions): Promise<R>;
  /** Sends a progress notification; does nothing when the request had no progress token. */
  reportProgress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends a log message notification tied to this request. */
  log(level: string, data: unknown, logger?: string): Promise<void>;
}

/** What a notification handler receives besides the params. */
export interface NotificationContext {
  readonly method: string;
  readonly _meta: Meta | undefined;
  readonly extra: MessageExtra | undefined;
}

/**
 * Handles one incoming request. Return the result (undefined answers with `{}`); throw a
 * ProtocolError to answer with that error, anything else answers with an internal error.
 */
export type RequestHandler<P = Params | undefined, R = unknown> = (
  params: P,
  context: RequestContext,
) => R | Promise<R>;

/** Handles one incoming notification; thrown errors are reported, never answered. */
export type NotificationHandler<P = Params | undefined> = (
  params: P,
  context: NotificationContext,
) => void | Promise<void>;

/** The engine operations a request context delegates to. */
export interface ContextSender {
  notification(method: string, params: Params | undefined, options: NotificationOptions): Promise<void>;
  request(method: string, params: Params | undefined, options: RequestOptions): Promise<unknown>;
}

/**
 * The context handed to a request handler, which is also the request's abort flag. A class
 * rather than an object of closures, because one is built for every request: its methods live
 * on the prototype, and its AbortSignal is created only when someone reads it. Most handlers
 * never look at their signal, and an AbortController costs more to create than the rest of a
 * small request's dispatch.
 */
export class HandlerContext implements RequestContext {
  readonly method: string;
  readonly requestId: RequestId;
  readonly _meta: Meta | undefined;
  readonly extra: MessageExtra | undefined;
  private readonly sender: ContextSender;
  private controller: AbortController | undefined;
  private abortedWith: { reason: unknown } | undefined;

  constructor(method: string, requestId: RequestId, meta: Meta | undefined, extra: MessageExtra | undefined, sender: ContextSender) {
    this.method = method;
    this.requestId = requestId;
    this._meta = meta;
    this.extra = extra;
    this.sender = sender;
  }

  /** True once abort() ran. */
  get aborted(): boolean {
    return this.abortedWith !== undefined;
  }

  /** The signal; created on first use, already aborted if abort() ran before. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortedWith !== undefined) this.controller.abort(this.abortedWith.reason);
    }
    return this.controller.signal;
  }

  /** Aborts once (the peer cancelled, the connection closed); later calls do nothing. */
  abort(reason: unknown): void {
    if (this.abortedWith !== undefined) return;
    this.abortedWith = { reason };
    this.controller?.abort(reason);
  }

  sendNotification(method: string, params?: Params): Promise<void> {
    return this.sender.notification(method, params, { relatedRequestId: this.requestId });
  }

  sendRequest<R = unknown>(method: string, params?: Params, options: RequestOptions = {}): Promise<R> {
    const signal = options.signal === undefined ? this.signal : AbortSignal.any([this.signal, options.signal]);
    return this.sender.request(method, params, { ...options, signal, relatedRequestId: this.requestId }) as Promise<R>;
  }

  async reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    const progressToken = this._meta?.progressToken;
    if (typeof progressToken !== 'string' && typeof progressToken !== 'number') {
      return;
    }
    const params: Params = { progressToken, progress };
    if (total !== undefined) {
      params.total = total;
    }
    if (message !== undefined) {
      params.message = message;
    }
    await this.sender.notification(PROGRESS_NOTIFICATION, params, { relatedRequestId: this.requestId });
  }

  log(level: string, data: unknown, logger?: string): Promise<void> {
    const params: Params = logger === undefined ? { level, data } : { level, data, logger };
    return this.sender.notification(LOG_NOTIFICATION, params, { relatedRequestId: this.requestId });
  }
}
