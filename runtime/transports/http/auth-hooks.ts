/**
 * How authorization plugs into the HTTP transports without this layer knowing any scheme: the
 * client transports take a {@link FetchWrapper} and the handler a {@link RequestGuard}. The
 * `authProvider` option of the client transports and the `auth` option of
 * `createMcpHttpHandler` are shorthands an auth plug-in serves: it installs an
 * {@link AuthPlugin} that turns the option into the hook, and names the option's type by
 * declaration merging into {@link AuthProviderTypes} / {@link HandlerAuthTypes}. mcpgen/auth is
 * that plug-in; the package's entries install it.
 */
import { SdkError } from '../../core/errors.js';
import { fetchOverHttpClient } from './client-fetch-bridge.js';
import type { FetchLike, HttpClientOptions } from './client-request.js';
import type { HttpReply, HttpRequestView } from './http-types.js';

/** Wraps a client transport's fetch for the server at `serverUrl`, e.g. to authorize every request. */
export type FetchWrapper = (fetch: FetchLike, serverUrl: URL) => FetchLike;

/** What a {@link RequestGuard} decided about one request. */
export type RequestGuardOutcome =
  /** Answer with this reply (metadata, or a refusal). */
  | { readonly reply: HttpReply }
  /** Go on with this request (which may now carry the verified `authInfo`). */
  | { readonly request: HttpRequestView };

/** Checks every request (but CORS preflights) before it reaches the MCP endpoint. */
export type RequestGuard = (request: HttpRequestView) => Promise<RequestGuardOutcome>;

/**
 * The types the `authProvider` option accepts, one member per installed plug-in (mcpgen/auth
 * adds `oauth: OAuthClientProvider`). Declared empty here, so this layer names no scheme.
 */
export interface AuthProviderTypes {}

/** The `auth` option types of `createMcpHttpHandler`, one per plug-in (mcpgen/auth adds `bearer: BearerAuthOptions`). */
export interface HandlerAuthTypes {}

/** What the `authProvider` option of the HTTP client transports takes. */
export type AuthProvider = AuthProviderTypes[keyof AuthProviderTypes];

/** What the `auth` option of `createMcpHttpHandler` takes. */
export type HandlerAuth = HandlerAuthTypes[keyof HandlerAuthTypes];

/** The `authProvider` option of the HTTP client transports. */
export interface AuthProviderOption {
  /**
   * Authorization for a protected server (OAuth with mcpgen/auth): every request carries the
   * server's access token, and 401 and 403 `insufficient_scope` answers run authorization,
   * then the request again.
   */
  readonly authProvider?: AuthProvider | undefined;
}

/** Turns the auth shorthands into the transports' hooks. */
export interface AuthPlugin {
  /** The fetch wrapper for an `authProvider` option. */
  fetchWrapper(provider: AuthProvider): FetchWrapper;
  /** The request guard for an `auth` option. */
  requestGuard(options: HandlerAuth): RequestGuard;
}

let installed: AuthPlugin | undefined;

/** Installs the plug-in that serves the `authProvider` and `auth` options (mcpgen/auth does). */
export function installAuthPlugin(plugin: AuthPlugin): void {
  installed = plugin;
}

/** The installed plug-in; throws when an auth shorthand is used without one. */
function pluginFor(option: string): AuthPlugin {
  if (installed === undefined) {
    throw new SdkError('INVALID_ARGUMENT', `The ${option} option needs an auth plug-in: load the mcpgen/auth entry once (it installs OAuth)`);
  }
  return installed;
}

/**
 * The HTTP options of a client transport for `serverUrl`, with `fetch` wrapped for its
 * `authProvider`. The wrapped fetch is the user's `fetch`, else one over the `httpClient`, so
 * that the Node path carries authorized requests too, else `globalThis.fetch`.
 */
export function withAuthProvider(options: HttpClientOptions & AuthProviderOption, serverUrl: URL): HttpClientOptions {
  const provider = options.authProvider;
  if (provider === undefined) return options;
  const base: FetchLike = options.fetch
    ?? (options.httpClient === undefined ? (url, init) => globalThis.fetch(url, init) : fetchOverHttpClient(options.httpClient));
  return { ...options, fetch: pluginFor('authProvider').fetchWrapper(provider)(base, serverUrl) };
}

/** The guard of an `auth` option, or undefined without one. */
export function guardOf(auth: HandlerAuth | undefined): RequestGuard | undefined {
  return auth === undefined ? undefined : pluginFor('auth').requestGuard(auth);
}
