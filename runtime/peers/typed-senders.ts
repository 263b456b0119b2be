import { mayBeSentBy, type Side } from '../core/method-table.js';
import { pinnedFacts, statefulRevisions } from '../core/revisions.js';

/** Sends one method: what a typed stub calls. */
export type MethodSender = (method: string, params: unknown, options?: never) => Promise<unknown>;

/**
 * The typed stubs (`callTool`, `notifyToolListChanged`…) of `side`, bound to `send` and
 * `notify`. They are built from the newest stateful revision's generated facts (method and
 * stub names) rather than its module, so constructing a Client or Server loads no revision;
 * their types are that revision's generated `ClientStubs`/`ServerStubs` interfaces.
 */
export function typedSenders(side: Side, send: MethodSender, notify: MethodSender): Record<string, (params: unknown, options?: never) => Promise<unknown>> {
  const newest = statefulRevisions[statefulRevisions.length - 1];
  const senders: Record<string, (params: unknown, options?: never) => Promise<unknown>> = {};
  if (newest === undefined) return senders;
  for (const [method, fact] of Object.entries(pinnedFacts(newest).methods)) {
    if (fact.embedded || !mayBeSentBy(fact.direction, side)) continue;
    const sender = fact.kind === 'request' ? send : notify;
    senders[fact.stub] = (params, options) => sender(method, params, options);
  }
  return senders;
}
