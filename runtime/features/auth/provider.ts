/**
 * What an application tells mcpgen's OAuth client: who it is, where it keeps credentials, and
 * how the user gets to the authorization server and back.
 */
import type { JwsAlgorithm } from './crypto.js';
import type { DpopOptions } from './dpop.js';
import type { JwtBearerConfig } from './grants.js';
import type { IssuerAllowlist } from './issuer-allowlist.js';
import type { OAuthStore } from './store.js';
import type { OAuthClientInformation, OAuthClientMetadata } from './types.js';
import type { AuthUrlPolicy } from './url-policy.js';

/**
 * Credentials of a client that acts on its own behalf (the `client_credentials` grant, MCP's
 * machine-to-machine extension): a shared secret (sent as `client_secret_basic` or
 * `client_secret_post`, as the authorization server supports) or a private key that signs a
 * `private_key_jwt` assertion.
 */
export interface ClientCredentialsConfig {
  readonly clientId: string;
  readonly clientSecret?: string | undefined;
  /** A PKCS #8 PEM text or a WebCrypto signing key; selects `private_key_jwt`. */
  readonly privateKey?: string | CryptoKey | undefined;
  /** The signing algorithm of `privateKey` (default ES256). */
  readonly signingAlgorithm?: JwsAlgorithm | undefined;
  /** The scope to request when the server's challenge names none. */
  readonly scope?: string | undefined;
  /**
   * The authorization servers (issuer identifiers) `clientSecret` belongs to; it is sent to no
   * other, and metadata naming another issuer is refused. Default: only an authorization server
   * at the MCP server's own origin. A `privateKey` alone needs no list (its assertion is
   * addressed to the issuer).
   */
  readonly issuer?: IssuerAllowlist | undefined;
}

/**
 * Configures OAuth for an MCP client. Interactive clients set `redirectUrl` and
 * `redirectToAuthorization`; machine clients set `clientCredentials` instead.
 *
 * The client identity at an authorization server is chosen in this order: one registered
 * earlier and stored, `clientInformation(issuer)` (pre-registration), the
 * `clientMetadataUrl` (a Client ID Metadata Document) where the server accepts those, and
 * Dynamic Client Registration with `clientMetadata`.
 *
 * @example
 * ```ts
 * import { InMemoryOAuthStore, type OAuthClientProvider } from 'mcpgen/auth';
 *
 * const provider: OAuthClientProvider = {
 *   clientMetadata: { client_name: 'My MCP host' },
 *   redirectUrl: 'http://127.0.0.1:8765/callback',
 *   store: new InMemoryOAuthStore(),
 *   redirectToAuthorization: async (url) => {
 *     console.log(`Open ${url.href} and paste the address you land on:`);
 *     return await readLineFromUser();
 *   },
 * };
 * declare function readLineFromUser(): Promise<string>;
 * ```
 */
export interface OAuthClientProvider {
  /** Metadata for Dynamic Client Registration; `redirect_uris` defaults to `[redirectUrl]`. */
  readonly clientMetadata?: OAuthClientMetadata | undefined;
  /** The redirect URI the authorization server sends the user back to. */
  readonly redirectUrl?: string | URL | undefined;
  /** The HTTPS URL of this client's Client ID Metadata Document, used as its `client_id` where supported. */
  readonly clientMetadataUrl?: string | undefined;
  /** A client registered beforehand with the authorization server `issuer`, if any. */
  clientInformation?(issuer: string): OAuthClientInformation | undefined | Promise<OAuthClientInformation | undefined>;
  /** Where credentials are kept (default: in memory, for the life of the provider's fetch wrapper). */
  readonly store?: OAuthStore | undefined;
  /**
   * Sends the user to `authorizationUrl` (opens a browser, shows a link) and resolves with the
   * URL the authorization server redirected back to, query included. Resolve undefined to
   * finish later with `OAuthAuthorizer.finishAuthorization` (a web app whose page navigates
   * away); the request that needed the token then fails.
   */
  redirectToAuthorization?(authorizationUrl: URL): Promise<URL | string | undefined>;
  /**
   * The scope (space-separated) to request when the server's challenge names none, in place of
   * the resource's `scopes_supported`; a challenged scope is requested together with it.
   */
  readonly scope?: string | undefined;
  /** Machine-to-machine credentials: use the `client_credentials` grant instead of a browser. */
  readonly clientCredentials?: ClientCredentialsConfig | undefined;
  /**
   * Ask for `offline_access` (a refresh token) when the authorization server lists it in
   * `scopes_supported` (default true). It is never requested where it is not listed.
   */
  readonly offlineAccess?: boolean | undefined;
  /**
   * An assertion to present with the JWT bearer grant (RFC 7523) instead of a browser or
   * `clientCredentials`: a workload identity token (SEP-1933), or an ID-JAG from an enterprise
   * identity provider (SEP-990, see `idJagAssertion`).
   */
  readonly jwtBearer?: JwtBearerConfig | undefined;
  /**
   * DPoP (RFC 9449, SEP-1932): `true` or options. Token requests then carry a proof of
   * possession of the client's key, so that the tokens are bound to it, and requests to the
   * server present DPoP-bound tokens with the `DPoP` scheme and a fresh proof; servers'
   * `use_dpop_nonce` challenges are answered once with their nonce.
   */
  readonly dpop?: boolean | DpopOptions | undefined;
  /**
   * Decides which discovered URLs (resource metadata, the authorization server and its
   * endpoints, the authorization URL) the client may use, after the fixed rule that they be
   * `https:` (or `http:` on loopback). Default `defaultAuthUrlPolicy`: literal private,
   * link-local and unspecified addresses are refused unless the MCP server is in the same range.
   */
  readonly urlPolicy?: AuthUrlPolicy | undefined;
  /**
   * Use the default `/authorize`, `/token` and `/register` endpoints at the server's origin when
   * a server publishes neither Protected Resource Metadata nor authorization server metadata, as
   * MCP 2025-03-26 allowed (default false: PKCE support cannot be confirmed, and from 2025-06-18
   * on the client must refuse).
   */
  readonly legacyEndpointFallback?: boolean | undefined;
  /**
   * How long an authorization in progress (`pending:<state>` in the store) can be finished, in
   * milliseconds (default 10 minutes, at most 24 hours); a later redirect is refused.
   */
  readonly pendingAuthorizationTtlMs?: number | undefined;
}
