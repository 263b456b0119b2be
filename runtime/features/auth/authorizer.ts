/**
 * The OAuth client of one MCP server: it discovers the server's authorization server, obtains
 * a client identity there, runs the authorization code grant with PKCE (or `client_credentials`),
 * and keeps the tokens fresh. {@link withOAuth} drives it from HTTP responses.
 */
import { SdkError, messageOf } from '../../core/errors.js';
import { authorizationRequest, pendingAuthorizationFor, pendingKey, redeemAuthorizationResponse, type PendingAuthorization } from './authorization-code.js';
import type { FetchLike } from '../../transports/http/client-request.js';
import type { BearerChallenge } from './challenge.js';
import { canonicalResource } from './discovery.js';
import { dpopProverFor, type DpopProver } from './dpop.js';
import { chooseAuthMethod, requestToken } from './endpoints.js';
import { JWT_BEARER_GRANT_TYPE, type JwtBearerConfig } from './grants.js';
import type { ClientCredentialsConfig, OAuthClientProvider } from './provider.js';
import { InMemoryOAuthStore, type OAuthStore } from './store.js';
import { discoverTarget, machineCredentials, sameScopes, selectScope, unionScopes, type AuthorizationTarget, type TargetOptions } from './authorization-target.js';
import { clientFor, redirectUriOf } from './client-identity.js';
import { assertIssuerAllowed } from './issuer-allowlist.js';
import { assertAuthUrlScheme, AuthUrlGate } from './url-policy.js';
import { OAuthError, type OAuthClientInformation, type OAuthTokens, type StoredTokens, type TokenEndpointAuthMethod } from './types.js';

/** Tokens this close to expiry are refreshed before use. */
const EXPIRY_MARGIN_MS = 30_000;
/** Default time to finish an authorization in progress: 10 minutes. */
export const DEFAULT_PENDING_AUTHORIZATION_TTL_MS = 10 * 60_000;
/** The longest `pendingAuthorizationTtlMs` accepted: 24 hours. */
const MAX_PENDING_AUTHORIZATION_TTL_MS = 24 * 60 * 60_000;

/** Options of an {@link OAuthAuthorizer}. */
export interface OAuthAuthorizerOptions {
  /** The fetch for metadata, registration and token requests (default `globalThis.fetch`). */
  readonly fetch?: FetchLike | undefined;
}

/**
 * The OAuth client state of one MCP server. Concurrent callers share one authorization or
 * refresh at a time (single flight); a caller whose token was already replaced by another
 * caller's authorization just uses the new token.
 *
 * @example
 * ```ts
 * import { OAuthAuthorizer } from 'mcpgen/auth';
 *
 * const authorizer = new OAuthAuthorizer('https://mcp.example.com/mcp', {
 *   clientCredentials: { clientId: 'reporting-job', clientSecret: process.env.MCP_SECRET, issuer: 'https://auth.example.com' },
 * });
 * const token = await authorizer.authorize();
 * ```
 */
export class OAuthAuthorizer {
  /** The MCP server's URL. */
  readonly serverUrl: URL;
  /** The DPoP prover when the provider switches DPoP on (shared by every authorizer of the provider). */
  readonly dpop: DpopProver | undefined;
  private readonly provider: OAuthClientProvider;
  private readonly store: OAuthStore;
  private readonly fetchImpl: FetchLike;
  private readonly discovery: TargetOptions;
  private readonly pendingTtlMs: number;
  private inflight: Promise<void> | undefined;

  constructor(serverUrl: string | URL, provider: OAuthClientProvider, options: OAuthAuthorizerOptions = {}) {
    this.serverUrl = new URL(serverUrl);
    this.provider = provider;
    this.store = provider.store ?? new InMemoryOAuthStore();
    this.fetchImpl = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.dpop = dpopProverFor(provider);
    this.discovery = { gate: new AuthUrlGate(this.serverUrl, provider.urlPolicy), legacyEndpointFallback: provider.legacyEndpointFallback === true };
    const ttl = provider.pendingAuthorizationTtlMs ?? DEFAULT_PENDING_AUTHORIZATION_TTL_MS;
    if (!(ttl > 0 && ttl <= MAX_PENDING_AUTHORIZATION_TTL_MS)) {
      throw new SdkError('INVALID_ARGUMENT', `pendingAuthorizationTtlMs must be more than 0 and at most ${MAX_PENDING_AUTHORIZATION_TTL_MS} (24 hours), not ${String(ttl)}`);
    }
    this.pendingTtlMs = ttl;
  }

  /** The credentials of a client that authorizes without a user: the JWT bearer grant's, else `clientCredentials`. */
  private get machine(): JwtBearerConfig | ClientCredentialsConfig | undefined {
    return machineCredentials(this.provider);
  }

  private get tokensKey(): string {
    return `tokens:${canonicalResource(this.serverUrl)}`;
  }

  /** The stored tokens of this server, if any. */
  async tokens(): Promise<StoredTokens | undefined> {
    return (await this.store.get(this.tokensKey)) as StoredTokens | undefined;
  }

  /**
   * The access token to send, refreshed first when it is about to expire and a refresh token
   * is at hand; undefined before any authorization.
   */
  async accessToken(signal?: AbortSignal): Promise<string | undefined> {
    await this.inflight?.catch(() => undefined);
    const stored = await this.tokens();
    if (stored === undefined) return undefined;
    if (stored.expiresAt !== undefined && stored.expiresAt - EXPIRY_MARGIN_MS <= Date.now() && stored.tokens.refresh_token !== undefined) {
      await this.exclusive(stored.tokens.access_token, async () => void (await this.refresh(stored, signal))).catch(() => undefined);
      return (await this.tokens())?.tokens.access_token;
    }
    return stored.tokens.access_token;
  }

  /**
   * Obtains a new token after the server refused `failedToken` with 401: a refresh when
   * possible (unless `reauthorize`), otherwise a new authorization. Resolves at once when
   * another caller already replaced `failedToken`.
   */
  async handleUnauthorized(challenge: BearerChallenge | undefined, failedToken: string | undefined, reauthorize = false, signal?: AbortSignal): Promise<void> {
    await this.exclusive(failedToken, async () => {
      const stored = await this.tokens();
      if (!reauthorize && stored?.tokens.refresh_token !== undefined && (await this.refresh(stored, signal))) return;
      await this.authorizeWith(challenge, undefined, signal);
    });
  }

  /**
   * Steps up after a 403 `insufficient_scope`: authorizes again for the union of the scope
   * asked for before and the challenged scope. Resolves false, doing nothing, when that union
   * adds nothing to what the current token was requested with, since asking again for the same
   * scope cannot help.
   */
  async handleInsufficientScope(challenge: BearerChallenge, failedToken: string | undefined, signal?: AbortSignal): Promise<boolean> {
    let stepped = false;
    await this.exclusive(failedToken, async () => {
      const previous = (await this.tokens())?.requestedScope;
      const wanted = unionScopes(previous, challenge.scope);
      if (wanted === undefined || sameScopes(wanted, previous)) return;
      stepped = true;
      await this.authorizeWith(challenge, wanted, signal);
    });
    return stepped;
  }

  /** Runs a full authorization now (discovery included) and returns the new access token. */
  async authorize(signal?: AbortSignal): Promise<string> {
    await this.exclusive(undefined, () => this.authorizeWith(undefined, undefined, signal), true);
    const stored = await this.tokens();
    if (stored === undefined) throw new SdkError('AUTHORIZATION_FAILED', 'Authorization ended without a token');
    return stored.tokens.access_token;
  }

  /**
   * Completes an authorization whose `redirectToAuthorization` resolved undefined, with the URL
   * the authorization server redirected the user to.
   */
  async finishAuthorization(callbackUrl: string | URL, signal?: AbortSignal): Promise<void> {
    const callback = new URL(callbackUrl);
    const pending = await pendingAuthorizationFor(this.store, callback);
    await this.exclusive(undefined, () => this.complete(pending, callback, signal), true);
  }

  /** Forgets the tokens of this server (e.g. on sign-out). */
  async signOut(): Promise<void> {
    await this.store.delete(this.tokensKey);
  }

  /**
   * Runs `work` alone. When another run is in progress it waits for it first, and skips `work`
   * when that run replaced `failedToken` (unless `always`).
   */
  private async exclusive(failedToken: string | undefined, work: () => Promise<void>, always = false): Promise<void> {
    while (this.inflight !== undefined) {
      await this.inflight.catch(() => undefined);
      if (!always && (await this.tokens())?.tokens.access_token !== failedToken) return;
    }
    const run = work();
    this.inflight = run;
    try {
      await run;
    } finally {
      if (this.inflight === run) this.inflight = undefined;
    }
  }

  /**
   * Refreshes `stored`. Resolves false when the server refuses; the stored tokens are then
   * removed, but only if they are still the ones that failed, so that tokens another request
   * stored meanwhile survive.
   */
  private async refresh(stored: StoredTokens, signal: AbortSignal | undefined): Promise<boolean> {
    const { store } = this;
    if (store.lock === undefined) return await this.refreshNow(stored, signal);
    // Processes sharing the store refresh one at a time; whoever waited finds the new tokens.
    return await store.lock(this.tokensKey, async () => {
      const current = await this.tokens();
      if (current === undefined) return false;
      if (current.tokens.access_token !== stored.tokens.access_token) return true;
      return await this.refreshNow(current, signal);
    });
  }

  private async refreshNow(stored: StoredTokens, signal: AbortSignal | undefined): Promise<boolean> {
    const refreshToken = stored.tokens.refresh_token;
    if (refreshToken === undefined) return false;
    try {
      const target = await discoverTarget(this.serverUrl, undefined, this.fetchImpl, signal, this.discovery);
      if (target.issuer !== stored.issuer) return false;
      const { client, method } = await this.grantClient(target, signal);
      const tokens = await requestToken({
        endpoint: target.tokenEndpoint,
        params: { grant_type: 'refresh_token', refresh_token: refreshToken, resource: stored.resource },
        client,
        method,
        signer: this.signerFor(target),
        dpop: this.dpop,
        fetch: this.fetchImpl,
        signal,
      });
      await this.save({ ...tokens, refresh_token: tokens.refresh_token ?? refreshToken }, target, stored.requestedScope);
      return true;
    } catch (error) {
      if (error instanceof OAuthError) {
        const current = await this.tokens();
        if (current?.tokens.refresh_token === refreshToken) await this.store.delete(this.tokensKey);
      }
      return false;
    }
  }

  private async authorizeWith(challenge: BearerChallenge | undefined, stepUpScope: string | undefined, signal: AbortSignal | undefined): Promise<void> {
    const target = await discoverTarget(this.serverUrl, challenge, this.fetchImpl, signal, this.discovery);
    const previous = await this.tokens();
    const scope = selectScope(this.provider, target, challenge, stepUpScope, previous);
    const jwtBearer = this.provider.jwtBearer;
    if (jwtBearer !== undefined) {
      await this.jwtBearerGrant(jwtBearer, target, scope ?? jwtBearer.scope, signal);
      return;
    }
    const credentials = this.provider.clientCredentials;
    if (credentials !== undefined) {
      const { client, method } = await clientFor(this.provider, this.store, this.fetchImpl, target, this.serverUrl, signal);
      const tokens = await requestToken({
        endpoint: target.tokenEndpoint,
        params: { grant_type: 'client_credentials', scope: scope ?? credentials.scope, resource: target.resource },
        client,
        method,
        signer: this.signerFor(target),
        dpop: this.dpop,
        fetch: this.fetchImpl,
        signal,
      });
      await this.save(tokens, target, scope ?? credentials.scope);
      return;
    }
    await this.authorizationCode(target, scope, signal);
  }

  /**
   * The JWT bearer grant (RFC 7523 §2.1) with the provider's assertion. A refusal is the
   * outcome: an assertion the server rejected is not retried, nor replaced by another grant.
   */
  private async jwtBearerGrant(config: JwtBearerConfig, target: AuthorizationTarget, scope: string | undefined, signal: AbortSignal | undefined): Promise<void> {
    assertIssuerAllowed(config.issuer, target.issuer, this.serverUrl, 'jwtBearer');
    let assertion: string;
    try {
      assertion = await config.assertion({ issuer: target.issuer, resource: target.resource, scope, tokenEndpoint: target.tokenEndpoint, signal });
    } catch (cause) {
      throw cause instanceof OAuthError || cause instanceof SdkError ? cause : new SdkError('AUTHORIZATION_FAILED', `Obtaining the JWT bearer assertion failed: ${messageOf(cause)}`, { cause });
    }
    const { client, method } = await this.grantClient(target, signal);
    const tokens = await requestToken({
      endpoint: target.tokenEndpoint,
      params: { grant_type: JWT_BEARER_GRANT_TYPE, assertion, scope, resource: target.resource },
      client,
      method,
      signer: this.signerFor(target),
      dpop: this.dpop,
      fetch: this.fetchImpl,
      signal,
    });
    await this.save(tokens, target, scope);
  }

  /**
   * The authenticating client of grants that need no redirect: the JWT bearer grant's client
   * (none when it names no client id), else {@link clientFor}'s.
   */
  private async grantClient(target: AuthorizationTarget, signal: AbortSignal | undefined): Promise<{ client: OAuthClientInformation | undefined; method: TokenEndpointAuthMethod }> {
    const jwtBearer = this.provider.jwtBearer;
    if (jwtBearer === undefined) return await clientFor(this.provider, this.store, this.fetchImpl, target, this.serverUrl, signal);
    if (jwtBearer.clientId === undefined) return { client: undefined, method: 'none' };
    if (jwtBearer.clientSecret !== undefined && jwtBearer.privateKey === undefined) assertIssuerAllowed(jwtBearer.issuer, target.issuer, this.serverUrl, 'jwtBearer');
    const client: OAuthClientInformation = { client_id: jwtBearer.clientId, ...(jwtBearer.clientSecret !== undefined ? { client_secret: jwtBearer.clientSecret } : {}) };
    return { client, method: jwtBearer.privateKey !== undefined ? 'private_key_jwt' : chooseAuthMethod(client, target.metadata) };
  }

  private signerFor(target: AuthorizationTarget): { key: string | CryptoKey; algorithm: 'ES256' | 'ES384' | 'RS256' | 'PS256'; audience: string } | undefined {
    const credentials = this.machine;
    if (credentials?.privateKey === undefined) return undefined;
    return { key: credentials.privateKey, algorithm: credentials.signingAlgorithm ?? 'ES256', audience: target.issuer };
  }

  /** The authorization code grant with PKCE S256, the `resource` indicator and RFC 9207 `iss` validation. */
  private async authorizationCode(target: AuthorizationTarget, scope: string | undefined, signal: AbortSignal | undefined): Promise<void> {
    const redirectUri = redirectUriOf(this.provider);
    const redirect = this.provider.redirectToAuthorization?.bind(this.provider);
    if (redirectUri === undefined || redirect === undefined) {
      throw new SdkError('AUTHORIZATION_FAILED', 'The server requires authorization, and the OAuth provider has no redirectUrl and redirectToAuthorization (nor clientCredentials)');
    }
    const methods = target.metadata?.code_challenge_methods_supported;
    if (target.metadata !== undefined && (methods === undefined || !methods.includes('S256'))) {
      throw new SdkError('AUTHORIZATION_FAILED', `The authorization server ${target.issuer} does not advertise PKCE S256 support; refusing to authorize`);
    }
    const { client, method } = await clientFor(this.provider, this.store, this.fetchImpl, target, this.serverUrl, signal);
    const { url, pending } = await authorizationRequest(target, { client, method, redirectUri, scope, ttlMs: this.pendingTtlMs });
    // Discovery checked the endpoint; this check sits right in front of the browser launch.
    assertAuthUrlScheme(url, 'browser');
    await this.discovery.gate.check(url, 'browser');
    await this.store.set(pendingKey(pending.state), pending);
    const callback = await redirect(url);
    if (callback === undefined) {
      throw new SdkError('AUTHORIZATION_FAILED', 'Authorization continues in the user agent; call finishAuthorization with the redirect URL', { data: { authorizationUrl: url.href } });
    }
    await this.complete(pending, new URL(callback), signal);
  }

  /** Validates the authorization response and exchanges its code (see redeemAuthorizationResponse). */
  private async complete(pending: PendingAuthorization, callback: URL, signal: AbortSignal | undefined): Promise<void> {
    const tokens = await redeemAuthorizationResponse(pending, callback, this.store, { dpop: this.dpop, fetch: this.fetchImpl, signal });
    await this.save(tokens, { issuer: pending.issuer, resource: pending.resource }, pending.scope);
  }

  private async save(tokens: OAuthTokens, target: { readonly issuer: string; readonly resource: string }, requestedScope: string | undefined): Promise<void> {
    const stored: StoredTokens = {
      tokens,
      issuer: target.issuer,
      resource: target.resource,
      ...(typeof tokens.expires_in === 'number' ? { expiresAt: Date.now() + tokens.expires_in * 1000 } : {}),
      ...(requestedScope !== undefined ? { requestedScope } : {}),
    };
    await this.store.set(this.tokensKey, stored);
  }
}

export { unionScopes } from './authorization-target.js';
