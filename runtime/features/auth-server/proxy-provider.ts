/**
 * A provider that forwards to an upstream authorization server (an existing identity provider)
 * while the MCP server stays the resource server: registration, the token grants and
 * revocation are forwarded as they come, and the user signs in upstream. The upstream sends
 * the user back to this server's callback, which hands the code on to the client's redirect
 * URI with the client's `state` and this server's `iss`, so clients see one authorization
 * server. PKCE runs end to end: the client's challenge goes upstream, and its verifier with it.
 */
import { SdkError, messageOf } from '../../core/errors.js';
import { isJsonObject } from '../../core/jsonrpc.js';
import type { FetchLike } from '../../transports/http/client-request.js';
import type { HttpReply, HttpRequestView } from '../../transports/http/http-types.js';
import { randomToken } from '../auth/crypto.js';
import { OAuthError, type AuthInfo, type AuthorizationServerMetadata, type OAuthTokens } from '../auth/types.js';
import { authorizationResponseUrl } from './authorize-endpoint.js';
import { boundedText } from './bounded-body.js';
import { errorPage, redirectAnswer } from './replies.js';
import { InMemoryAuthorizationStore, type AuthorizationStore } from './store.js';
import type {
  AuthorizationOutcome,
  AuthorizationRequest,
  AuthorizationServerBinding,
  AuthorizationServerProvider,
  ClientRegistration,
  CodeGrantRequest,
  RefreshGrantRequest,
  RegisteredClient,
  RevocationRequest,
} from './types.js';

/** The upstream authorization server's endpoints. */
export interface UpstreamEndpoints {
  /** Its issuer identifier; when given, an `iss` in its authorization responses must equal it. */
  readonly issuer?: string | undefined;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly registrationEndpoint?: string | undefined;
  readonly revocationEndpoint?: string | undefined;
}

/** Options of {@link ProxyAuthorizationProvider}. */
export interface ProxyAuthorizationProviderOptions {
  readonly upstream: UpstreamEndpoints;
  /** Checks the upstream's access tokens (introspection, JWT validation) for the resource-server guard. */
  verifyAccessToken(token: string): Promise<AuthInfo | undefined>;
  /**
   * Clients registered upstream beforehand, with this server's callback as their redirect URI
   * there; here they carry the redirect URIs the clients use.
   */
  readonly clients?: readonly RegisteredClient[] | undefined;
  /** How the upstream is called (default `globalThis.fetch`). */
  readonly fetch?: FetchLike | undefined;
  /** The callback path below the issuer the upstream redirects to (default `/callback`). */
  readonly callbackPath?: string | undefined;
  /**
   * Where the clients registered through this server are kept, with the redirect URIs they use
   * (default: an {@link InMemoryAuthorizationStore}, 10,000 clients at most, forgotten on
   * restart). Give a durable store to keep them across restarts and replicas.
   */
  readonly store?: Pick<AuthorizationStore, 'getClient' | 'saveClient'> | undefined;
  /** Most authorizations in progress and codes waiting to be exchanged, each (default 10,000; the oldest is dropped). */
  readonly maxPending?: number | undefined;
  /** How long a user may take upstream, and a code may wait for its exchange (default 10 minutes). */
  readonly pendingTtlMs?: number | undefined;
  /** Time to wait for the upstream (default 10 s); the largest answer read is 64 KiB. */
  readonly timeoutMs?: number | undefined;
  /** The clock, Unix milliseconds (default `Date.now`). */
  readonly now?: (() => number) | undefined;
}

/** An authorization sent upstream, by the state this server gave it. */
interface Pending {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly redirectUriGiven: boolean;
  readonly state: string | undefined;
  readonly resource: string;
  readonly until: number;
}

const MAX_UPSTREAM_ANSWER_BYTES = 64 * 1024;

/** Puts `key` last in `table` and drops the first entries beyond `max`. */
function remember<T>(table: Map<string, T>, key: string, value: T, max: number): void {
  table.delete(key);
  table.set(key, value);
  while (table.size > max) table.delete(table.keys().next().value!);
}

/**
 * An {@link AuthorizationServerProvider} in front of an upstream authorization server.
 *
 * @example
 * ```ts
 * import { createAuthorizationServer, ProxyAuthorizationProvider } from 'mcpgen/auth-server';
 *
 * const provider = await ProxyAuthorizationProvider.discover('https://idp.example.com', {
 *   verifyAccessToken: async (token) => ({ token, scopes: ['notes:read'], resource: 'https://notes.example.com/mcp' }),
 * });
 * const authorizationServer = createAuthorizationServer({ issuer: 'https://notes.example.com', resources: ['https://notes.example.com/mcp'], provider });
 * ```
 */
export class ProxyAuthorizationProvider implements AuthorizationServerProvider {
  readonly revokeToken?: (client: RegisteredClient, request: RevocationRequest) => Promise<void>;
  readonly registerClient?: (registration: ClientRegistration) => Promise<RegisteredClient>;
  private readonly options: ProxyAuthorizationProviderOptions;
  private readonly preRegistered: ReadonlyMap<string, RegisteredClient>;
  private readonly store: Pick<AuthorizationStore, 'getClient' | 'saveClient'>;
  private readonly pending = new Map<string, Pending>();
  private readonly codes = new Map<string, Pending>();
  private readonly fetch: FetchLike;
  private readonly now: () => number;
  private binding: AuthorizationServerBinding | undefined;

  /** Reads the upstream's RFC 8414 metadata at `issuer` and makes a provider for it. */
  static async discover(issuer: string, options: Omit<ProxyAuthorizationProviderOptions, 'upstream'>): Promise<ProxyAuthorizationProvider> {
    const url = new URL(issuer);
    const doFetch = options.fetch ?? ((target, init) => globalThis.fetch(target, init));
    const response = await doFetch(new URL(`/.well-known/oauth-authorization-server${url.pathname.replace(/\/$/, '')}`, url), { headers: { accept: 'application/json' }, redirect: 'error' });
    const text = response.ok ? await boundedText(response, MAX_UPSTREAM_ANSWER_BYTES) : undefined;
    const metadata = text === undefined ? undefined : (JSON.parse(text) as AuthorizationServerMetadata);
    if (metadata?.issuer !== issuer || metadata.authorization_endpoint === undefined || metadata.token_endpoint === undefined) {
      throw new SdkError('INVALID_ARGUMENT', `No usable authorization server metadata for ${issuer}`);
    }
    const upstream = {
      issuer,
      authorizationEndpoint: metadata.authorization_endpoint,
      tokenEndpoint: metadata.token_endpoint,
      registrationEndpoint: metadata.registration_endpoint,
      revocationEndpoint: typeof metadata.revocation_endpoint === 'string' ? metadata.revocation_endpoint : undefined,
    };
    return new ProxyAuthorizationProvider({ ...options, upstream });
  }

  constructor(options: ProxyAuthorizationProviderOptions) {
    this.options = options;
    this.fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.now = options.now ?? Date.now;
    this.preRegistered = new Map((options.clients ?? []).map((client) => [client.client_id, client]));
    this.store = options.store ?? new InMemoryAuthorizationStore({ now: options.now });
    if (options.upstream.registrationEndpoint !== undefined) {
      const registerClient: ProxyAuthorizationProvider['registerClient'] = (registration) => this.register(registration);
      this.registerClient = registerClient;
    }
    if (options.upstream.revocationEndpoint !== undefined) {
      const revokeToken: ProxyAuthorizationProvider['revokeToken'] = (client, request) => this.revoke(client, request);
      this.revokeToken = revokeToken;
    }
  }

  bind(server: AuthorizationServerBinding): void {
    this.binding = server;
  }

  private get callbackUrl(): string {
    if (this.binding === undefined) throw new SdkError('INVALID_ARGUMENT', 'The proxy provider is not served by an authorization server yet');
    return this.binding.endpoint(this.options.callbackPath ?? '/callback');
  }

  async getClient(clientId: string): Promise<RegisteredClient | undefined> {
    return this.preRegistered.get(clientId) ?? (await this.store.getClient(clientId));
  }

  async authorize(request: AuthorizationRequest): Promise<AuthorizationOutcome> {
    const state = randomToken(24);
    const maxPending = this.options.maxPending ?? 10_000;
    remember(this.pending, state, { clientId: request.client.client_id, redirectUri: request.redirectUri, redirectUriGiven: request.redirectUriGiven, state: request.state, resource: request.resource, until: this.deadline() }, maxPending);
    const url = new URL(this.options.upstream.authorizationEndpoint);
    const params = { response_type: 'code', client_id: request.client.client_id, redirect_uri: this.callbackUrl, code_challenge: request.codeChallenge, code_challenge_method: 'S256', state, resource: request.resource, scope: request.scopes.length > 0 ? request.scopes.join(' ') : undefined };
    for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
    return { kind: 'redirect', location: url.href };
  }

  /** The callback: the upstream's authorization response, handed on to the client. */
  async route(request: HttpRequestView): Promise<HttpReply | undefined> {
    if (this.binding === undefined || new URL(this.callbackUrl).pathname !== request.path) return undefined;
    const query = request.query;
    const state = query.get('state');
    const pending = state === null ? undefined : this.pending.get(state);
    if (state !== null) this.pending.delete(state);
    if (pending === undefined || pending.until <= this.now()) return errorPage(400, 'Unknown authorization', 'This sign-in is not in progress here (it expired, finished, or never started).');
    const upstreamIssuer = this.options.upstream.issuer;
    const iss = query.get('iss');
    if (upstreamIssuer !== undefined && iss !== null && iss !== upstreamIssuer) return errorPage(400, 'Wrong issuer', 'The sign-in answer comes from another authorization server.');
    const answer = (values: Readonly<Record<string, string | undefined>>): HttpReply =>
      redirectAnswer(authorizationResponseUrl(pending.redirectUri, { ...values, state: pending.state, iss: this.binding!.issuer }));
    const error = query.get('error');
    if (error !== null) return answer({ error, error_description: query.get('error_description') ?? undefined });
    const code = query.get('code');
    if (code === null) return answer({ error: 'server_error', error_description: 'The upstream authorization server sent no code' });
    remember(this.codes, code, { ...pending, until: this.deadline() }, this.options.maxPending ?? 10_000);
    return answer({ code });
  }

  async exchangeAuthorizationCode(client: RegisteredClient, request: CodeGrantRequest): Promise<OAuthTokens> {
    const pending = this.codes.get(request.code);
    if (pending === undefined || pending.until <= this.now()) throw new OAuthError('invalid_grant', 'The authorization code is not known', 400);
    if (pending.clientId !== client.client_id) throw new OAuthError('invalid_grant', 'The authorization code was issued to another client', 400);
    if (request.redirectUri !== undefined ? request.redirectUri !== pending.redirectUri : pending.redirectUriGiven) throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request', 400);
    const form = { grant_type: 'authorization_code', code: request.code, code_verifier: request.codeVerifier, redirect_uri: this.callbackUrl, resource: request.resource ?? pending.resource };
    return await this.tokens(client, form);
  }

  async exchangeRefreshToken(client: RegisteredClient, request: RefreshGrantRequest): Promise<OAuthTokens> {
    const form = { grant_type: 'refresh_token', refresh_token: request.refreshToken, scope: request.scopes?.join(' '), resource: request.resource };
    return await this.tokens(client, form);
  }

  verifyAccessToken(token: string): Promise<AuthInfo | undefined> {
    return this.options.verifyAccessToken(token);
  }

  private deadline(): number {
    return this.now() + (this.options.pendingTtlMs ?? 10 * 60_000);
  }

  private async register(registration: ClientRegistration): Promise<RegisteredClient> {
    // Upstream, the client's redirect URI is this server's callback; its own stay here.
    const answer = await this.post(this.options.upstream.registrationEndpoint!, JSON.stringify({ ...registration, redirect_uris: [this.callbackUrl] }), 'application/json', {});
    if (typeof answer.client_id !== 'string') throw new OAuthError('server_error', 'The upstream registration answered without a client_id', 502);
    const client = { ...answer, ...registration, client_id: answer.client_id } as RegisteredClient;
    await this.store.saveClient(client);
    return client;
  }

  private async revoke(client: RegisteredClient, request: RevocationRequest): Promise<void> {
    await this.post(this.options.upstream.revocationEndpoint!, ...this.clientForm(client, { token: request.token, token_type_hint: request.tokenTypeHint }), true);
  }

  private async tokens(client: RegisteredClient, form: Readonly<Record<string, string | undefined>>): Promise<OAuthTokens> {
    const answer = await this.post(this.options.upstream.tokenEndpoint, ...this.clientForm(client, form));
    if (typeof answer.access_token !== 'string' || typeof answer.token_type !== 'string') throw new OAuthError('server_error', 'The upstream token endpoint answered without an access token', 502);
    return answer as OAuthTokens;
  }

  /** A form body and headers authenticating `client` upstream the way it authenticated here. */
  private clientForm(client: RegisteredClient, values: Readonly<Record<string, string | undefined>>): [string, string, Record<string, string>] {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(values)) if (value !== undefined) form.set(name, value);
    const headers: Record<string, string> = {};
    const secret = client.client_secret;
    if (client.token_endpoint_auth_method === 'client_secret_basic' && secret !== undefined) {
      const encode = (text: string): string => encodeURIComponent(text).replace(/%20/g, '+');
      headers.authorization = `Basic ${btoa(`${encode(client.client_id)}:${encode(secret)}`)}`;
    } else {
      form.set('client_id', client.client_id);
      if (client.token_endpoint_auth_method === 'client_secret_post' && secret !== undefined) form.set('client_secret', secret);
    }
    return [form.toString(), 'application/x-www-form-urlencoded', headers];
  }

  /** POSTs upstream; OAuth errors come back as `OAuthError` with the upstream's code and status. */
  private async post(endpoint: string, body: string, type: string, headers: Record<string, string>, emptyOk = false): Promise<Record<string, unknown>> {
    let response: Response;
    try {
      response = await this.fetch(new URL(endpoint), { method: 'POST', headers: { ...headers, 'content-type': type, accept: 'application/json' }, body, redirect: 'error', signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000) });
    } catch (error) {
      throw new OAuthError('temporarily_unavailable', `The upstream authorization server could not be reached: ${messageOf(error)}`, 503);
    }
    const text = await boundedText(response, MAX_UPSTREAM_ANSWER_BYTES).catch(() => undefined);
    let value: unknown;
    try {
      value = text === undefined || text === '' ? undefined : JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (!response.ok) {
      if (isJsonObject(value) && typeof value.error === 'string') {
        throw new OAuthError(value.error, typeof value.error_description === 'string' ? value.error_description : undefined, response.status >= 500 ? 502 : response.status);
      }
      throw new OAuthError('server_error', `The upstream authorization server answered HTTP ${response.status}`, 502);
    }
    if (isJsonObject(value)) return value;
    if (emptyOk) return {};
    throw new OAuthError('server_error', 'The upstream authorization server answered with something other than a JSON object', 502);
  }
}
