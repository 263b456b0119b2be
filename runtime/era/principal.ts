/**
 * Who sent a request, as far as its authentication says: the key under which a sealed request
 * state and a task are bound to their requester.
 */
import { isJsonObject } from '../core/jsonrpc.js';
import type { MessageExtra } from '../core/transport.js';

/**
 * The principal of a request, prefixed by its kind so that user "x" and client "x" differ:
 * `subject:<sub>` for an authenticated subject, else `client:<id>` for an authenticated client,
 * else undefined (an anonymous request).
 */
export function principalOf(extra: MessageExtra | undefined): string | undefined {
  const auth = extra?.authInfo;
  if (!isJsonObject(auth)) return undefined;
  if (typeof auth.subject === 'string') return `subject:${auth.subject}`;
  return typeof auth.clientId === 'string' ? `client:${auth.clientId}` : undefined;
}
