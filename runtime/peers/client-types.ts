/**
 * What a Client may send and handle, by the protocol types it is typed with: the default types
 * for a Client that negotiates either era, the typed senders, and the run-time refusal of a
 * method the negotiated revision lacks. The senders come from the generated sender tables, so
 * a Client typed with one revision's `ProtocolTypes` offers exactly that revision's senders.
 */
import type { Method } from '../../generated/methods.js';
import type { Stateful, Stateless } from '../../generated/latest.js';
import type { clientNotificationSenders, clientRequestSenders } from '../../generated/senders.js';
import type { RevisionFactsView } from '../core/revision-set.js';
import { SdkError } from '../core/errors.js';
import type { CapabilitiesOf, EitherNotifications, EitherRequests, InputRequestsOf, ProtocolTypesShape, SharedMethods } from './protocol-types.js';
import type { RequestOptions } from '../core/request-context.js';
import type { CallerParams, MethodUnavailable, NotificationSenders, RequestSenders } from './senders.js';

/** The params member the Client fills in itself: `_meta` (version, capabilities, identity) in the stateless era. */
type Filled = '_meta';

/**
 * The protocol types of a Client that speaks whichever of two revisions the server does: it
 * may send only what both have (each method's params and result those of either), and it
 * handles what either may ask of it, whether as a JSON-RPC request (stateful era) or as an
 * input request (stateless era): both are its `serverRequests`, so `inputRequests` is empty.
 */
export interface EitherRevision<A extends ProtocolTypesShape, B extends ProtocolTypesShape> {
  readonly clientRequests: SharedMethods<A['clientRequests'], B['clientRequests']>;
  readonly clientNotifications: SharedMethods<A['clientNotifications'], B['clientNotifications']>;
  readonly serverRequests: EitherRequests<HandledRequests<A>, HandledRequests<B>>;
  readonly serverNotifications: EitherNotifications<A['serverNotifications'], B['serverNotifications']>;
  readonly inputRequests: {};
  readonly clientCapabilities: CapabilitiesOf<A, 'clientCapabilities', object> | CapabilitiesOf<B, 'clientCapabilities', object>;
  readonly serverCapabilities: CapabilitiesOf<A, 'serverCapabilities', object> | CapabilitiesOf<B, 'serverCapabilities', object>;
}

/**
 * The default types of a {@link Client}: the newest stateful and the newest stateless
 * revision together, since by default a Client speaks whichever era the server does. Methods
 * of one era only (`ping`, `resources/subscribe`, `logging/setLevel`, `server/discover`,
 * `subscriptions/listen`…) need a Client typed with (and pinned to) a revision that has them.
 */
export type BothEras = EitherRevision<Stateful.ProtocolTypes, Stateless.ProtocolTypes>;

/**
 * Requests a Client typed with `T` answers: server requests (stateful era) and input requests
 * (stateless era). One revision never has a method as both, so the maps simply merge.
 */
export type HandledRequests<T extends ProtocolTypesShape> = T['serverRequests'] & InputRequestsOf<T>;

/** The params of handled request `M` (either era's, for a method of both). */
export type HandledParams<T extends ProtocolTypesShape, M extends keyof HandledRequests<T>> = HandledRequests<T>[M]['params'];

/** The result a handler of request `M` returns (either era's, for a method of both). */
export type HandledResult<T extends ProtocolTypesShape, M extends keyof HandledRequests<T>> = HandledRequests<T>[M]['result'];

/** The params a caller gives for client request `M` of `T`; `_meta`, which the Client fills, is optional. */
export type ClientParams<T extends ProtocolTypesShape, M extends keyof T['clientRequests']> = CallerParams<T['clientRequests'][M]['params'], Filled>;

/** The result of client request `M` of `T` (by default either era's, e.g. either revision's `CallToolResult`). */
export type ClientResult<M extends keyof T['clientRequests'], T extends ProtocolTypesShape = BothEras> = T['clientRequests'][M]['result'];

/** The sender name of `method` in the table `Names`. */
type SenderOf<Names, Method extends string> = { [S in keyof Names]: Names[S] extends Method ? S : never }[keyof Names];

/**
 * The typed senders of a Client typed with `T`: one per client request and notification of any
 * pinned revision, callable where `T` has the method and a {@link MethodUnavailable} where it
 * does not. `subscriptions/listen` is sent by `Client.listen`, which follows its stream.
 */
export type ClientSenders<T extends ProtocolTypesShape, O = RequestOptions> = Omit<
  RequestSenders<typeof clientRequestSenders, T['clientRequests'], O, Filled>,
  SenderOf<typeof clientRequestSenders, SubscriptionsListen>
> &
  NotificationSenders<typeof clientNotificationSenders, T['clientNotifications'], O, Filled>;

/** `subscriptions/listen`: the runtime names it because `Client.listen` routes it. */
type SubscriptionsListen = typeof Method.SubscriptionsListen;

/** The filter `Client.listen` takes when `T` has `subscriptions/listen`, else a {@link MethodUnavailable}. */
export type ListenFilter<T extends ProtocolTypesShape> = T['clientRequests'] extends { readonly [K in SubscriptionsListen]: { readonly params: infer P } }
  ? P extends { readonly notifications: infer F } ? F : never
  : MethodUnavailable<SubscriptionsListen>;

/**
 * The refusal of a method the negotiated revision lacks when another revision this Client
 * supports has it, naming the method, the negotiated revision and era, where the method exists
 * and how to pin such a revision; undefined when the negotiated revision has the method or no
 * supported revision does (the engine then reports an unknown or custom method as usual).
 */
export function unavailableMethodError(method: string, negotiated: RevisionFactsView | undefined, supported: readonly RevisionFactsView[]): SdkError | undefined {
  if (negotiated === undefined || negotiated.methods[method] !== undefined) return undefined;
  const having = supported.filter((module) => module.methods[method] !== undefined).sort((a, b) => (a.revision < b.revision ? -1 : 1));
  const newest = having.at(-1);
  if (newest === undefined) return undefined;
  const eras = [...new Set(having.map((module) => module.era))];
  const where = eras.map((era) => `${having.filter((module) => module.era === era).map((module) => module.revision).join(', ')} (${era} era)`).join('; ');
  const pin = newest.era === 'stateless' ? `{ protocolVersion: '${newest.revision}', negotiation: 'pin' }` : `{ protocolVersion: '${newest.revision}' }`;
  return new SdkError(
    'UNKNOWN_METHOD',
    `${method} does not exist in ${negotiated.revision} (${negotiated.era} era), the revision this connection negotiated; it exists in ${where}. ` +
      `To use it, pin such a revision: new Client<ProtocolTypes>(info, ${pin}) with ProtocolTypes imported from 'mcpgen/${newest.revision}'`,
    { data: { method, protocolVersion: negotiated.revision, era: negotiated.era, availableIn: having.map((module) => module.revision) } },
  );
}
