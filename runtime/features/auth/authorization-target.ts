/**
 * Where an MCP server's tokens come from: Protected Resource Metadata and authorization server
 * discovery resolved to one target (issuer, endpoints, supported scopes), and the scope to ask it for.
 */
import { SdkError } from '../../core/errors.js';
import type { FetchLike } from '../../transports/http/client-request.js';
import type { BearerChallenge } from './challenge.js';
import { canonicalResource, discoverAuthorizationServer, discoverProtectedResource, resourceCovers } from './discovery.js';
import type { JwtBearerConfig } from './grants.js';
import type { ClientCredentialsConfig, OAuthClientProvider } from './provider.js';
import type { AuthorizationServerMetadata, StoredTokens } from './types.js';
import type { AuthUrlGate, AuthUrlPurpose } from './url-policy.js';

const OFFLINE_ACCESS = 'offline_access';

/** Everything discovery learnt about who issues tokens for the server. */
export interface AuthorizationTarget {
  /** The `resource` parameter: the metadata's resource, or the server's canonical URI without metadata. */
  readonly resource: string;
  readonly issuer: string;
  readonly metadata: AuthorizationServerMetadata | undefined;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly registrationEndpoint: string | undefined;
  readonly scopesSupported: readonly string[] | undefined;
}

/** The credentials of a client that authorizes without a user: the JWT bearer grant's, else `clientCredentials`. */
export function machineCredentials(provider: OAuthClientProvider): JwtBearerConfig | ClientCredentialsConfig | undefined {
  return provider.jwtBearer ?? provider.clientCredentials;
}

/** How discovery checks what servers tell it. */
export interface TargetOptions {
  /** Checks every URL learnt from a server (scheme and URL policy). */
  readonly gate: AuthUrlGate;
  /** Use the default endpoints of a 2025-03-26 server that publishes no metadata. */
  readonly legacyEndpointFallback: boolean;
}

/**
 * Discovers who issues tokens for the server: its Protected Resource Metadata (refused when
 * its `resource` does not cover the server), then the first listed authorization server's
 * metadata. Without Protected Resource Metadata (MCP 2025-03-26 servers) the authorization
 * server lives at the server's origin; when it has no metadata either, its PKCE support
 * cannot be confirmed, so the default endpoints are used only with `legacyEndpointFallback`.
 * The issuer and every endpoint pass the gate before anything is sent there.
 */
export async function discoverTarget(serverUrl: URL, challenge: BearerChallenge | undefined, fetchImpl: FetchLike, signal: AbortSignal | undefined, target: TargetOptions): Promise<AuthorizationTarget> {
  const { gate } = target;
  const options = { fetch: fetchImpl, signal, gate };
  const prm = await discoverProtectedResource(serverUrl, challenge?.resourceMetadata, options);
  if (prm !== undefined) {
    const { resource } = prm.metadata;
    if (!resourceCovers(resource, serverUrl)) {
      throw new SdkError('AUTHORIZATION_FAILED', `The Protected Resource Metadata at ${prm.url} is for ${resource}, not for ${serverUrl.href}; refusing to authorize`);
    }
    const issuer = prm.metadata.authorization_servers?.[0];
    if (typeof issuer !== 'string') throw new SdkError('AUTHORIZATION_FAILED', `The Protected Resource Metadata at ${prm.url} names no authorization server`);
    await gate.check(issuer, 'authorization-server');
    const as = await discoverAuthorizationServer(issuer, options);
    if (as === undefined) throw new SdkError('AUTHORIZATION_FAILED', `The authorization server ${issuer} publishes no metadata`);
    return await targetOf(resource, issuer, as.metadata, prm.metadata.scopes_supported, gate);
  }
  const origin = serverUrl.origin;
  await gate.check(origin, 'authorization-server');
  const as = await discoverAuthorizationServer(origin, options);
  if (as === undefined && !target.legacyEndpointFallback) {
    throw new SdkError(
      'AUTHORIZATION_FAILED',
      `${serverUrl.href} publishes no Protected Resource Metadata and ${origin} no authorization server metadata, so PKCE support cannot be confirmed; refusing to authorize (legacyEndpointFallback allows the default endpoints of 2025-03-26 servers)`,
    );
  }
  return await targetOf(canonicalResource(serverUrl), origin, as?.metadata, undefined, gate);
}

/** The endpoint members of authorization server metadata, with what each is for. */
const ENDPOINTS: readonly (readonly [keyof AuthorizationServerMetadata & string, AuthUrlPurpose])[] = [
  ['authorization_endpoint', 'authorization-endpoint'],
  ['token_endpoint', 'token-endpoint'],
  ['registration_endpoint', 'registration-endpoint'],
  ['revocation_endpoint', 'revocation-endpoint'],
  ['jwks_uri', 'jwks'],
];

/**
 * The target of an issuer: its metadata's endpoints, or the default ones at its origin without
 * metadata. Every endpoint the metadata names passes the gate, used or not: metadata that points
 * anywhere it may not is not the authorization server's to trust.
 */
async function targetOf(resource: string, issuer: string, metadata: AuthorizationServerMetadata | undefined, scopesSupported: readonly string[] | undefined, gate: AuthUrlGate): Promise<AuthorizationTarget> {
  const base = new URL(issuer).origin;
  if (metadata === undefined) {
    return { resource, issuer, metadata, authorizationEndpoint: `${base}/authorize`, tokenEndpoint: `${base}/token`, registrationEndpoint: `${base}/register`, scopesSupported };
  }
  if (metadata.token_endpoint === undefined) throw new SdkError('AUTHORIZATION_FAILED', `The authorization server ${issuer} has no token endpoint`);
  for (const [member, purpose] of ENDPOINTS) {
    const value = metadata[member];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new SdkError('AUTHORIZATION_FAILED', `The authorization server ${issuer} has a ${member} that is not a string`);
    await gate.check(value, purpose);
  }
  return {
    resource,
    issuer,
    metadata,
    authorizationEndpoint: metadata.authorization_endpoint ?? `${base}/authorize`,
    tokenEndpoint: metadata.token_endpoint,
    registrationEndpoint: metadata.registration_endpoint,
    scopesSupported,
  };
}

/**
 * The scope to request: the step-up union; else the challenge's scope together with what was
 * asked for before (or the provider's `scope`); else the provider's `scope`, else the
 * resource's `scopes_supported`; else none. `offline_access` is added only where the
 * authorization server lists it.
 */
export function selectScope(provider: OAuthClientProvider, target: AuthorizationTarget, challenge: BearerChallenge | undefined, stepUpScope: string | undefined, previous: StoredTokens | undefined): string | undefined {
  const carried = previous?.issuer === target.issuer ? previous.requestedScope : undefined;
  const configured = machineCredentials(provider) === undefined ? provider.scope : undefined;
  let scope = stepUpScope ?? (challenge?.scope !== undefined
    ? unionScopes(carried ?? configured, challenge.scope)
    : configured !== undefined ? unionScopes(carried, configured) : target.scopesSupported?.join(' ') || carried);
  const words = scope === undefined ? [] : scope.split(/\s+/).filter((word) => word !== '' && word !== OFFLINE_ACCESS);
  const offline = provider.offlineAccess !== false && machineCredentials(provider) === undefined && target.metadata?.scopes_supported?.includes(OFFLINE_ACCESS) === true;
  if (words.length > 0 && offline) words.push(OFFLINE_ACCESS);
  scope = words.length === 0 ? undefined : words.join(' ');
  return scope;
}

/** The words of a space-separated scope list. */
function scopeWords(scope: string | undefined): string[] {
  return scope === undefined ? [] : scope.split(/\s+/).filter((word) => word !== '');
}

/** The union of two space-separated scope lists, in first-seen order; undefined when empty. */
export function unionScopes(a: string | undefined, b: string | undefined): string | undefined {
  const words = [...new Set([...scopeWords(a), ...scopeWords(b)])];
  return words.length === 0 ? undefined : words.join(' ');
}

/** Whether two scope lists hold the same words, in any order. */
export function sameScopes(a: string | undefined, b: string | undefined): boolean {
  const left = new Set(scopeWords(a));
  const right = new Set(scopeWords(b));
  return left.size === right.size && [...left].every((word) => right.has(word));
}
