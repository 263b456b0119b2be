/**
 * Assertion grants for clients that get their authority from elsewhere: the JWT bearer grant
 * (RFC 7523 §2.1) with an assertion supplied by the platform (workload identity federation,
 * SEP-1933) or by an enterprise identity provider (enterprise-managed authorization, SEP-990),
 * and OAuth 2.0 Token Exchange (RFC 8693), with which an identity provider turns the user's ID
 * token into that assertion (an Identity Assertion JWT Authorization Grant, ID-JAG).
 */
import { SdkError } from '../../core/errors.js';
import type { FetchLike } from '../../transports/http/client-request.js';
import type { JwsAlgorithm } from './crypto.js';
import { chooseAuthMethod, requestToken } from './endpoints.js';
import type { IssuerAllowlist } from './issuer-allowlist.js';
import type { OAuthClientInformation, OAuthTokens } from './types.js';

/** `grant_type` of the JWT bearer grant (RFC 7523 §2.1). */
export const JWT_BEARER_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** `grant_type` of OAuth 2.0 Token Exchange (RFC 8693 §2.1). */
export const TOKEN_EXCHANGE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** Token type identifiers (RFC 8693 §3) the MCP extensions use. */
export const TOKEN_TYPES = {
  accessToken: 'urn:ietf:params:oauth:token-type:access_token',
  idToken: 'urn:ietf:params:oauth:token-type:id_token',
  jwt: 'urn:ietf:params:oauth:token-type:jwt',
  /** An Identity Assertion JWT Authorization Grant (SEP-990). */
  idJag: 'urn:ietf:params:oauth:token-type:id-jag',
} as const;

/** What an assertion is for, as the client's authorizer knows it when it needs one. */
export interface AssertionContext {
  /** The issuer of the MCP server's authorization server: the audience of the assertion. */
  readonly issuer: string;
  /** The MCP server's resource identifier. */
  readonly resource: string;
  /** The scope about to be requested, if any. */
  readonly scope: string | undefined;
  readonly tokenEndpoint: string;
  readonly signal: AbortSignal | undefined;
}

/**
 * Configures the JWT bearer grant (the `jwtBearer` member of an `OAuthClientProvider`): each time
 * the client needs a token it asks `assertion` for a JWT and presents it at the MCP server's
 * authorization server. There is no browser, and a refused grant is reported, not retried with
 * another grant.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import type { JwtBearerConfig } from 'mcpgen/auth';
 *
 * // A Kubernetes workload presenting its projected service account token.
 * const jwtBearer: JwtBearerConfig = {
 *   assertion: async () => (await readFile('/var/run/secrets/tokens/mcp-token', 'utf8')).trim(),
 * };
 * ```
 */
export interface JwtBearerConfig {
  /** The JWT to present; called for every grant, so that short-lived assertions are fresh. */
  assertion(context: AssertionContext): string | Promise<string>;
  /** The client id at the authorization server; without it the request carries no client authentication. */
  readonly clientId?: string | undefined;
  /** A client secret (`client_secret_basic` or `client_secret_post`, as the server supports). */
  readonly clientSecret?: string | undefined;
  /** A PKCS #8 PEM text or a WebCrypto signing key; selects `private_key_jwt` client authentication. */
  readonly privateKey?: string | CryptoKey | undefined;
  /** The signing algorithm of `privateKey` (default ES256). */
  readonly signingAlgorithm?: JwsAlgorithm | undefined;
  /** The scope to request when the server's challenge names none. */
  readonly scope?: string | undefined;
  /**
   * The authorization servers (issuer identifiers) the assertion and `clientSecret` are for;
   * neither is asked for nor sent when the metadata names another issuer. Default: only an
   * authorization server at the MCP server's own origin.
   */
  readonly issuer?: IssuerAllowlist | undefined;
}

/** A token exchange request (RFC 8693 §2.1). */
export interface TokenExchangeRequest {
  readonly tokenEndpoint: string | URL;
  readonly subjectToken: string;
  readonly subjectTokenType: string;
  readonly requestedTokenType?: string | undefined;
  /** The logical name of the target service (`audience`). */
  readonly audience?: string | undefined;
  /** The resource the token is for (`resource`, RFC 8707). */
  readonly resource?: string | undefined;
  readonly scope?: string | undefined;
  /** The client at the token endpoint, if it authenticates (secret: `client_secret_basic`, else `none`). */
  readonly clientId?: string | undefined;
  readonly clientSecret?: string | undefined;
  readonly fetch?: FetchLike | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** A token exchange response (RFC 8693 §2.2.1). */
export interface TokenExchangeResponse extends OAuthTokens {
  /** The type of the token in `access_token`, e.g. {@link TOKEN_TYPES}.idJag. */
  readonly issued_token_type: string;
}

/**
 * Exchanges one token for another at a token endpoint (RFC 8693). Rejects with an `OAuthError`
 * when the server refuses, and with SdkError('AUTHORIZATION_FAILED') when the answer lacks
 * `issued_token_type` or is otherwise unusable.
 *
 * @example
 * ```ts
 * import { exchangeToken, TOKEN_TYPES } from 'mcpgen/auth';
 *
 * declare const idToken: string;
 * const { access_token: idJag } = await exchangeToken({
 *   tokenEndpoint: 'https://idp.example.com/oauth2/token',
 *   clientId: 'mcp-host',
 *   subjectToken: idToken,
 *   subjectTokenType: TOKEN_TYPES.idToken,
 *   requestedTokenType: TOKEN_TYPES.idJag,
 *   audience: 'https://as.example.com',
 *   resource: 'https://mcp.example.com/mcp',
 * });
 * ```
 */
export async function exchangeToken(request: TokenExchangeRequest): Promise<TokenExchangeResponse> {
  const client: OAuthClientInformation | undefined = request.clientId === undefined
    ? undefined
    : { client_id: request.clientId, ...(request.clientSecret !== undefined ? { client_secret: request.clientSecret } : {}) };
  const endpoint = String(request.tokenEndpoint);
  const tokens = await requestToken({
    endpoint,
    params: {
      grant_type: TOKEN_EXCHANGE_GRANT_TYPE,
      subject_token: request.subjectToken,
      subject_token_type: request.subjectTokenType,
      requested_token_type: request.requestedTokenType,
      audience: request.audience,
      resource: request.resource,
      scope: request.scope,
    },
    client,
    method: client === undefined ? 'none' : chooseAuthMethod(client, undefined),
    fetch: request.fetch ?? ((url, init) => globalThis.fetch(url, init)),
    signal: request.signal,
  });
  if (typeof tokens.issued_token_type !== 'string') {
    throw new SdkError('AUTHORIZATION_FAILED', `The token exchange at ${endpoint} answered without issued_token_type`);
  }
  return tokens as TokenExchangeResponse;
}

/** Options of {@link idJagAssertion}: the enterprise identity provider and the user's ID token there. */
export interface IdJagOptions {
  /** The identity provider's token endpoint. */
  readonly tokenEndpoint: string | URL;
  /** The user's ID token from the identity provider (or a function that returns a current one). */
  readonly idToken: string | (() => string | Promise<string>);
  /** This client's id (and secret) at the identity provider. */
  readonly clientId?: string | undefined;
  readonly clientSecret?: string | undefined;
  readonly fetch?: FetchLike | undefined;
}

/**
 * The assertion source of enterprise-managed authorization (SEP-990): for each grant it
 * exchanges the user's ID token at the enterprise identity provider for an ID-JAG addressed to
 * the MCP server's authorization server and resource, which the JWT bearer grant then presents.
 *
 * @example
 * ```ts
 * import { idJagAssertion, type OAuthClientProvider } from 'mcpgen/auth';
 *
 * declare const idToken: string;
 * const provider: OAuthClientProvider = {
 *   jwtBearer: {
 *     clientId: 'mcp-host',
 *     clientSecret: 'secret-at-the-mcp-authorization-server',
 *     issuer: 'https://as.example.com',
 *     assertion: idJagAssertion({ tokenEndpoint: 'https://idp.example.com/oauth2/token', clientId: 'mcp-host-at-idp', idToken }),
 *   },
 * };
 * ```
 */
export function idJagAssertion(options: IdJagOptions): JwtBearerConfig['assertion'] {
  return async (context) => {
    const idToken = typeof options.idToken === 'string' ? options.idToken : await options.idToken();
    const response = await exchangeToken({
      tokenEndpoint: options.tokenEndpoint,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      subjectToken: idToken,
      subjectTokenType: TOKEN_TYPES.idToken,
      requestedTokenType: TOKEN_TYPES.idJag,
      audience: context.issuer,
      resource: context.resource,
      scope: context.scope,
      fetch: options.fetch,
      signal: context.signal,
    });
    if (response.issued_token_type !== TOKEN_TYPES.idJag) {
      throw new SdkError('AUTHORIZATION_FAILED', `The identity provider issued a ${response.issued_token_type}, not an ID-JAG`);
    }
    return response.access_token;
  };
}
