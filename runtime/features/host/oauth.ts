/**
 * OAuth for hosts on Node: per-server OAuth providers whose credentials live in files under the
 * user config directory. Connects use them silently (stored tokens, refreshed when they
 * expire) and never open a browser; `login` runs the browser flow through a loopback redirect
 * receiver (RFC 8252) and stores what it obtains for those connects.
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import path from 'node:path';
import type * as Stateful from '../../../generated/protocol/stateful.js';
import { OAuthAuthorizer } from '../auth/authorizer.js';
import { canonicalResource } from '../auth/discovery.js';
import { withOAuth } from '../auth/fetch.js';
import type { OAuthClientProvider } from '../auth/provider.js';
import { SessionStore } from './oauth-session-store.js';
import type { OAuthClientInformation, StoredTokens } from '../auth/types.js';
import { assertIssuerAllowed } from '../auth/issuer-allowlist.js';
import { Client } from '../../peers/client.js';
import { SdkError } from '../../core/errors.js';
import type { FetchLike } from '../../transports/http/client-request.js';
import { FileOAuthStore } from '../auth/node/file-store.js';
import { resolvingAuthUrlPolicy } from '../auth/node/resolving-policy.js';
import type { AuthUrlPolicy } from '../auth/url-policy.js';
import { DEFAULT_LOOPBACK_TIMEOUT_MS, openInBrowser, startLoopbackReceiver, type LoopbackReceiver } from '../auth/node/loopback.js';
import type { RemoteServerConfig } from './config.js';
import { createTransport } from './transports.js';
import { Method } from '../../../generated/methods.js';

/**
 * Supplies OAuth for one remote server of a {@link ConnectionManager}: the provider its requests
 * authorize with, or undefined to connect without OAuth.
 */
export type OAuthProviderFactory = (server: string, entry: RemoteServerConfig) => OAuthClientProvider | undefined;

/**
 * A server needs the user to authorize (no usable stored tokens, and the refresh token, if any,
 * was refused), and the connect that found out is not allowed to open a browser. The server's
 * status becomes `needs-auth` with this message as its reason.
 *
 * @example
 * ```ts
 * import { ConnectionManager, LoginRequiredError } from 'mcpgen/host';
 *
 * const { manager } = ConnectionManager.fromConfig();
 * await manager.connectAll();
 * const status = manager.status('notes');
 * if (status.state === 'needs-auth' && status.error instanceof LoginRequiredError) console.log(`Sign in first: ${status.reason}`);
 * ```
 */
export class LoginRequiredError extends SdkError {
  /** The server's name. */
  readonly server: string;

  constructor(server: string, message: string) {
    super('AUTHORIZATION_FAILED', message);
    this.name = 'LoginRequiredError';
    this.server = server;
  }
}

/** Options of {@link NodeOAuth}. */
export interface NodeOAuthOptions {
  /**
   * Where the credential files go; default `$XDG_CONFIG_HOME/mcpgen/oauth`, or
   * `~/.config/mcpgen/oauth` when XDG_CONFIG_HOME is unset.
   */
  readonly directory?: string | undefined;
  /** Variables for locating the default directory; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Opens the authorization URL during {@link NodeOAuth.login} (default: the platform's browser). */
  readonly openBrowser?: ((url: string) => void | Promise<void>) | undefined;
  /** The `client_name` registered with authorization servers (default `mcpgen`). */
  readonly clientName?: string | undefined;
  /** The advice in a {@link LoginRequiredError}; default ``run `mcpgen login <server>` ``. */
  readonly loginHint?: ((server: string) => string) | undefined;
  /** How long {@link NodeOAuth.login} waits for the browser to come back (default 5 minutes). */
  readonly loginTimeoutMs?: number | undefined;
  /** The fetch for the server and the OAuth requests (default `globalThis.fetch`). */
  readonly fetch?: FetchLike | undefined;
  /** Where discovered OAuth URLs may point (default: {@link resolvingAuthUrlPolicy}, which resolves names). */
  readonly urlPolicy?: AuthUrlPolicy | undefined;
}

/** Options of one {@link NodeOAuth.login}. */
export interface LoginOptions {
  /** Opens the authorization URL (over the {@link NodeOAuthOptions} one). */
  readonly openBrowser?: ((url: string) => void | Promise<void>) | undefined;
  /** How long to wait for the browser to come back. */
  readonly timeoutMs?: number | undefined;
  /** The name and version the verifying connect announces. */
  readonly clientInfo?: Stateful.Implementation | undefined;
}

/** What {@link NodeOAuth.login} obtained. */
export interface LoginResult {
  readonly server: string;
  readonly url: string;
  /** False when the server answered without asking for authorization (nothing was stored). */
  readonly authorized: boolean;
  /** The authorization server that issued the tokens. */
  readonly issuer?: string | undefined;
  /** The client id the tokens were issued to. */
  readonly clientId?: string | undefined;
  /** The granted scope (as the token response said, else as requested). */
  readonly scope?: string | undefined;
  /** Unix milliseconds at which the access token expires, when the server said. */
  readonly expiresAt?: number | undefined;
  /** A refresh token was issued, so later connects renew the access token silently. */
  readonly refreshable: boolean;
  /** The server, as it introduced itself on the verifying connect. */
  readonly serverInfo?: Stateful.Implementation | undefined;
  readonly protocolVersion?: string | undefined;
  /** The file the credentials are kept in. */
  readonly file: string;
}

/** The store key of the loopback port a login last used (reused so registered redirect URIs keep matching). */
const PORT_KEY = 'login:redirect-port';

/**
 * The default directory of {@link NodeOAuth}'s credential files for an environment.
 *
 * @example
 * ```ts
 * import { oauthDirectory } from 'mcpgen/host';
 *
 * oauthDirectory({ XDG_CONFIG_HOME: '/home/ada/.config' }); // '/home/ada/.config/mcpgen/oauth'
 * ```
 */
export function oauthDirectory(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg !== undefined && xdg !== '' && path.isAbsolute(xdg) ? xdg : path.join(env.HOME ?? homedir(), '.config');
  return path.join(base, 'mcpgen', 'oauth');
}

/**
 * OAuth for the remote servers of a host, with credentials in one file per server URL (mode
 * 0600) under the user config directory, so they survive restarts and are shared by every
 * project that names the same server.
 *
 * - {@link factory} is the {@link ConnectionManager} `oauth` option: connects send the stored
 *   access token, refresh it when it expires, and never open a browser; a server that needs
 *   the user ends `needs-auth` with a {@link LoginRequiredError} saying how to log in.
 * - {@link login} runs authorization code + PKCE in the browser through a loopback redirect
 *   receiver on 127.0.0.1, then stores the tokens; {@link logout} forgets them.
 *
 * @example
 * ```ts
 * import { ConnectionManager, NodeOAuth } from 'mcpgen/host';
 *
 * const oauth = new NodeOAuth({ clientName: 'my-host' });
 * const { manager } = ConnectionManager.fromConfig({ cwd: process.cwd() }, { oauth: oauth.factory });
 * const statuses = await manager.connectAll();
 * for (const [name, status] of Object.entries(statuses)) {
 *   if (status.state === 'needs-auth') {
 *     await manager.login(name); // opens the browser, waits for the redirect, stores the tokens
 *     await manager.connect(name);
 *   }
 * }
 * await manager.close();
 * ```
 */
export class NodeOAuth {
  /** The directory of the credential files. */
  readonly directory: string;
  private readonly options: NodeOAuthOptions;
  private readonly stores = new Map<string, FileOAuthStore>();

  constructor(options: NodeOAuthOptions = {}) {
    this.options = options;
    this.directory = options.directory ?? oauthDirectory(options.env);
  }

  /**
   * The provider factory for a manager: every remote entry gets OAuth, except entries with a
   * programmatic `auth` hook and entries without an `oauth` setting that send their own
   * Authorization header.
   */
  readonly factory: OAuthProviderFactory = (server, entry) => {
    if (entry.auth !== undefined) return undefined;
    if (entry.oauth === undefined && Object.keys(entry.headers ?? {}).some((name) => name.toLowerCase() === 'authorization')) return undefined;
    return this.providerFor(server, entry);
  };

  /** The non-interactive provider of `entry`: stored tokens and refresh only. */
  providerFor(server: string, entry: RemoteServerConfig): OAuthClientProvider {
    const required = (): never => {
      throw new LoginRequiredError(server, `authorization required: ${(this.options.loginHint ?? defaultLoginHint)(server)}`);
    };
    const documentUrl = entry.oauth?.clientMetadataUrl;
    return {
      ...this.sharedSettings(entry),
      // Never sent: authorization stops in redirectToAuthorization, before any request uses it.
      redirectUrl: `http://127.0.0.1:${entry.oauth?.redirectPort ?? 0}/callback`,
      // Reached only when there is no client from a login: registering one here would leave a
      // registration behind that no login can use, so the user is sent to log in instead.
      clientInformation: (issuer) => preRegisteredFor(server, entry, issuer) ?? (documentUrl !== undefined ? { client_id: documentUrl } : required()),
      store: new SessionStore(this.fileStore(entry)),
      redirectToAuthorization: async () => required(),
    };
  }

  /** The credential file of `entry` (one per server URL). */
  fileOf(entry: RemoteServerConfig): string {
    const url = new URL(entry.url);
    const resource = canonicalResource(url);
    const host = `${url.hostname}${url.port === '' ? '' : `_${url.port}`}`.replace(/[^A-Za-z0-9.-]/g, '_');
    return path.join(this.directory, `${host}-${createHash('sha256').update(resource).digest('hex').slice(0, 12)}.json`);
  }

  /** The stored tokens of `entry`, if any. */
  async tokens(entry: RemoteServerConfig): Promise<StoredTokens | undefined> {
    return (await this.fileStore(entry).get(`tokens:${canonicalResource(new URL(entry.url))}`)) as StoredTokens | undefined;
  }

  /**
   * Authorizes `server` in the browser: starts a loopback receiver, connects with an
   * interactive provider (which runs discovery, client registration, authorization code +
   * PKCE and the token exchange on the server's 401), and keeps the tokens for later connects.
   * Tokens stored earlier stay in place until the new ones arrive, so a login that fails or is
   * abandoned leaves them as they were.
   */
  async login(server: string, entry: RemoteServerConfig, options: LoginOptions = {}): Promise<LoginResult> {
    const file = this.fileStore(entry);
    const timeoutMs = options.timeoutMs ?? this.options.loginTimeoutMs ?? DEFAULT_LOOPBACK_TIMEOUT_MS;
    const receiver = await this.startReceiver(entry, file, {
      openBrowser: options.openBrowser ?? this.options.openBrowser ?? openInBrowser,
      timeoutMs,
    });
    const store = new SessionStore(file, { hideTokens: true, redirectUrl: receiver.redirectUrl });
    const provider: OAuthClientProvider = {
      ...this.sharedSettings(entry),
      redirectUrl: receiver.redirectUrl,
      ...(preRegisteredClient(entry) !== undefined ? { clientInformation: (issuer: string) => preRegisteredFor(server, entry, issuer) } : {}),
      store,
      redirectToAuthorization: (url) => receiver.redirectToAuthorization(url),
    };
    const base = this.options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    const oauthFetch = withOAuth(entry.auth?.fetch ?? base, provider, { serverUrl: entry.url, authFetch: base });
    // Without the era cache the connect always reaches the server, so that its 401 starts the flow.
    const client = new Client(options.clientInfo ?? { name: 'mcpgen-login', version: '0.1.0' }, { eraCache: false });
    try {
      const transport = createTransport({ ...entry, auth: { ...entry.auth, fetch: oauthFetch } }, {});
      // The initialize request waits for the browser, so it gets the login's time on top of a connect's.
      await client.connect(transport, { timeout: timeoutMs + 30_000 });
      const authorizer = oauthFetch.authorizerFor(entry.url);
      if ((await authorizer.tokens()) === undefined && client.serverCapabilities?.tools !== undefined) {
        // Some servers let anyone connect and protect only what comes after.
        await client.request(Method.ToolsList, {}, { timeout: timeoutMs + 30_000 });
      }
      const stored = await authorizer.tokens();
      if (stored !== undefined && entry.oauth?.redirectPort === undefined) await file.set(PORT_KEY, new URL(receiver.redirectUrl).port);
      const registered = stored === undefined ? undefined : ((await file.get(`client:${stored.issuer}`)) as OAuthClientInformation | undefined);
      return {
        server,
        url: entry.url,
        authorized: stored !== undefined,
        issuer: stored?.issuer,
        clientId: registered?.client_id ?? preRegisteredClient(entry)?.client_id ?? entry.oauth?.clientMetadataUrl,
        scope: stored === undefined ? undefined : (stored.tokens.scope ?? stored.requestedScope),
        expiresAt: stored?.expiresAt,
        refreshable: stored?.tokens.refresh_token !== undefined,
        serverInfo: client.serverInfo,
        protocolVersion: client.protocolVersion,
        file: file.path,
      };
    } finally {
      await client.close().catch(() => undefined);
      await receiver.close();
    }
  }

  /** Forgets the tokens of `entry` (its client registration stays, for the next login); resolves whether there were any. */
  async logout(entry: RemoteServerConfig): Promise<boolean> {
    const had = (await this.tokens(entry)) !== undefined;
    await new OAuthAuthorizer(entry.url, { store: this.fileStore(entry) }).signOut();
    return had;
  }

  private sharedSettings(entry: RemoteServerConfig): OAuthClientProvider {
    const settings = entry.oauth;
    return {
      clientMetadata: { client_name: this.options.clientName ?? 'mcpgen' },
      // A host follows whatever URLs a remote server's metadata names: names are resolved and judged too.
      urlPolicy: this.options.urlPolicy ?? resolvingAuthUrlPolicy(),
      ...(settings?.clientMetadataUrl !== undefined ? { clientMetadataUrl: settings.clientMetadataUrl } : {}),
      ...(settings?.scopes !== undefined ? { scope: settings.scopes.join(' ') } : {}),
    };
  }

  private fileStore(entry: RemoteServerConfig): FileOAuthStore {
    const file = this.fileOf(entry);
    let store = this.stores.get(file);
    if (store === undefined) {
      store = new FileOAuthStore(file);
      this.stores.set(file, store);
    }
    return store;
  }

  /**
   * Starts the receiver on the configured port; else on the port the last login used, so that
   * the redirect URI registered then still matches; else on any free port.
   */
  private async startReceiver(entry: RemoteServerConfig, file: FileOAuthStore, options: { openBrowser: (url: string) => void | Promise<void>; timeoutMs: number }): Promise<LoopbackReceiver> {
    const configured = entry.oauth?.redirectPort;
    if (configured !== undefined) return startLoopbackReceiver({ ...options, port: configured });
    const previous = Number(await file.get(PORT_KEY));
    if (Number.isInteger(previous) && previous > 0) {
      try {
        return await startLoopbackReceiver({ ...options, port: previous });
      } catch {
        // Taken by now: a new port, and a new registration where the server insists on exact redirect URIs.
      }
    }
    return startLoopbackReceiver(options);
  }
}

function defaultLoginHint(server: string): string {
  return `run \`mcpgen login ${server}\``;
}

/**
 * The pre-registered client of `entry` for the authorization server `issuer`. Its credentials
 * go only to an issuer the entry's `oauth.issuer` lists (by default one at the server's own
 * origin): throws otherwise, rather than registering some other client behind the user's back.
 */
function preRegisteredFor(server: string, entry: RemoteServerConfig, issuer: string): OAuthClientInformation | undefined {
  const client = preRegisteredClient(entry);
  if (client === undefined) return undefined;
  if (client.client_secret !== undefined || entry.oauth?.issuer !== undefined) {
    assertIssuerAllowed(entry.oauth?.issuer, issuer, new URL(entry.url), `${server} oauth`);
  }
  return client;
}

function preRegisteredClient(entry: RemoteServerConfig): OAuthClientInformation | undefined {
  const settings = entry.oauth;
  if (settings?.clientId === undefined) return undefined;
  return { client_id: settings.clientId, ...(settings.clientSecret !== undefined ? { client_secret: settings.clientSecret } : {}) };
}
