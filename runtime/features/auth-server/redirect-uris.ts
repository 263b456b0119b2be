/**
 * Which redirect URIs a client may register and how a requested one is matched against them:
 * exactly, except that a loopback IP literal (`http://127.0.0.1`, `http://[::1]`) matches on
 * any port, since native apps listen on whatever port is free (RFC 8252 §7.3). Nothing else is
 * loosened: no prefix, wildcard or query matching, so an authorization response (and its code)
 * can only go where the client said.
 */

/** Longest accepted redirect URI, in characters. */
export const MAX_REDIRECT_URI_LENGTH = 2_000;
/** Most redirect URIs one client may register. */
export const MAX_REDIRECT_URIS = 20;

const LOOPBACK_LITERALS = new Set(['127.0.0.1', '[::1]']);
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:', 'filesystem:']);

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/** Whether `url` is `http:` on a loopback IP literal, the one form matched on any port. */
function isLoopbackLiteral(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_LITERALS.has(url.hostname);
}

/**
 * Why `uri` cannot be registered, or undefined when it can: absolute, no fragment, and either
 * `https:`, `http:` on loopback (127.0.0.1, [::1], localhost), or a private-use scheme of a
 * native app (RFC 8252 §7.1, e.g. `com.example.app:/callback`).
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `is longer than ${MAX_REDIRECT_URI_LENGTH} characters`;
  const url = parse(uri);
  if (url === undefined) return 'is not an absolute URI';
  if (url.hash !== '' || uri.includes('#')) return 'has a fragment';
  if (url.username !== '' || url.password !== '') return 'has user information';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') return isLoopbackLiteral(url) || url.hostname === 'localhost' ? undefined : 'uses http: on a host other than loopback';
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `uses the ${url.protocol} scheme`;
  // A private-use scheme is a reversed domain name the app owns (RFC 8252 §7.1).
  return url.protocol.slice(0, -1).includes('.') ? undefined : 'uses a custom scheme that is not a reversed domain name';
}

/** Whether the requested `uri` is one of the `registered` ones (loopback IP literals: on any port). */
export function redirectUriMatches(uri: string, registered: readonly string[]): boolean {
  if (registered.includes(uri)) return true;
  const url = parse(uri);
  if (url === undefined || !isLoopbackLiteral(url) || url.username !== '' || url.password !== '' || uri.includes('#')) return false;
  return registered.some((candidate) => {
    const known = parse(candidate);
    if (known === undefined || !isLoopbackLiteral(known)) return false;
    return known.hostname === url.hostname && known.pathname === url.pathname && known.search === url.search;
  });
}
