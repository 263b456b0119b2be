/**
 * The built-in provider: your code decides who the user is and what they consent to
 * (`decide`), and the provider does the rest on an {@link AuthorizationStore}: one-time codes
 * that live at most 60 s and are bound to the client, redirect URI, PKCE challenge and
 * resource; opaque access tokens (or your own format); refresh tokens that rotate on every use.
 * A replayed code or refresh token revokes every token of its grant (OAuth 2.1 §4.1.3, §4.3.1).
 */
import { SdkError } from '../../core/errors.js';
import { randomToken, sha256Base64Url } from '../auth/crypto.js';
import { OAuthError, type AuthInfo, type OAuthTokens } from '../auth/types.js';
import { InMemoryAuthorizationStore, type AuthorizationStore, type GrantFacts, type TokenRecord } from './store.js';
import type {
  AuthorizationContext,
  AuthorizationOutcome,
  AuthorizationRequest,
  AuthorizationServerProvider,
  ClientRegistration,
  CodeGrantRequest,
  RefreshGrantRequest,
  RegisteredClient,
  RevocationRequest,
} from './types.js';

/** Longest lifetime of an authorization code, in seconds. */
export const MAX_CODE_TTL_SECONDS = 60;

/** What `decide` answers for one authorization request. */
export type AuthorizationDecision =
  /** The user is signed in and consents: issue a code for `subject` with these scopes (default: those asked for). */
  | { readonly approve: { readonly subject: string; readonly scopes?: readonly string[] | undefined; readonly extra?: Readonly<Record<string, unknown>> | undefined } }
  /** The user (or policy) refuses: the client gets `access_denied`. */
  | { readonly deny: { readonly description?: string | undefined } }
  /** Show this page first (a login or consent form posting back to the authorization endpoint). */
  | { readonly page: { readonly html: string; readonly status?: number | undefined; readonly headers?: Readonly<Record<string, string>> | undefined } }
  /** Send the user elsewhere first (an external login that returns to the authorization endpoint). */
  | { readonly redirect: string };

/** A token format of your own (a signed JWT, say) in place of stored opaque access tokens. */
export interface AccessTokenFormat {
  /** Mints the access token described by `info` (`token` is empty). */
  issue(info: AuthInfo): Promise<string>;
  /** Checks a token this format minted. */
  verify(token: string): Promise<AuthInfo | undefined>;
}

/** Options of {@link LocalAuthorizationProvider}. */
export interface LocalAuthorizationProviderOptions {
  /** Your user and consent logic. */
  decide(request: AuthorizationRequest, context: AuthorizationContext): AuthorizationDecision | Promise<AuthorizationDecision>;
  /** Where clients, codes and tokens live (default: a new {@link InMemoryAuthorizationStore}). */
  readonly store?: AuthorizationStore | undefined;
  /** Clients known without registration. */
  readonly clients?: readonly RegisteredClient[] | undefined;
  /** Authorization code lifetime (default and most 60 s). */
  readonly codeTtlSeconds?: number | undefined;
  /** Access token lifetime (default 1 hour). */
  readonly accessTokenTtlSeconds?: number | undefined;
  /** Refresh token lifetime (default 30 days); each refresh issues a new one. */
  readonly refreshTokenTtlSeconds?: number | undefined;
  /** Access tokens in your own format; they are then not stored, so revocation reaches only refresh tokens. */
  readonly accessTokens?: AccessTokenFormat | undefined;
  /** The clock, Unix milliseconds (default `Date.now`). */
  readonly now?: (() => number) | undefined;
}


function ttl(value: number | undefined, fallback: number, name: string, max = Number.MAX_SAFE_INTEGER): number {
  const chosen = value ?? fallback;
  if (!(Number.isSafeInteger(chosen) && chosen > 0 && chosen <= max)) throw new SdkError('INVALID_ARGUMENT', `${name} must be a whole number of seconds from 1 to ${max}, not ${String(chosen)}`);
  return chosen;
}

const invalidGrant = (description: string): OAuthError => new OAuthError('invalid_grant', description, 400);

/**
 * The built-in {@link AuthorizationServerProvider}: pass it to `createAuthorizationServer`.
 *
 * @example
 * ```ts
 * import { LocalAuthorizationProvider } from 'mcpgen/auth-server';
 *
 * declare function userOf(cookie: string | undefined): Promise<string | undefined>;
 * const provider = new LocalAuthorizationProvider({
 *   async decide(request, { http }) {
 *     const user = await userOf(http.header('cookie'));
 *     if (user === undefined) return { redirect: `/login?return=${encodeURIComponent(http.path)}` };
 *     return { approve: { subject: user, scopes: request.scopes } };
 *   },
 * });
 * ```
 */
export class LocalAuthorizationProvider implements AuthorizationServerProvider {
  private readonly options: LocalAuthorizationProviderOptions;
  private readonly store: AuthorizationStore;
  private readonly preRegistered: ReadonlyMap<string, RegisteredClient>;
  private readonly codeTtlMs: number;
  private readonly accessTtlMs: number;
  private readonly refreshTtlMs: number;
  private readonly now: () => number;

  constructor(options: LocalAuthorizationProviderOptions) {
    this.options = options;
    this.store = options.store ?? new InMemoryAuthorizationStore({ now: options.now });
    this.preRegistered = new Map((options.clients ?? []).map((client) => [client.client_id, client]));
    this.codeTtlMs = ttl(options.codeTtlSeconds, MAX_CODE_TTL_SECONDS, 'codeTtlSeconds', MAX_CODE_TTL_SECONDS) * 1000;
    this.accessTtlMs = ttl(options.accessTokenTtlSeconds, 3600, 'accessTokenTtlSeconds') * 1000;
    this.refreshTtlMs = ttl(options.refreshTokenTtlSeconds, 30 * 24 * 3600, 'refreshTokenTtlSeconds') * 1000;
    this.now = options.now ?? Date.now;
  }

  async getClient(clientId: string): Promise<RegisteredClient | undefined> {
    return this.preRegistered.get(clientId) ?? (await this.store.getClient(clientId));
  }

  async registerClient(registration: ClientRegistration): Promise<RegisteredClient> {
    const confidential = registration.token_endpoint_auth_method !== 'none';
    const client: RegisteredClient = {
      ...registration,
      client_id: randomToken(16),
      client_id_issued_at: Math.floor(this.now() / 1000),
      ...(confidential ? { client_secret: randomToken(32), client_secret_expires_at: 0 } : {}),
    };
    await this.store.saveClient(client);
    return client;
  }

  async authorize(request: AuthorizationRequest, context: AuthorizationContext): Promise<AuthorizationOutcome> {
    const decision = await this.options.decide(request, context);
    if ('deny' in decision) return { kind: 'error', error: 'access_denied', description: decision.deny.description };
    if ('page' in decision) return { kind: 'page', ...decision.page };
    if ('redirect' in decision) return { kind: 'redirect', location: decision.redirect };
    const scopes = decision.approve.scopes ?? request.scopes;
    const code = randomToken(32);
    await this.store.saveCode(await sha256Base64Url(code), {
      clientId: request.client.client_id,
      redirectUri: request.redirectUri,
      redirectUriGiven: request.redirectUriGiven,
      codeChallenge: request.codeChallenge,
      scopes: [...scopes],
      resource: request.resource,
      subject: decision.approve.subject,
      extra: decision.approve.extra,
      grantId: randomToken(16),
      expiresAt: this.now() + this.codeTtlMs,
    });
    return { kind: 'code', code };
  }

  async exchangeAuthorizationCode(client: RegisteredClient, request: CodeGrantRequest): Promise<OAuthTokens> {
    const consumed = await this.store.consumeCode(await sha256Base64Url(request.code));
    if (consumed === undefined) throw invalidGrant('The authorization code is not known');
    const { record } = consumed;
    if (!consumed.firstUse) {
      await this.store.revokeGrant(record.grantId);
      throw invalidGrant('The authorization code was already used; the tokens issued for it are revoked');
    }
    if (record.clientId !== client.client_id) throw invalidGrant('The authorization code was issued to another client');
    if (this.now() >= record.expiresAt) throw invalidGrant('The authorization code has expired');
    if (request.redirectUri !== undefined ? request.redirectUri !== record.redirectUri : record.redirectUriGiven) {
      throw invalidGrant('redirect_uri does not match the authorization request');
    }
    if (request.resource !== undefined && request.resource !== record.resource) throw new OAuthError('invalid_target', 'resource does not match the authorization request', 400);
    if ((await sha256Base64Url(request.codeVerifier)) !== record.codeChallenge) throw invalidGrant('code_verifier does not match the code_challenge');
    return await this.issue(client, record);
  }

  async exchangeRefreshToken(client: RegisteredClient, request: RefreshGrantRequest): Promise<OAuthTokens> {
    const key = await sha256Base64Url(request.refreshToken);
    const known = await this.store.getToken(key);
    if (known !== undefined && known.clientId !== client.client_id) throw invalidGrant('The refresh token was issued to another client');
    const consumed = await this.store.consumeRefreshToken(key);
    if (consumed === undefined) throw invalidGrant('The refresh token is not known');
    const { record } = consumed;
    if (!consumed.firstUse) {
      await this.store.revokeGrant(record.grantId);
      throw invalidGrant('The refresh token was already used; every token of its grant is revoked');
    }
    if (this.now() >= record.expiresAt) throw invalidGrant('The refresh token has expired');
    const scopes = request.scopes ?? record.scopes;
    const extra = scopes.filter((scope) => !record.scopes.includes(scope));
    if (extra.length > 0) throw new OAuthError('invalid_scope', `The grant does not include ${extra.join(' ')}`, 400);
    if (request.resource !== undefined && request.resource !== record.resource) throw new OAuthError('invalid_target', 'resource does not match the grant', 400);
    return await this.issue(client, { ...record, scopes });
  }

  async revokeToken(client: RegisteredClient, request: RevocationRequest): Promise<void> {
    const key = await sha256Base64Url(request.token);
    const record = await this.store.getToken(key);
    if (record === undefined || record.clientId !== client.client_id) return;
    // Revoking a refresh token ends its grant's access tokens too (RFC 7009 §2.1).
    if (record.kind === 'refresh') await this.store.revokeGrant(record.grantId);
    else await this.store.deleteToken(key);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo | undefined> {
    if (this.options.accessTokens !== undefined) return await this.options.accessTokens.verify(token);
    const record = await this.store.getToken(await sha256Base64Url(token));
    if (record === undefined || record.kind !== 'access' || this.now() >= record.expiresAt) return undefined;
    return infoOf(token, record);
  }

  private async issue(client: RegisteredClient, grant: GrantFacts): Promise<OAuthTokens> {
    const now = this.now();
    // Only the grant's own members: a code record carries its redirect URI and challenge too.
    const base = { grantId: grant.grantId, clientId: grant.clientId, scopes: grant.scopes, resource: grant.resource, subject: grant.subject, extra: grant.extra };
    const access: TokenRecord = { ...base, kind: 'access', expiresAt: now + this.accessTtlMs };
    let accessToken: string;
    if (this.options.accessTokens !== undefined) {
      accessToken = await this.options.accessTokens.issue(infoOf('', access));
    } else {
      accessToken = randomToken(32);
      await this.store.saveToken(await sha256Base64Url(accessToken), access);
    }
    let refreshToken: string | undefined;
    if (client.grant_types.includes('refresh_token')) {
      refreshToken = randomToken(32);
      await this.store.saveToken(await sha256Base64Url(refreshToken), { ...base, kind: 'refresh', expiresAt: now + this.refreshTtlMs });
    }
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: Math.round(this.accessTtlMs / 1000),
      ...(grant.scopes.length > 0 ? { scope: grant.scopes.join(' ') } : {}),
      ...(refreshToken !== undefined ? { refresh_token: refreshToken } : {}),
    };
  }
}

function infoOf(token: string, record: TokenRecord): AuthInfo {
  return {
    token,
    clientId: record.clientId,
    scopes: [...record.scopes],
    expiresAt: Math.floor(record.expiresAt / 1000),
    resource: record.resource,
    subject: record.subject,
    ...(record.extra !== undefined ? { extra: record.extra } : {}),
  };
}
