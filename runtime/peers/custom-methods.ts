import type { MethodDirection, Validator } from '../core/contract.js';
import type { NotificationContext, NotificationOptions, RequestContext, RequestOptions } from '../core/request-context.js';

/** Declares a request outside the schema (an extension's method), with its own validators. */
export interface CustomRequestDefinition<P, R> {
  readonly method: string;
  /** Validates params; its type guard gives handlers and senders their param type. */
  readonly params: Validator<P>;
  /** Validates results; its type guard gives senders their result type. */
  readonly result: Validator<R>;
  readonly direction: MethodDirection;
  /** Whether params must be present (default false). */
  readonly paramsRequired?: boolean;
}

/** Declares a notification outside the schema, with its own validator. */
export interface CustomNotificationDefinition<P> {
  readonly method: string;
  readonly params: Validator<P>;
  readonly direction: MethodDirection;
  readonly paramsRequired?: boolean;
}

/** A registered custom request: typed send and handle, validated both ways like schema methods. */
export interface CustomRequest<P, R> {
  readonly method: string;
  send(params: P, options?: RequestOptions): Promise<R>;
  handle(handler: (params: P, context: RequestContext) => R | Promise<R>): void;
}

/** A registered custom notification. */
export interface CustomNotification<P> {
  readonly method: string;
  send(params: P, options?: NotificationOptions): Promise<void>;
  handle(handler: (params: P, context: NotificationContext) => void | Promise<void>): void;
}
