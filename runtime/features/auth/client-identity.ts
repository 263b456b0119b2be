/**
 * The client's identity at an authorization server, never one from another server: stored
 * from an earlier registration, pre-registered, a Client ID Metadata Document URL, or a new
 * Dynamic Client Registration.
 */
import { SdkError } from '../../core/errors.js';
import type { FetchLike } from '../../transports/http/client-request.js';
import type { AuthorizationTarget } from './authorization-target.js';
import { chooseAuthMethod, registerClient } from './endpoints.js';
import { assertIssuerAllowed } from './issuer-allowlist.js';
import type { OAuthClientProvider } from './provider.js';
import type { OAuthStore } from './store.js';
import type { OAuthClientInformation, OAuthClientMetadata, TokenEndpointAuthMethod } from './types.js';

/**
 * The client identity at the target's authorization server, never one from another server:
 * stored from an earlier registration, pre-registered, a Client ID Metadata Document URL, or
 * a new Dynamic Client Registration.
 */
export async function clientFor(provider: OAuthClientProvider, store: OAuthStore, fetchImpl: FetchLike, target: AuthorizationTarget, serverUrl: URL, signal: AbortSignal | undefined): Promise<{ client: OAuthClientInformation; method: TokenEndpointAuthMethod }> {
  const credentials = provider.clientCredentials;
  if (credentials !== undefined) {
    if (credentials.clientSecret !== undefined && credentials.privateKey === undefined) assertIssuerAllowed(credentials.issuer, target.issuer, serverUrl, 'clientCredentials');
    const client: OAuthClientInformation = { client_id: credentials.clientId, ...(credentials.clientSecret !== undefined ? { client_secret: credentials.clientSecret } : {}) };
    return { client, method: credentials.privateKey !== undefined ? 'private_key_jwt' : chooseAuthMethod(client, target.metadata) };
  }
  const key = `client:${target.issuer}`;
  const stored = (await store.get(key)) as OAuthClientInformation | undefined;
  if (stored !== undefined && !secretExpired(stored)) return { client: stored, method: chooseAuthMethod(stored, target.metadata) };
  const preRegistered = await provider.clientInformation?.(target.issuer);
  if (preRegistered !== undefined) return { client: preRegistered, method: chooseAuthMethod(preRegistered, target.metadata) };
  const documentUrl = provider.clientMetadataUrl;
  if (documentUrl !== undefined && target.metadata?.client_id_metadata_document_supported === true) {
    return { client: { client_id: documentUrl }, method: 'none' };
  }
  if (target.registrationEndpoint === undefined) {
    throw new SdkError('AUTHORIZATION_FAILED', `The authorization server ${target.issuer} offers no way to obtain a client id (no pre-registered client, no Client ID Metadata Document support, no registration endpoint)`);
  }
  const registered = await registerClient(fetchImpl, target.registrationEndpoint, registrationMetadata(provider, target), signal);
  await store.set(key, registered);
  return { client: registered, method: chooseAuthMethod(registered, target.metadata) };
}

/** The Dynamic Client Registration request: the provider's metadata with defaults for what it leaves out. */
function registrationMetadata(provider: OAuthClientProvider, target: AuthorizationTarget): OAuthClientMetadata {
  const base = provider.clientMetadata ?? {};
  const redirectUri = redirectUriOf(provider);
  const supported = target.metadata?.token_endpoint_auth_methods_supported;
  const method = base.token_endpoint_auth_method
    ?? (supported === undefined || supported.includes('none') ? 'none' : supported.includes('client_secret_basic') ? 'client_secret_basic' : 'client_secret_post');
  return {
    client_name: 'mcpgen client',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...base,
    redirect_uris: base.redirect_uris ?? (redirectUri === undefined ? [] : [redirectUri]),
    token_endpoint_auth_method: method,
    application_type: base.application_type ?? applicationTypeOf(redirectUri),
  };
}

/** The provider's redirect URL as a string, if it has one. */
export function redirectUriOf(provider: OAuthClientProvider): string | undefined {
  const url = provider.redirectUrl;
  return url === undefined ? undefined : String(url);
}

/** Whether a registered client's secret has passed its `client_secret_expires_at`. */
function secretExpired(client: OAuthClientInformation): boolean {
  const expires = client.client_secret_expires_at;
  return typeof expires === 'number' && expires > 0 && expires * 1000 <= Date.now();
}

/** `native` for loopback and custom-scheme redirects (apps on the user's device), `web` otherwise. */
function applicationTypeOf(redirectUri: string | undefined): 'native' | 'web' {
  if (redirectUri === undefined) return 'native';
  try {
    const url = new URL(redirectUri);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'native';
    return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) ? 'native' : 'web';
  } catch {
    return 'native';
  }
}
