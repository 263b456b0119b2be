/**
 * Authorization of a WebSocket handshake through the HTTP transports' auth plug-in. The plug-in
 * authorizes fetches, so the handshake is presented to it as one GET at the server's http(s)
 * URL: the plug-in adds the token, and on a 401 runs authorization and the "fetch" (a new
 * handshake) once more. Its own requests (metadata, tokens) go to the real fetch.
 */
import type { AuthProvider } from '../http/auth-hooks.js';
import { withAuthProvider } from '../http/auth-hooks.js';
import type { FetchLike } from '../http/client-request.js';
import type { OpenSocket, SocketOutcome } from './socket.js';

/** Opens one handshake with these headers. */
export type HandshakeOpener = (headers: Record<string, string>) => Promise<SocketOutcome>;

/**
 * The handshake's outcome after authorization: an open socket, or the status of the last
 * refusal. `serverUrl` is the `ws(s)` URL; `headers` go with every attempt, under the plug-in's.
 */
export async function authorizedHandshake(
  serverUrl: URL,
  provider: AuthProvider,
  open: HandshakeOpener,
  headers: Record<string, string>,
  signal: AbortSignal,
  fetchImpl: FetchLike = (url, init) => globalThis.fetch(url, init),
): Promise<{ socket: OpenSocket } | { status: number }> {
  const handshakeUrl = new URL(serverUrl.href.replace(/^ws/, 'http'));
  let opened: OpenSocket | undefined;
  const viaHandshake: FetchLike = async (url, init) => {
    if (url.href !== handshakeUrl.href) return fetchImpl(url, init);
    const merged: Record<string, string> = { ...headers };
    new Headers(init.headers).forEach((value, name) => {
      merged[name] = value;
    });
    const outcome = await open(merged);
    if (!outcome.ok) return new Response(null, { status: outcome.status, headers: outcome.headers });
    // A retry that opens again replaces the earlier socket.
    opened?.close(1000);
    opened = outcome.socket;
    return new Response(null, { status: 200 });
  };
  const authorized = withAuthProvider({ authProvider: provider, fetch: viaHandshake }, handshakeUrl).fetch!;
  const response = await authorized(handshakeUrl, { method: 'GET', signal });
  if (response.ok && opened !== undefined) return { socket: opened };
  opened?.close(1000);
  return { status: response.status };
}
