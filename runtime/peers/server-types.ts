/**
 * What a Server may send by the protocol types it is typed with: the typed senders come from
 * the generated sender tables and `T`'s maps, so a Server typed with one revision's
 * `ProtocolTypes` offers exactly that revision's server→client requests and notifications.
 */
import type { serverNotificationSenders, serverRequestSenders } from '../../generated/senders.js';
import type { ProtocolTypesShape } from './protocol-types.js';
import type { RequestOptions } from '../core/request-context.js';
import type { NotificationSenders, RequestSenders } from './senders.js';

/**
 * The typed senders of a Server typed with `T`: one per server→client JSON-RPC request and
 * server notification of any pinned revision, callable where `T` has the method and a
 * `MethodUnavailable` where it does not. The stateless era has no server→client requests (a
 * handler asks through its request context instead), so `Server<Stateless.ProtocolTypes>`
 * offers notifications only.
 */
export type ServerSenders<T extends ProtocolTypesShape, O = RequestOptions> = RequestSenders<typeof serverRequestSenders, T['serverRequests'], O> &
  NotificationSenders<typeof serverNotificationSenders, T['serverNotifications'], O>;
