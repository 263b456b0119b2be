/**
 * The OAuth documents MCP authorization exchanges, as the client and the resource server read
 * them. Only the members mcpgen acts on are named; everything else is kept as received.
 */

/** OAuth 2.0 Protected Resource Metadata (RFC 9728 §2). */
export interface ProtectedResourceMetadata {
  /** The resource identifier: the MCP server's canonical URI. */
  readonly resource: string;
  /** Issuer identifiers of the authorization servers that issue tokens for it. */
  readonly authorization_servers?: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly bearer_methods_supported?: readonly string[];
  readonly resource_name?: string;
  readonly resource_documentation?: string;
  readonly [member: string]: unknown;
}

/** OAuth 2.0 Authorization Server Metadata (RFC 8414 §2) or OpenID Provider Metadata. */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly authorization_endpoint?: string;
  readonly token_endpoint?: string;
  readonly registration_endpoint?: string;
  readonly scopes_supported?: readonly string[];
  readonly response_types_supported?: readonly string[];
  readonly grant_types_supported?: readonly string[];
  readonly token_endpoint_auth_methods_supported?: readonly string[];
  readonly token_endpoint_auth_signing_alg_values_supported?: readonly string[];
  readonly code_challenge_methods_supported?: readonly string[];
  /** RFC 9207: the server puts `iss` into authorization responses. */
  readonly authorization_response_iss_parameter_supported?: boolean;
  /** The server accepts HTTPS URLs of Client ID Metadata Documents as client ids. */
  readonly client_id_metadata_document_supported?: boolean;
  readonly [member: string]: unknown;
}

/** How a client authenticates at the token endpoint. */
export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none' | 'private_key_jwt';

/** Client metadata (RFC 7591 §2), sent in Dynamic Client Registration and published as a Client ID Metadata Document. */
export interface OAuthClientMetadata {
  readonly client_name?: string;
  readonly redirect_uris?: readonly string[];
  readonly grant_types?: readonly string[];
  readonly response_types?: readonly string[];
  readonly token_endpoint_auth_method?: string;
  /** `native` for apps redirecting to loopback or custom schemes, `web` for hosted apps (OpenID Connect Registration). */
  readonly application_type?: 'native' | 'web';
  readonly scope?: string;
  readonly client_uri?: string;
  readonly logo_uri?: string;
  readonly software_id?: string;
  readonly software_version?: string;
  readonly [member: string]: unknown;
}

/** A client identity at one authorization server. */
export interface OAuthClientInformation {
  readonly client_id: string;
  readonly client_secret?: string;
  /** Unix seconds; 0 or absent: never. */
  readonly client_secret_expires_at?: number;
  /** The method the server registered, when it said. */
  readonly token_endpoint_auth_method?: string;
  readonly [member: string]: unknown;
}

/** A token response (RFC 6749 §5.1). */
export interface OAuthTokens {
  readonly access_token: string;
  readonly token_type: string;
  readonly expires_in?: number;
  readonly refresh_token?: string;
  readonly scope?: string;
  readonly [member: string]: unknown;
}

/** Tokens as the client keeps them: the response plus what it needs to use and renew them. */
export interface StoredTokens {
  readonly tokens: OAuthTokens;
  /** The authorization server that issued them. */
  readonly issuer: string;
  /** The resource they were requested for. */
  readonly resource: string;
  /** Unix milliseconds at which the access token expires, when the server said. */
  readonly expiresAt?: number;
  /** The scope the client asked for (the base of step-up unions). */
  readonly requestedScope?: string;
}

/**
 * Verified credentials of one HTTP request, as the resource server hands them to handlers
 * (read them with `authInfoOf(context)`).
 *
 * @example
 * ```ts
 * import type { AuthInfo } from 'mcpgen/auth';
 *
 * const info: AuthInfo = { token: 'opaque', scopes: ['files:read'], expiresAt: Math.floor(Date.now() / 1000) + 3600, resource: 'https://files.example.com/mcp' };
 * ```
 */
export interface AuthInfo {
  /** The access token as presented. */
  readonly token: string;
  /** The OAuth client the token was issued to, when known. */
  readonly clientId?: string;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /** Unix seconds at which the token expires, when known. */
  readonly expiresAt?: number;
  /** The resource (audience) the token was issued for. */
  readonly resource?: string;
  /** The end user, when known. */
  readonly subject?: string;
  /**
   * The authorization server that issued the token, when known. With `subject` and `clientId`
   * it names whose Streamable HTTP and HTTP+SSE sessions this token may touch.
   */
  readonly issuer?: string;
  /**
   * The key the token is bound to (`cnf`, RFC 7800): `jkt` is the JWK SHA-256 thumbprint of a
   * DPoP-bound token's key (RFC 9449 §6). A guard with `dpop` on accepts such a token only with
   * a DPoP proof signed by that key.
   */
  readonly confirmation?: { readonly jkt?: string | undefined } | undefined;
  /** Anything else the verifier wants handlers to see. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * An OAuth error response from an authorization server (RFC 6749 §5.2) or an error
 * authorization response (§4.1.2.1).
 *
 * @example
 * ```ts
 * import { OAuthAuthorizer, OAuthError } from 'mcpgen/auth';
 *
 * const authorizer = new OAuthAuthorizer('https://mcp.example.com/mcp', { clientCredentials: { clientId: 'job', clientSecret: 'secret', issuer: 'https://auth.example.com' } });
 * try {
 *   await authorizer.authorize();
 * } catch (error) {
 *   if (error instanceof OAuthError && error.error === 'invalid_client') console.error('The credentials were refused');
 * }
 * ```
 */
export class OAuthError extends Error {
  /** The OAuth error code, e.g. `invalid_grant`. */
  readonly error: string;
  readonly errorDescription: string | undefined;
  /** The HTTP status, for token and registration endpoint errors. */
  readonly status: number | undefined;

  constructor(error: string, errorDescription?: string, status?: number) {
    super(errorDescription === undefined ? `OAuth error ${error}` : `OAuth error ${error}: ${errorDescription}`);
    this.name = 'OAuthError';
    this.error = error;
    this.errorDescription = errorDescription;
    this.status = status;
  }
}
