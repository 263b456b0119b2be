import { Method } from '../../generated/methods.js';

/**
 * The methods the engine treats specially, by role. Each one is here because the engine
 * behaves differently for it; every other method is looked up in the bound revision's table.
 * The names come from the generated method constants.
 */

/** Aborts the handler of the request it names, and suppresses that request's response. */
export const CANCELLED_NOTIFICATION = Method.NotificationsCancelled;

/** Routed to the `onprogress` callback of the pending request owning its progress token. */
export const PROGRESS_NOTIFICATION = Method.NotificationsProgress;

/** Sent by the handler context's `log()` helper. */
export const LOG_NOTIFICATION = Method.NotificationsMessage;

/** Must never appear inside a JSON-RPC batch. */
export const INITIALIZE_REQUEST = Method.Initialize;
