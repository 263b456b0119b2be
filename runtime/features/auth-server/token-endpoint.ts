/**
 * The token endpoint (authorization code and refresh token grants) and the revocation endpoint
 * (RFC 7009), with the client authentication both need: `client_secret_basic`,
 * `client_secret_post`, or none for public clients, which then prove themselves with PKCE.
 */
import { asError } from '../../core/errors.js';
import type { BodyReply, HttpRequestView } from '../../transports/http/http-types.js';
import { sha256Base64Url } from '../auth/crypto.js';
import { OAuthError } from '../auth/types.js';
import { allowedResource } from './authorize-endpoint.js';
import { CORS, jsonAnswer, oauthErrorAnswer, readForm } from './replies.js';
import type { AuthorizationServerProvider, RegisteredClient } from './types.js';

/** What the token and revocation endpoints need from their server. */
export interface TokenEndpointConfig {
  readonly provider: AuthorizationServerProvider;
  client(clientId: string): Promise<RegisteredClient | undefined>;
  readonly resources: readonly string[];
  readonly maxBodyBytes: number;
  /** Unix milliseconds. */
  now(): number;
  report(error: Error): void;
}

/** A PKCE code verifier: 43 to 128 unreserved characters (RFC 7636 §4.1). */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** The client id and secret of Basic authentication (RFC 6749 §2.3.1: each form-urlencoded). */
function basicCredentials(header: string): { id: string; secret: string } {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  let decoded: string | undefined;
  try {
    decoded = match === null ? undefined : atob(match[1]!);
  } catch {
    decoded = undefined;
  }
  const colon = decoded?.indexOf(':') ?? -1;
  if (decoded === undefined || colon < 0) throw new OAuthError('invalid_client', 'Malformed Basic credentials', 401);
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')), secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')) };
  } catch {
    throw new OAuthError('invalid_client', 'Malformed Basic credentials', 401);
  }
}

/** Compares secrets through their digests, so the time taken tells nothing about where they differ. */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([sha256Base64Url(given), sha256Base64Url(expected)]);
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

/** Authenticates the client of a token or revocation request with the method it registered. */
async function authenticate(request: HttpRequestView, form: URLSearchParams, config: TokenEndpointConfig): Promise<RegisteredClient> {
  const header = request.header('authorization');
  const basic = header === undefined ? undefined : basicCredentials(header);
  if (basic !== undefined && form.has('client_secret')) throw new OAuthError('invalid_request', 'Use one client authentication method, not two');
  const clientId = basic?.id ?? form.get('client_id');
  if (clientId === null) throw new OAuthError('invalid_client', 'The request names no client', 401);
  if (basic !== undefined && form.has('client_id') && form.get('client_id') !== clientId) throw new OAuthError('invalid_client', 'client_id differs from the authenticated client', 401);
  const client = await config.client(clientId);
  if (client === undefined) throw new OAuthError('invalid_client', 'Unknown client', 401);
  const method = client.token_endpoint_auth_method;
  const secret = basic?.secret ?? form.get('client_secret') ?? undefined;
  if (method === 'none') {
    if (secret !== undefined) throw new OAuthError('invalid_client', 'This public client has no secret to present', 401);
    return client;
  }
  const used = basic !== undefined ? 'client_secret_basic' : secret !== undefined ? 'client_secret_post' : 'none';
  if (used !== method) throw new OAuthError('invalid_client', `The client must authenticate with ${method}`, 401);
  if (client.client_secret === undefined || !(await sameSecret(secret!, client.client_secret))) throw new OAuthError('invalid_client', 'Wrong client credentials', 401);
  const expires = client.client_secret_expires_at;
  if (expires !== undefined && expires > 0 && expires * 1000 <= config.now()) throw new OAuthError('invalid_client', 'The client secret has expired', 401);
  return client;
}

/** The `resource` of a token request, which must be a resource of this server when present. */
function resourceOf(form: URLSearchParams, config: TokenEndpointConfig): string | undefined {
  const asked = form.get('resource');
  if (asked === null) return undefined;
  const resource = allowedResource(asked, config.resources);
  if (resource === undefined) throw new OAuthError('invalid_target', `This server issues no tokens for ${asked}`);
  return resource;
}

function required(form: URLSearchParams, name: string): string {
  const value = form.get(name);
  if (value === null || value === '') throw new OAuthError('invalid_request', `The ${name} parameter is missing`);
  return value;
}

/** Runs an endpoint body, answering OAuth errors as such and anything else as `server_error`. */
async function answering(request: HttpRequestView, config: TokenEndpointConfig, work: () => Promise<BodyReply>): Promise<BodyReply> {
  if (request.method !== 'POST') return oauthErrorAnswer(new OAuthError('invalid_request', 'Use POST', 405), { allow: 'POST' });
  try {
    return await work();
  } catch (error) {
    if (error instanceof OAuthError) {
      const challenge: Record<string, string> = error.error === 'invalid_client' && request.header('authorization') !== undefined ? { 'www-authenticate': 'Basic realm="token"' } : {};
      return oauthErrorAnswer(error, challenge);
    }
    config.report(asError(error));
    return oauthErrorAnswer(new OAuthError('server_error', 'The authorization server failed', 500));
  }
}

/** Answers a request to the token endpoint. */
export function tokenEndpoint(request: HttpRequestView, config: TokenEndpointConfig): Promise<BodyReply> {
  return answering(request, config, async () => {
    const form = await readForm(request, config.maxBodyBytes);
    const client = await authenticate(request, form, config);
    const grantType = required(form, 'grant_type');
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') throw new OAuthError('unsupported_grant_type', `The ${grantType} grant is not supported`);
    if (!client.grant_types.includes(grantType)) throw new OAuthError('unauthorized_client', `The client is not registered for the ${grantType} grant`);
    const resource = resourceOf(form, config);
    if (grantType === 'authorization_code') {
      const codeVerifier = required(form, 'code_verifier');
      if (!CODE_VERIFIER.test(codeVerifier)) throw new OAuthError('invalid_request', 'code_verifier must be 43 to 128 unreserved characters');
      const tokens = await config.provider.exchangeAuthorizationCode(client, { code: required(form, 'code'), codeVerifier, redirectUri: form.get('redirect_uri') ?? undefined, resource });
      return jsonAnswer(200, tokens);
    }
    const scope = form.get('scope');
    const scopes = scope === null ? undefined : scope.split(' ').filter((entry) => entry !== '');
    const tokens = await config.provider.exchangeRefreshToken(client, { refreshToken: required(form, 'refresh_token'), scopes, resource });
    return jsonAnswer(200, tokens);
  });
}

/** Answers a request to the revocation endpoint: 200 whether or not the token was known (RFC 7009 §2.2). */
export function revocationEndpoint(request: HttpRequestView, config: TokenEndpointConfig): Promise<BodyReply> {
  return answering(request, config, async () => {
    const form = await readForm(request, config.maxBodyBytes);
    const client = await authenticate(request, form, config);
    const hint = form.get('token_type_hint') ?? undefined;
    await config.provider.revokeToken?.(client, { token: required(form, 'token'), tokenTypeHint: hint });
    return { kind: 'body', status: 200, headers: { 'cache-control': 'no-store', ...CORS } };
  });
}
