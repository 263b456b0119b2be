/**
 * Whose session it is. A session opened with verified credentials belongs to the identity they
 * name (issuer, subject, client id), and every later request of that session must name the same
 * one: otherwise a second user holding any valid token and the first user's session id could
 * open the first user's streams, replay their events, end their session or post into it. A
 * mismatch is answered exactly like an unknown session (404), so ids cannot be probed.
 *
 * The identity is read from the request's `authInfo` as a JSON object (the auth plug-in's
 * `AuthInfo`), so this layer names no scheme; a token refresh keeps the identity and so the
 * session. Credentials that name none of the three give sessions no owner to check.
 */
import { isJsonObject } from '../../core/jsonrpc.js';

/** The owner key of the credentials a request carries; undefined without credentials or identity. */
export function sessionOwnerOf(authInfo: unknown): string | undefined {
  if (!isJsonObject(authInfo)) return undefined;
  const part = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  const identity = [part(authInfo.issuer), part(authInfo.subject), part(authInfo.clientId)];
  return identity.every((value) => value === null) ? undefined : JSON.stringify(identity);
}

/** True when a request with `authInfo` may touch a session owned by `owner`. */
export function ownsSession(owner: string | undefined, authInfo: unknown): boolean {
  return owner === sessionOwnerOf(authInfo);
}
