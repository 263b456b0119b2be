/**
 * The authorization server: routes requests below the issuer to the metadata (RFC 8414),
 * authorization, token, registration (RFC 7591) and revocation (RFC 7009) endpoints, in front of
 * an {@link AuthorizationServerProvider}. Runtime-neutral: it answers the HTTP core's request
 * views (so one `createMcpHttpHandler` serves it next to the MCP endpoint, through
 * {@link AuthorizationServer.guard}) and Fetch `Request`s.
 */
import { asError, SdkError } from '../../core/errors.js';
import type { RequestGuard } from '../../transports/http/auth-hooks.js';
import { fetchResponseOf, viewOfFetchRequest, type FetchRequestInfo } from '../../transports/http/fetch-adapter.js';
import type { HttpReply, HttpRequestView } from '../../transports/http/http-types.js';
import { createBearerGuard, type BearerAuthOptions, type TokenVerifier } from '../auth/resource-server.js';
import type { AuthorizationServerMetadata } from '../auth/types.js';
import { isLoopbackUrl } from '../auth/url-policy.js';
import { authorizeEndpoint } from './authorize-endpoint.js';
import { ClientMetadataDocuments, type ClientMetadataDocumentOptions } from './client-metadata-documents.js';
import { RateLimiter, registrationEndpoint, type RegistrationLimits } from './registration-endpoint.js';
import { CORS, DEFAULT_AUTH_SERVER_MAX_BODY_BYTES, jsonAnswer } from './replies.js';
import { revocationEndpoint, tokenEndpoint } from './token-endpoint.js';
import type { AuthorizationServerProvider, RegisteredClient } from './types.js';

const METADATA_WELL_KNOWN = '/.well-known/oauth-authorization-server';

/** Options of {@link createAuthorizationServer}. */
export interface AuthorizationServerOptions {
  /** The issuer identifier: `https:` (or `http:` on loopback), no query or fragment. Endpoints live below its path. */
  readonly issuer: string | URL;
  /** Who decides: `LocalAuthorizationProvider`, `ProxyAuthorizationProvider`, or your own. */
  readonly provider: AuthorizationServerProvider;
  /**
   * The resources (RFC 8707, the MCP servers' canonical URLs) tokens may be for; every token is
   * bound to one. A request naming another is refused with `invalid_target`; one naming none
   * gets the first.
   */
  readonly resources: string | readonly string[];
  /** The scopes clients may ask for (default: any). */
  readonly scopesSupported?: readonly string[] | undefined;
  /**
   * Dynamic Client Registration: on by default where the provider registers clients, rate
   * limited (default 20 a minute, bursts of 20); `false` turns it off.
   */
  readonly registration?: boolean | RegistrationLimits | undefined;
  /** Accept `https:` URLs of Client ID Metadata Documents as client ids (default off). */
  readonly clientMetadataDocuments?: boolean | ClientMetadataDocumentOptions | undefined;
  /** Largest request body (default 64 KiB); larger ones are refused. */
  readonly maxBodyBytes?: number | undefined;
  /** More members of the metadata document (`service_documentation`…). */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
  /** The clock, Unix milliseconds (default `Date.now`). */
  readonly now?: (() => number) | undefined;
  /** Receives failures of the provider (answered `server_error`). */
  readonly onerror?: ((error: Error) => void) | undefined;
}

/** Options of {@link AuthorizationServer.guard}: the bearer guard's, with the verifier and issuer filled in. */
export type ResourceGuardOptions = Omit<BearerAuthOptions, 'verifier' | 'authorizationServers'> & {
  /** Issuers whose tokens the MCP endpoint accepts (default: this server). */
  readonly authorizationServers?: readonly string[] | undefined;
};

/** An OAuth authorization server for MCP clients; see {@link createAuthorizationServer}. */
export interface AuthorizationServer {
  readonly issuer: string;
  /** The RFC 8414 metadata document. */
  readonly metadata: AuthorizationServerMetadata;
  /** Checks this server's access tokens (the provider's `verifyAccessToken`), for a resource-server guard. */
  readonly verifier: TokenVerifier;
  /** Answers a request to one of this server's paths; undefined for any other path. */
  answer(request: HttpRequestView): Promise<HttpReply | undefined>;
  /** Answers a request in the HTTP core's representation (404 for paths not its own). */
  handle(request: HttpRequestView): Promise<HttpReply>;
  /** Answers a Fetch API request (404 for paths not its own). */
  fetch(request: Request, info?: FetchRequestInfo): Promise<Response>;
  /**
   * The `guard` of a `createMcpHttpHandler` that serves this server and an MCP endpoint on one
   * origin: its paths are answered here, the Protected Resource Metadata names this issuer, and
   * every other request needs one of its tokens for `resource`.
   */
  guard(options: ResourceGuardOptions): RequestGuard;
}

/** The issuer as RFC 8414 wants it: no query, no fragment, no trailing slash. */
function checkedIssuer(value: string | URL): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SdkError('INVALID_ARGUMENT', `The issuer ${String(value)} is not a URL`);
  }
  if (url.search !== '' || url.hash !== '') throw new SdkError('INVALID_ARGUMENT', 'The issuer must have no query or fragment');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackUrl(url))) throw new SdkError('INVALID_ARGUMENT', 'The issuer must be https: (http: only on loopback)');
  return url;
}

/**
 * Creates an authorization server. Serve it alone (`fetch`, or `toNodeListener` from
 * `mcpgen/node`) or next to the MCP endpoint with {@link AuthorizationServer.guard}.
 *
 * @example
 * ```ts
 * import { createMcpHttpHandler, McpServer } from 'mcpgen';
 * import { createAuthorizationServer, LocalAuthorizationProvider } from 'mcpgen/auth-server';
 *
 * const origin = 'https://notes.example.com';
 * const authorizationServer = createAuthorizationServer({
 *   issuer: origin,
 *   resources: [`${origin}/mcp`],
 *   provider: new LocalAuthorizationProvider({ decide: () => ({ approve: { subject: 'demo-user' } }) }),
 * });
 * const mcp = new McpServer({ name: 'notes', version: '1.0.0' });
 * const handler = createMcpHttpHandler({
 *   server: () => mcp.createServer(),
 *   path: '/mcp',
 *   guard: authorizationServer.guard({ resource: `${origin}/mcp` }),
 * });
 * ```
 */
export function createAuthorizationServer(options: AuthorizationServerOptions): AuthorizationServer {
  const issuerUrl = checkedIssuer(options.issuer);
  // The issuer's path, without a trailing slash: '' for an issuer at the origin's root.
  const base = issuerUrl.pathname.replace(/\/+$/, '');
  const issuer = `${issuerUrl.origin}${base}`;
  const endpoint = (path: string): string => `${issuerUrl.origin}${base}${path}`;
  const provider = options.provider;
  const resources = typeof options.resources === 'string' ? [options.resources] : [...options.resources];
  if (resources.length === 0) throw new SdkError('INVALID_ARGUMENT', 'resources must name at least one resource');
  const now = options.now ?? Date.now;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_AUTH_SERVER_MAX_BODY_BYTES;
  const report = (error: Error): void => {
    try {
      options.onerror?.(error);
    } catch {
      // A failing error hook must not break request handling.
    }
  };
  const registration = provider.registerClient !== undefined && options.registration !== false;
  const limits = typeof options.registration === 'object' ? options.registration : {};
  const documents = options.clientMetadataDocuments === undefined || options.clientMetadataDocuments === false
    ? undefined
    : new ClientMetadataDocuments(options.clientMetadataDocuments === true ? {} : options.clientMetadataDocuments, issuerUrl, options.scopesSupported, now);
  const client = async (clientId: string): Promise<RegisteredClient | undefined> =>
    documents?.handles(clientId) === true ? await documents.client(clientId) : await provider.getClient(clientId);

  const authMethods = ['client_secret_basic', 'client_secret_post', 'none'];
  const metadata: AuthorizationServerMetadata = {
    issuer,
    authorization_endpoint: endpoint('/authorize'),
    token_endpoint: endpoint('/token'),
    ...(registration ? { registration_endpoint: endpoint('/register') } : {}),
    ...(provider.revokeToken !== undefined ? { revocation_endpoint: endpoint('/revoke'), revocation_endpoint_auth_methods_supported: authMethods } : {}),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: authMethods,
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    ...(options.scopesSupported !== undefined ? { scopes_supported: [...options.scopesSupported] } : {}),
    ...(documents !== undefined ? { client_id_metadata_document_supported: true } : {}),
    ...provider.metadata,
    ...options.metadata,
  };
  provider.bind?.({ issuer, endpoint });

  const endpointConfig = { issuer, provider, client, resources, scopesSupported: options.scopesSupported, maxBodyBytes, now, report };
  const registrationConfig = { provider, limiter: new RateLimiter(limits, now), limits, scopesSupported: options.scopesSupported, maxBodyBytes, report };
  const routes: Readonly<Record<string, (request: HttpRequestView) => Promise<HttpReply>>> = {
    [`${METADATA_WELL_KNOWN}${base}`]: async (request) => (request.method === 'GET' || request.method === 'HEAD' ? jsonAnswer(200, metadata, { 'cache-control': 'max-age=300' }) : jsonAnswer(405, { error: 'invalid_request' }, { allow: 'GET' })),
    [`${base}/authorize`]: (request) => authorizeEndpoint(request, endpointConfig),
    [`${base}/token`]: (request) => tokenEndpoint(request, endpointConfig),
    ...(registration ? { [`${base}/register`]: (request: HttpRequestView) => registrationEndpoint(request, registrationConfig) } : {}),
    ...(provider.revokeToken !== undefined ? { [`${base}/revoke`]: (request: HttpRequestView) => revocationEndpoint(request, endpointConfig) } : {}),
  };

  const route = async (request: HttpRequestView): Promise<HttpReply | undefined> => {
    const endpointRoute = Object.hasOwn(routes, request.path) ? routes[request.path] : undefined;
    if (endpointRoute === undefined) return await provider.route?.(request);
    if (request.method === 'OPTIONS') {
      return { kind: 'body', status: 204, headers: { ...CORS, 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'authorization, content-type', 'access-control-max-age': '600' } };
    }
    return await endpointRoute(request);
  };
  // Endpoints answer their own failures; this catches what slips past them (a provider's own route).
  const answer = async (request: HttpRequestView): Promise<HttpReply | undefined> => {
    try {
      return await route(request);
    } catch (error) {
      report(asError(error));
      return jsonAnswer(500, { error: 'server_error' });
    }
  };
  const handle = async (request: HttpRequestView): Promise<HttpReply> => (await answer(request)) ?? jsonAnswer(404, { error: 'not_found' });
  const verifier: TokenVerifier = { verifyAccessToken: (token) => provider.verifyAccessToken(token) };

  return {
    issuer,
    metadata,
    verifier,
    answer,
    handle,
    fetch: async (request, info) => fetchResponseOf(await handle(viewOfFetchRequest(request, info))),
    guard: (guardOptions) => {
      const bearer = createBearerGuard({ ...guardOptions, verifier, authorizationServers: guardOptions.authorizationServers ?? [issuer] });
      return async (request) => {
        const reply = await answer(request);
        return reply !== undefined ? { reply } : await bearer.check(request);
      };
    },
  };
}
