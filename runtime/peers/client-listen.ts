/**
 * The client side of `subscriptions/listen` (stateless era): one long-lived request per stream,
 * settled as "open" by the server's acknowledgement notification and ended by closing it.
 */
import type * as Stateless from '../../generated/protocol/stateless.js';
import { Method } from '../../generated/methods.js';
import { SdkError } from '../core/errors.js';
import type { Params, RequestOptions } from '../core/request-context.js';
import type { ListenSubscription } from './client-options.js';

/** Sends a request through the Client (middlewares, capability checks, the stateless envelope). */
export type ListenSend = (method: string, params: unknown, options: RequestOptions) => Promise<unknown>;

/**
 * The listen calls of one Client. Each waiting call takes the first acknowledgement not yet
 * claimed; the queue holds one entry per call still waiting, so it is bounded by the calls
 * the application has open.
 */
export class ListenStreams {
  private readonly waiters: Array<(params: Params | undefined) => void> = [];

  constructor(private readonly send: ListenSend) {}

  /** Hands an acknowledgement to the oldest listen call still waiting for one. */
  acknowledge(params: Params | undefined): void {
    this.waiters.shift()?.(params);
  }

  /** Opens a stream for `filter`; resolves once the server acknowledged it (or the request ended). */
  async open(filter: unknown, options: Pick<RequestOptions, 'signal'>): Promise<ListenSubscription> {
    const controller = new AbortController();
    const signal = options.signal === undefined ? controller.signal : AbortSignal.any([controller.signal, options.signal]);
    let waiter: ((params: Params | undefined) => void) | undefined;
    const acknowledged = new Promise<Params | undefined>((resolve) => {
      waiter = resolve;
      this.waiters.push(resolve);
    });
    const ended = this.send(Method.SubscriptionsListen, { notifications: filter }, { signal, timeout: Infinity }).then(
      () => undefined,
      (error: unknown) => {
        if (controller.signal.aborted) return undefined;
        throw error;
      },
    );
    // The caller may never look at `ended`; its failure is also reported through the first await below.
    ended.catch(() => undefined);
    let first: Params | undefined;
    try {
      first = await Promise.race([acknowledged, ended.then(() => undefined)]);
    } finally {
      const index = this.waiters.indexOf(waiter!);
      if (index !== -1) this.waiters.splice(index, 1);
    }
    return {
      acknowledged: (first?.notifications ?? {}) as Stateless.SubscriptionFilter,
      ended,
      close: () => controller.abort(new SdkError('REQUEST_CANCELLED', 'The subscription was closed')),
    };
  }
}
