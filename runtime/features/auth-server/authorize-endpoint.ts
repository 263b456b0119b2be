/**
 * The authorization endpoint (RFC 6749 §4.1.1 with the OAuth 2.1 rules): the client and its
 * redirect URI are checked first, and a failure there is shown to the user as a page, never
 * redirected (the server would otherwise be an open redirector); after that every error goes
 * back to the client's redirect URI with its `state` and the server's `iss` (RFC 9207). PKCE
 * is mandatory and only S256 is accepted; the `resource` (RFC 8707) must be one the server
 * issues tokens for.
 */
import { asError, SdkError } from '../../core/errors.js';
import type { BodyReply, HttpRequestView } from '../../transports/http/http-types.js';
import { OAuthError } from '../auth/types.js';
import { redirectUriMatches } from './redirect-uris.js';
import { assertSingleParameters, errorPage, htmlPage, readForm, redirectAnswer } from './replies.js';
import type { AuthorizationServerProvider, RegisteredClient } from './types.js';

/** What the authorization endpoint needs from its server. */
export interface AuthorizeEndpointConfig {
  readonly issuer: string;
  readonly provider: AuthorizationServerProvider;
  /** Finds the client of a `client_id` (registered, or from its metadata document). */
  client(clientId: string): Promise<RegisteredClient | undefined>;
  /** The resources tokens may be for; the first is the default. */
  readonly resources: readonly string[];
  readonly scopesSupported: readonly string[] | undefined;
  readonly maxBodyBytes: number;
  report(error: Error): void;
}

/** An S256 challenge is the base64url SHA-256 of the verifier: 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** The client's redirect URI with the authorization response's parameters added to its query. */
export function authorizationResponseUrl(redirectUri: string, params: Readonly<Record<string, string | undefined>>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

/** The configured resource `asked` names (a trailing slash aside), or undefined. */
export function allowedResource(asked: string, resources: readonly string[]): string | undefined {
  const strip = (value: string): string => value.replace(/\/$/, '');
  return resources.find((resource) => strip(resource) === strip(asked));
}

/** Answers a GET or POST to the authorization endpoint. */
export async function authorizeEndpoint(request: HttpRequestView, config: AuthorizeEndpointConfig): Promise<BodyReply> {
  if (request.method !== 'GET' && request.method !== 'POST') return errorPage(405, 'Method not allowed', 'Use GET or POST.', { allow: 'GET, POST' });
  let params: URLSearchParams;
  try {
    params = request.method === 'POST' ? await readForm(request, config.maxBodyBytes) : request.query;
    assertSingleParameters(params, ['resource']);
  } catch (error) {
    return errorPage(400, 'Invalid authorization request', error instanceof OAuthError ? error.errorDescription ?? error.error : 'The request could not be read');
  }
  const clientId = params.get('client_id');
  if (clientId === null) return errorPage(400, 'Invalid authorization request', 'The client_id parameter is missing.');
  let client: RegisteredClient | undefined;
  try {
    client = await config.client(clientId);
  } catch (error) {
    if (!(error instanceof OAuthError)) config.report(asError(error));
    return errorPage(400, 'Unknown client', error instanceof OAuthError ? error.errorDescription ?? error.error : 'The client could not be looked up.');
  }
  if (client === undefined) return errorPage(400, 'Unknown client', `No client with the id ${JSON.stringify(clientId)} is registered.`);
  const asked = params.get('redirect_uri');
  let redirectUri: string;
  if (asked !== null) {
    if (!redirectUriMatches(asked, client.redirect_uris)) return errorPage(400, 'Invalid redirect URI', `${asked} is not a redirect URI of this client.`);
    redirectUri = asked;
  } else if (client.redirect_uris.length === 1) {
    redirectUri = client.redirect_uris[0]!;
  } else {
    return errorPage(400, 'Invalid authorization request', 'The redirect_uri parameter is missing, and the client has more than one.');
  }

  if (!URL.canParse(redirectUri)) {
    // Only a pre-registered client can hold one: registration and documents check every URI.
    config.report(new SdkError('INVALID_ARGUMENT', `The client ${clientId} has the redirect URI ${JSON.stringify(redirectUri)}, which is not a URL`));
    return errorPage(500, 'Misconfigured client', 'The redirect URI of this client is not usable.');
  }
  const state = params.get('state') ?? undefined;
  const answer = (values: Readonly<Record<string, string | undefined>>): BodyReply => redirectAnswer(authorizationResponseUrl(redirectUri, { ...values, state, iss: config.issuer }));
  const fail = (error: string, description: string): BodyReply => answer({ error, error_description: description });

  if (params.get('response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be code');
  if (!client.response_types.includes('code') || !client.grant_types.includes('authorization_code')) return fail('unauthorized_client', 'The client is not registered for the authorization code grant');
  const challenge = params.get('code_challenge');
  const method = params.get('code_challenge_method');
  if (challenge === null) return fail('invalid_request', 'code_challenge is required (PKCE with S256)');
  if (method !== 'S256') return fail('invalid_request', `code_challenge_method must be S256; ${method === null ? 'plain (the default when it is absent)' : JSON.stringify(method)} is refused`);
  if (!S256_CHALLENGE.test(challenge)) return fail('invalid_request', 'code_challenge is not an S256 challenge (43 base64url characters)');

  const scope = params.get('scope');
  const scopes = (scope ?? client.scope ?? '').split(' ').filter((entry) => entry !== '');
  const unknown = config.scopesSupported === undefined ? [] : scopes.filter((entry) => !config.scopesSupported!.includes(entry));
  if (unknown.length > 0) return fail('invalid_scope', `Unknown scope ${unknown.join(' ')}`);

  const resources = params.getAll('resource');
  if (resources.length > 1) return fail('invalid_target', 'Name one resource per authorization request');
  const resource = resources.length === 0 ? config.resources[0]! : allowedResource(resources[0]!, config.resources);
  if (resource === undefined) return fail('invalid_target', `This server issues no tokens for ${resources[0]}`);

  try {
    const outcome = await config.provider.authorize(
      { client, redirectUri, redirectUriGiven: asked !== null, state, scopes, resource, codeChallenge: challenge },
      { http: request, params },
    );
    switch (outcome.kind) {
      case 'code':
        return answer({ code: outcome.code });
      case 'error':
        return fail(outcome.error, outcome.description ?? outcome.error);
      case 'redirect':
        return redirectAnswer(new URL(outcome.location, config.issuer).href);
      case 'page':
        return htmlPage(outcome.status ?? 200, outcome.html, outcome.headers);
    }
  } catch (error) {
    if (error instanceof OAuthError) return fail(error.error, error.errorDescription ?? error.error);
    config.report(asError(error));
    return fail('server_error', 'The authorization server failed');
  }
}
