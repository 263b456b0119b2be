/**
 * The contract between mcpgen's authorization-server endpoints and what decides behind them:
 * the endpoints parse and check every request (client, redirect URI, PKCE, resource), and an
 * {@link AuthorizationServerProvider} grants, exchanges, verifies and revokes. The built-in
 * provider keeps grants in a store; the proxy provider forwards them to an upstream server.
 */
import type { HttpRequestView } from '../../transports/http/http-types.js';
import type { HttpReply } from '../../transports/http/http-types.js';
import type { AuthInfo, AuthorizationServerMetadata, OAuthClientMetadata, OAuthTokens } from '../auth/types.js';

/** How a client authenticates at the token and revocation endpoints. */
export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** Client metadata that passed the registration endpoint's checks, before it has an id. */
export interface ClientRegistration extends OAuthClientMetadata {
  readonly redirect_uris: readonly string[];
  readonly token_endpoint_auth_method: ClientAuthMethod;
  readonly grant_types: readonly string[];
  readonly response_types: readonly string[];
}

/**
 * A client the authorization server knows: registered (RFC 7591), pre-registered, or read from
 * its Client ID Metadata Document. `redirect_uris` are compared exactly (loopback IP literals:
 * on any port, RFC 8252 §7.3).
 */
export interface RegisteredClient extends ClientRegistration {
  readonly client_id: string;
  /** The secret of a confidential client (absent for `none`). */
  readonly client_secret?: string;
  /** Unix seconds. */
  readonly client_id_issued_at?: number;
  /** Unix seconds; 0: never. */
  readonly client_secret_expires_at?: number;
}

/** An authorization request whose client, redirect URI, PKCE challenge, scope and resource were checked. */
export interface AuthorizationRequest {
  readonly client: RegisteredClient;
  /** The redirect URI the response goes to (the one the request named, or the client's only one). */
  readonly redirectUri: string;
  /** Whether the request named `redirect_uri` (then the token request must repeat it). */
  readonly redirectUriGiven: boolean;
  readonly state: string | undefined;
  readonly scopes: readonly string[];
  /** The RFC 8707 resource the token will be for: the one asked for, or the server's default. */
  readonly resource: string;
  /** The S256 PKCE challenge (`plain` is refused before a provider sees the request). */
  readonly codeChallenge: string;
}

/** What a provider sees of the HTTP request behind an authorization request (cookies, a submitted form). */
export interface AuthorizationContext {
  /** The request (headers such as `cookie`). */
  readonly http: HttpRequestView;
  /** Every parameter: the query of a GET, the form of a POST (a consent page posting back adds its own fields). */
  readonly params: URLSearchParams;
}

/** How an authorization request ends. */
export type AuthorizationOutcome =
  /** Approved: the client is redirected back with this code (and its `state`, and `iss`). */
  | { readonly kind: 'code'; readonly code: string }
  /** Refused: the client is redirected back with this OAuth error (`access_denied`…). */
  | { readonly kind: 'error'; readonly error: string; readonly description?: string | undefined }
  /** The user goes elsewhere first: a login page, or the upstream authorization server. */
  | { readonly kind: 'redirect'; readonly location: string }
  /** A page for the user (a login or consent form, usually posting back to the authorization endpoint). */
  | { readonly kind: 'page'; readonly html: string; readonly status?: number | undefined; readonly headers?: Readonly<Record<string, string>> | undefined };

/** A checked authorization code grant request. */
export interface CodeGrantRequest {
  readonly code: string;
  readonly codeVerifier: string;
  /** The `redirect_uri` parameter, when present. */
  readonly redirectUri: string | undefined;
  /** The `resource` parameter, when present. */
  readonly resource: string | undefined;
}

/** A checked refresh token grant request. */
export interface RefreshGrantRequest {
  readonly refreshToken: string;
  /** The scopes asked for (a subset of the grant's); undefined keeps the grant's. */
  readonly scopes: readonly string[] | undefined;
  readonly resource: string | undefined;
}

/** A checked revocation request (RFC 7009). */
export interface RevocationRequest {
  readonly token: string;
  readonly tokenTypeHint: string | undefined;
}

/** What the server tells its provider about itself once, when it is created. */
export interface AuthorizationServerBinding {
  readonly issuer: string;
  /** The absolute URL of an endpoint path below the issuer, e.g. `endpoint('/callback')`. */
  endpoint(path: string): string;
}

/**
 * What decides behind the endpoints. Methods throw `OAuthError` (from `mcpgen/auth`) to answer
 * with an OAuth error (`invalid_grant`…); any other failure is answered `server_error`.
 *
 * @example
 * ```ts
 * import { InMemoryAuthorizationStore, LocalAuthorizationProvider, type AuthorizationServerProvider } from 'mcpgen/auth-server';
 *
 * // The built-in provider implements this interface; your own user logic goes into `decide`.
 * const provider: AuthorizationServerProvider = new LocalAuthorizationProvider({
 *   store: new InMemoryAuthorizationStore(),
 *   decide: (request) => ({ approve: { subject: 'alice', scopes: request.scopes } }),
 * });
 * ```
 */
export interface AuthorizationServerProvider {
  /** The client with this id, or undefined. */
  getClient(clientId: string): Promise<RegisteredClient | undefined>;
  /** Registers a client (assigning its id and secret); absent: the server offers no registration. */
  registerClient?(registration: ClientRegistration): Promise<RegisteredClient>;
  /** Decides a checked authorization request. */
  authorize(request: AuthorizationRequest, context: AuthorizationContext): Promise<AuthorizationOutcome>;
  /** Exchanges an authorization code of `client` for tokens. */
  exchangeAuthorizationCode(client: RegisteredClient, request: CodeGrantRequest): Promise<OAuthTokens>;
  /** Exchanges a refresh token of `client` for new tokens (a new refresh token, too). */
  exchangeRefreshToken(client: RegisteredClient, request: RefreshGrantRequest): Promise<OAuthTokens>;
  /** Revokes a token of `client`; unknown tokens are ignored (RFC 7009 §2.2). Absent: no revocation endpoint. */
  revokeToken?(client: RegisteredClient, request: RevocationRequest): Promise<void>;
  /** The verified token, for the resource-server guard; undefined for an invalid one. */
  verifyAccessToken(token: string): Promise<AuthInfo | undefined>;
  /** Members added to the authorization server metadata. */
  readonly metadata?: Partial<AuthorizationServerMetadata> | undefined;
  /** Called once by the server it serves. */
  bind?(server: AuthorizationServerBinding): void;
  /** Answers requests to paths of its own below the issuer (the proxy's callback); undefined: not one. */
  route?(request: HttpRequestView): Promise<HttpReply | undefined>;
}
