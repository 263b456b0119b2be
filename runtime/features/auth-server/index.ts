/**
 * mcpgen's OAuth authorization-server entry (`mcpgen/auth-server`): the endpoints an MCP client
 * uses (RFC 8414 metadata, authorization with PKCE S256, the authorization code and refresh
 * token grants, RFC 7591 registration, RFC 7009 revocation, Client ID Metadata Documents) in
 * front of a provider: the built-in one with your user and consent logic, a proxy to an
 * upstream authorization server, or your own. Runtime-neutral: Fetch and WebCrypto only.
 */
export { createAuthorizationServer, type AuthorizationServer, type AuthorizationServerOptions, type ResourceGuardOptions } from './server.js';
export { LocalAuthorizationProvider, MAX_CODE_TTL_SECONDS, type AccessTokenFormat, type AuthorizationDecision, type LocalAuthorizationProviderOptions } from './local-provider.js';
export { ProxyAuthorizationProvider, type ProxyAuthorizationProviderOptions, type UpstreamEndpoints } from './proxy-provider.js';
export { InMemoryAuthorizationStore, type AuthorizationStore, type CodeRecord, type Consumed, type InMemoryAuthorizationStoreOptions, type TokenRecord } from './store.js';
export type { RegistrationLimits } from './registration-endpoint.js';
export type { ClientMetadataDocumentOptions } from './client-metadata-documents.js';
export { DEFAULT_AUTH_SERVER_MAX_BODY_BYTES } from './replies.js';
export type {
  AuthorizationContext,
  AuthorizationOutcome,
  AuthorizationRequest,
  AuthorizationServerBinding,
  AuthorizationServerProvider,
  ClientAuthMethod,
  ClientRegistration,
  CodeGrantRequest,
  RefreshGrantRequest,
  RegisteredClient,
  RevocationRequest,
} from './types.js';
