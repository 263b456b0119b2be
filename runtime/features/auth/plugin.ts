/**
 * mcpgen/auth as the HTTP transports' auth plug-in: OAuth behind the client transports'
 * `authProvider` option and the bearer guard behind `createMcpHttpHandler`'s `auth` option.
 * The transports take generic hooks (a fetch wrapper, a request guard); this module makes
 * them from the auth options, and names the options' types for the transports by declaration
 * merging. The package entries call {@link installOAuthPlugin}.
 */
import { installAuthPlugin, type FetchWrapper, type RequestGuard } from '../../transports/http/auth-hooks.js';
import { withOAuth } from './fetch.js';
import type { OAuthClientProvider } from './provider.js';
import { createBearerGuard, type BearerAuthOptions } from './resource-server.js';

declare module '../../transports/http/auth-hooks.js' {
  interface AuthProviderTypes {
    /** OAuth (mcpgen/auth). */
    readonly oauth: OAuthClientProvider;
  }
  interface HandlerAuthTypes {
    /** OAuth bearer tokens (mcpgen/auth). */
    readonly bearer: BearerAuthOptions;
  }
}

/**
 * The fetch wrapper that authorizes a client transport's requests with OAuth (what the
 * `authProvider` option does), for transports or fetch stacks that take the hook itself.
 *
 * @example
 * ```ts
 * import { oauthFetchWrapper, type OAuthClientProvider } from 'mcpgen/auth';
 *
 * declare const provider: OAuthClientProvider;
 * const authorized = oauthFetchWrapper(provider)((url, init) => fetch(url, init), new URL('https://mcp.example.com/mcp'));
 * ```
 */
export function oauthFetchWrapper(provider: OAuthClientProvider): FetchWrapper {
  return (fetch, serverUrl) => withOAuth(fetch, provider, { serverUrl });
}

/**
 * The request guard of an OAuth-protected MCP endpoint (what `createMcpHttpHandler`'s `auth`
 * option does): serves the Protected Resource Metadata, refuses requests without a valid token
 * and lets the rest through with their `authInfo`.
 *
 * @example
 * ```ts
 * import { createMcpHttpHandler, McpServer } from 'mcpgen';
 * import { bearerRequestGuard, type TokenVerifier } from 'mcpgen/auth';
 *
 * declare const verifier: TokenVerifier;
 * const mcp = new McpServer({ name: 'notes', version: '1.0.0' });
 * const handler = createMcpHttpHandler({
 *   server: () => mcp.createServer(),
 *   guard: bearerRequestGuard({ verifier, resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://auth.example.com'] }),
 * });
 * ```
 */
export function bearerRequestGuard(options: BearerAuthOptions): RequestGuard {
  const guard = createBearerGuard(options);
  return (request) => guard.check(request);
}

/** Installs OAuth as the transports' auth plug-in; idempotent. */
export function installOAuthPlugin(): void {
  installAuthPlugin({
    fetchWrapper: (provider) => oauthFetchWrapper(provider),
    requestGuard: (options) => bearerRequestGuard(options),
  });
}
