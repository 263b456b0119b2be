/**
 * The two halves of the authorization code grant with PKCE S256: the authorization request
 * the user agent is sent to, remembered as a pending authorization, and the validation of the
 * response that comes back (state, RFC 9207 `iss`, errors) followed by the code exchange.
 */
import { SdkError, messageOf } from '../../core/errors.js';
import type { FetchLike } from '../../transports/http/client-request.js';
import type { AuthorizationTarget } from './authorization-target.js';
import { createPkcePair, randomToken } from './crypto.js';
import type { DpopProver } from './dpop.js';
import { requestToken } from './endpoints.js';
import type { OAuthStore } from './store.js';
import { OAuthError, type OAuthClientInformation, type OAuthTokens, type TokenEndpointAuthMethod } from './types.js';

/** An authorization waiting for the user to come back, as stored under `pending:<state>`. */
export interface PendingAuthorization {
  readonly state: string;
  readonly verifier: string;
  readonly issuer: string;
  readonly issParameterSupported: boolean;
  readonly resource: string;
  readonly redirectUri: string;
  readonly scope: string | undefined;
  readonly client: OAuthClientInformation;
  readonly method: TokenEndpointAuthMethod;
  readonly tokenEndpoint: string;
  /** Unix milliseconds after which the authorization response is refused. */
  readonly expiresAt: number;
}

/** What a new authorization request needs besides the target. */
export interface AuthorizationRequestInput {
  readonly client: OAuthClientInformation;
  readonly method: TokenEndpointAuthMethod;
  readonly redirectUri: string;
  readonly scope: string | undefined;
  /** How long the user has to come back, in milliseconds. */
  readonly ttlMs: number;
}

/** The store key of the pending authorization with `state`. */
export function pendingKey(state: string): string {
  return `pending:${state}`;
}

/**
 * A fresh authorization request at `target`'s authorization endpoint: its URL (PKCE S256
 * challenge, random state, the `resource` indicator) and the pending authorization to store.
 */
export async function authorizationRequest(target: AuthorizationTarget, input: AuthorizationRequestInput): Promise<{ url: URL; pending: PendingAuthorization }> {
  const pkce = await createPkcePair();
  const state = randomToken(24);
  const url = new URL(target.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', input.client.client_id);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('code_challenge', pkce.challenge);
  url.searchParams.set('code_challenge_method', pkce.method);
  url.searchParams.set('state', state);
  if (input.scope !== undefined) url.searchParams.set('scope', input.scope);
  url.searchParams.set('resource', target.resource);
  const pending: PendingAuthorization = {
    state,
    verifier: pkce.verifier,
    issuer: target.issuer,
    issParameterSupported: target.metadata?.authorization_response_iss_parameter_supported === true,
    resource: target.resource,
    redirectUri: input.redirectUri,
    scope: input.scope,
    client: input.client,
    method: input.method,
    tokenEndpoint: target.tokenEndpoint,
    expiresAt: Date.now() + input.ttlMs,
  };
  return { url, pending };
}

/**
 * The unexpired pending authorization a redirect URL answers, found by its `state`. An expired
 * one is removed and refused.
 */
export async function pendingAuthorizationFor(store: OAuthStore, callback: URL): Promise<PendingAuthorization> {
  const state = callback.searchParams.get('state');
  const pending = state === null ? undefined : ((await store.get(pendingKey(state))) as PendingAuthorization | undefined);
  if (pending === undefined) throw new SdkError('AUTHORIZATION_FAILED', 'The authorization response matches no authorization in progress (unknown state)');
  if (!(typeof pending.expiresAt === 'number' && pending.expiresAt > Date.now())) {
    await store.delete(pendingKey(pending.state));
    throw new SdkError('AUTHORIZATION_FAILED', 'The authorization response arrived after the authorization it answers expired; start a new one');
  }
  return pending;
}

/** How the code exchange reaches the token endpoint. */
export interface CodeExchangeOptions {
  readonly dpop: DpopProver | undefined;
  readonly fetch: FetchLike;
  readonly signal: AbortSignal | undefined;
}

/**
 * Validates the authorization response (state, then `iss`, then errors), removes the pending
 * authorization once the state matched, and exchanges the code for tokens.
 */
export async function redeemAuthorizationResponse(pending: PendingAuthorization, callback: URL, store: OAuthStore, options: CodeExchangeOptions): Promise<OAuthTokens> {
  const params = callback.searchParams;
  if (params.get('state') !== pending.state) {
    throw new SdkError('AUTHORIZATION_FAILED', 'The authorization response carries a state that does not match the request; it is not the answer to this authorization');
  }
  await store.delete(pendingKey(pending.state));
  // RFC 9207: a present iss is compared by simple string comparison, an absent one is refused only where advertised.
  const iss = params.get('iss');
  if (iss !== null ? iss !== pending.issuer : pending.issParameterSupported) {
    throw new SdkError('AUTHORIZATION_FAILED', iss === null
      ? `The authorization response lacks the iss parameter that ${pending.issuer} advertises`
      : `The authorization response comes from issuer ${JSON.stringify(iss)}, not from ${JSON.stringify(pending.issuer)}`);
  }
  const error = params.get('error');
  if (error !== null) throw new OAuthError(error, params.get('error_description') ?? undefined);
  const code = params.get('code');
  if (code === null) throw new SdkError('AUTHORIZATION_FAILED', 'The authorization response carries no code');
  try {
    return await requestToken({
      endpoint: pending.tokenEndpoint,
      params: { grant_type: 'authorization_code', code, redirect_uri: pending.redirectUri, code_verifier: pending.verifier, resource: pending.resource },
      client: pending.client,
      method: pending.method,
      dpop: options.dpop,
      fetch: options.fetch,
      signal: options.signal,
    });
  } catch (cause) {
    throw cause instanceof OAuthError || cause instanceof SdkError ? cause : new SdkError('AUTHORIZATION_FAILED', `The token exchange failed: ${messageOf(cause)}`, { cause });
  }
}
