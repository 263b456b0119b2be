/**
 * Shapes of the messages a Streamable HTTP server transport routes: which outgoing messages are
 * responses (and which requests they answer), requests or cancellations, and whether an event
 * store knows a stream's writer is gone.
 */
import { isJsonObject, type JSONRPCMessage, type RequestId } from '../../core/jsonrpc.js';
import { CANCELLED_NOTIFICATION } from '../../core/special-methods.js';
import type { EventStore } from './event-store.js';

/** Whether the store knows the writer of `streamId` stopped; a store that cannot tell (or fails to) says no. */
export async function writerGone(store: EventStore, streamId: string): Promise<boolean> {
  try {
    return (await store.writerGone?.(streamId)) === true;
  } catch {
    return false;
  }
}

/** The ids a response or a batch of responses answers, in order; empty for anything else. */
export function responseIds(message: JSONRPCMessage | JSONRPCMessage[]): RequestId[] {
  const items = Array.isArray(message) ? message : [message];
  const ids: RequestId[] = [];
  for (const item of items) {
    if (isJsonObject(item) && !('method' in item) && ('result' in item || 'error' in item)) {
      const id = (item as { id?: unknown }).id;
      if (typeof id === 'string' || typeof id === 'number') ids.push(id);
    }
  }
  return ids;
}

/** True for a response, or a batch whose first member is a response. */
export function isResponseMessage(message: JSONRPCMessage | JSONRPCMessage[]): boolean {
  const first = Array.isArray(message) ? message[0] : message;
  return isJsonObject(first) && !('method' in first) && ('result' in first || 'error' in first);
}

/** True for a single `notifications/cancelled`. */
export function isCancellation(message: JSONRPCMessage | JSONRPCMessage[]): boolean {
  return !Array.isArray(message) && 'method' in message && message.method === CANCELLED_NOTIFICATION;
}

/** True for a single request (a method and an id). */
export function isRequestMessage(message: JSONRPCMessage | JSONRPCMessage[]): boolean {
  return !Array.isArray(message) && 'method' in message && 'id' in message;
}
