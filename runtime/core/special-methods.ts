/**
 * The only method names the runtime spells out. Each one is here because the engine behaves
 * differently for it; every other method is looked up in the bound revision's table.
 */

/** Aborts the handler of the request it names, and suppresses that request's response. */
export const CANCELLED_NOTIFICATION = 'notifications/cancelled';

/** Routed to the `onprogress` callback of the pending request owning its progress token. */
export const PROGRESS_NOTIFICATION = 'notifications/progress';

/** Sent by the handler context's `log()` helper. */
export const LOG_NOTIFICATION = 'notifications/message';

/** Must never appear inside a JSON-RPC batch. */
export const INITIALIZE_REQUEST = 'initialize';
