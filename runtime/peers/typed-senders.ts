import { clientNotificationSenders, clientRequestSenders, serverNotificationSenders, serverRequestSenders } from '../../generated/senders.js';
import type { Side } from '../core/method-table.js';

/** Sends one method: what a typed stub calls. */
export type MethodSender = (method: string, params: unknown, options?: never) => Promise<unknown>;

/**
 * The typed stubs (`callTool`, `notifyToolListChanged`…) of `side`, bound to `send` and
 * `notify`: one per sender of the generated sender tables, which span every pinned revision and
 * are plain names, so constructing a Client or Server loads no revision. Which of them a peer may
 * call is its types' business (see senders.ts); a stub of a method the negotiated revision lacks
 * is refused when called.
 */
export function typedSenders(side: Side, send: MethodSender, notify: MethodSender): Record<string, (params: unknown, options?: never) => Promise<unknown>> {
  const [requests, notifications] = side === 'client'
    ? [clientRequestSenders, clientNotificationSenders]
    : [serverRequestSenders, serverNotificationSenders];
  const senders: Record<string, (params: unknown, options?: never) => Promise<unknown>> = {};
  for (const [name, method] of Object.entries(requests)) senders[name] = (params, options) => send(method, params, options);
  for (const [name, method] of Object.entries(notifications)) senders[name] = (params, options) => notify(method, params, options);
  return senders;
}
