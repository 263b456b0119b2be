/**
 * mcpgen's OAuth 2.1 entry (`mcpgen/auth`): the client side of MCP authorization (discovery,
 * client identity, authorization code with PKCE, refresh, step-up, client credentials, the JWT
 * bearer and token exchange grants, DPoP) as fetch middleware, and the resource-server side
 * (bearer tokens, Protected Resource Metadata) for `createMcpHttpHandler`. Runtime-neutral:
 * fetch and WebCrypto only.
 */
export { OAuthAuthorizer, type OAuthAuthorizerOptions } from './authorizer.js';
export {
  DPOP_ALGORITHMS,
  DpopProver,
  dpopTargetUri,
  generateDpopKeyPair,
  InvalidDpopProofError,
  verifyDpopProof,
  type DpopOptions,
  type DpopProofCheck,
  type DpopProofClaims,
  type VerifiedDpopProof,
} from './dpop.js';
export {
  exchangeToken,
  idJagAssertion,
  JWT_BEARER_GRANT_TYPE,
  TOKEN_EXCHANGE_GRANT_TYPE,
  TOKEN_TYPES,
  type AssertionContext,
  type IdJagOptions,
  type JwtBearerConfig,
  type TokenExchangeRequest,
  type TokenExchangeResponse,
} from './grants.js';
export { DEFAULT_MAX_STEP_UPS, withOAuth, type OAuthFetch, type WithOAuthOptions } from './fetch.js';
export type { AuthProviderOption } from '../../transports/http/auth-hooks.js';
import { installOAuthPlugin } from './plugin.js';
export { bearerRequestGuard, installOAuthPlugin, oauthFetchWrapper } from './plugin.js';
export type { ClientCredentialsConfig, OAuthClientProvider } from './provider.js';
export { authInfoOf, createBearerGuard, InvalidTokenError, type BearerAuthOptions, type DpopGuardOptions, type BearerGuard, type GuardOutcome, type TokenVerifier } from './resource-server.js';
export { InMemoryOAuthStore, type OAuthStore } from './store.js';
export type { IssuerAllowlist } from './issuer-allowlist.js';
export { addressClassOf, defaultAuthUrlPolicy, type AddressClass, type AuthUrlCheck, type AuthUrlPolicy, type AuthUrlPurpose } from './url-policy.js';
export type { JwsAlgorithm } from './crypto.js';
export {
  OAuthError,
  type AuthInfo,
  type AuthorizationServerMetadata,
  type OAuthClientInformation,
  type OAuthClientMetadata,
  type OAuthTokens,
  type ProtectedResourceMetadata,
  type StoredTokens,
  type TokenEndpointAuthMethod,
} from './types.js';

// The transports' `authProvider` and `auth` options are served by this plug-in once any entry loads.
installOAuthPlugin();
