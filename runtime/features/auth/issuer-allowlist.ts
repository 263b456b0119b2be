/**
 * Which authorization servers a configured credential may be sent to. Discovery learns the
 * issuer from the MCP server's metadata, so whoever controls that metadata names it; a client
 * secret or a workload's JWT configured for one authorization server must not go to another.
 * (`private_key_jwt` needs no list: its assertion names the issuer as its audience.)
 */
import { SdkError } from '../../core/errors.js';

/**
 * The issuers a credential is for: one issuer identifier, several, or a function that decides.
 * Identifiers compare exactly, except for a trailing slash.
 */
export type IssuerAllowlist = string | readonly string[] | ((issuer: string) => boolean);

function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

/**
 * Whether `issuer` is on `allow`; without a list, only an authorization server at the MCP
 * server's own origin is, since nothing else about the credential says where it belongs.
 */
export function issuerAllowed(allow: IssuerAllowlist | undefined, issuer: string, serverUrl: URL): boolean {
  if (allow === undefined) return sameIssuer(issuer, serverUrl.origin);
  if (typeof allow === 'function') return allow(issuer);
  const list: readonly string[] = typeof allow === 'string' ? [allow] : allow;
  return list.some((allowed) => sameIssuer(allowed, issuer));
}

/**
 * Throws SdkError('AUTHORIZATION_FAILED') unless `issuer` is allowed for the credential `what`
 * (e.g. `clientCredentials`), naming the setting that would allow it.
 */
export function assertIssuerAllowed(allow: IssuerAllowlist | undefined, issuer: string, serverUrl: URL, what: string): void {
  if (issuerAllowed(allow, issuer, serverUrl)) return;
  const configured = allow === undefined ? `not configured, so only ${serverUrl.origin} is allowed` : typeof allow === 'function' ? 'a function that refused it' : JSON.stringify(allow);
  throw new SdkError(
    'AUTHORIZATION_FAILED',
    `The metadata of ${serverUrl.origin} names the authorization server ${JSON.stringify(issuer)}, which is not an issuer the ${what} credentials are for (${what}.issuer: ${configured}); refusing to send them there`,
  );
}
