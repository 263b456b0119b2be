/**
 * Requests to an authorization server's token and registration endpoints, with client
 * authentication (`client_secret_basic`, `client_secret_post`, `none`, `private_key_jwt`).
 */
import { SdkError, messageOf } from '../../core/errors.js';
import { isJsonObject } from '../../core/jsonrpc.js';
import type { FetchLike } from '../../transports/http/client-request.js';
import { importPrivateKeyPem, randomToken, signJwt, type JwsAlgorithm } from './crypto.js';
import type { DpopProver } from './dpop.js';
import { OAuthError, type AuthorizationServerMetadata, type OAuthClientInformation, type OAuthClientMetadata, type OAuthTokens, type TokenEndpointAuthMethod } from './types.js';
import { readBoundedText } from '../../transports/http/client-limits.js';
import { MAX_OAUTH_RESPONSE_BYTES } from './discovery.js';

const KNOWN_METHODS: readonly string[] = ['client_secret_basic', 'client_secret_post', 'none', 'private_key_jwt'];

/**
 * How to authenticate `client` at the token endpoint: the method it was registered with when
 * known, `none` without a secret, otherwise Basic unless the server lists only POST (RFC 8414
 * makes Basic the default when the server lists nothing).
 */
export function chooseAuthMethod(client: OAuthClientInformation, metadata: AuthorizationServerMetadata | undefined): TokenEndpointAuthMethod {
  const registered = client.token_endpoint_auth_method;
  if (registered !== undefined && KNOWN_METHODS.includes(registered)) return registered as TokenEndpointAuthMethod;
  if (client.client_secret === undefined) return 'none';
  const supported = metadata?.token_endpoint_auth_methods_supported;
  if (supported === undefined || supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'client_secret_basic';
}

/** The key material for `private_key_jwt`. */
export interface AssertionSigner {
  readonly key: string | CryptoKey;
  readonly algorithm: JwsAlgorithm;
  /** The `aud` of the assertion: the authorization server's issuer. */
  readonly audience: string;
}

/** Form encoding of one value (RFC 6749 Appendix B), applied before Basic credentials are joined. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** A token endpoint request. */
export interface TokenRequest {
  readonly endpoint: string;
  /** The grant's parameters (`grant_type`, `code`, `resource`, …). */
  readonly params: Readonly<Record<string, string | undefined>>;
  /** The authenticating client; undefined sends no client authentication (e.g. a workload's `jwt-bearer` grant). */
  readonly client: OAuthClientInformation | undefined;
  readonly method: TokenEndpointAuthMethod;
  readonly signer?: AssertionSigner | undefined;
  /** Sends a DPoP proof (RFC 9449 §5), to obtain a DPoP-bound token. */
  readonly dpop?: DpopProver | undefined;
  readonly fetch: FetchLike;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Sends a token request and returns the token response. With `dpop`, a `use_dpop_nonce` refusal
 * that supplies a new nonce is answered once more with a proof carrying it (RFC 9449 §8).
 * Rejects with an {@link OAuthError} when the server answers with an OAuth error, and with
 * SdkError('AUTHORIZATION_FAILED') when the exchange fails otherwise.
 */
export async function requestToken(request: TokenRequest): Promise<OAuthTokens> {
  const { dpop } = request;
  for (let attempt = 0; ; attempt++) {
    const init = await tokenRequestInit(request);
    const nonce = { changed: false };
    const observe = dpop === undefined ? undefined : (response: Response): void => void (nonce.changed = dpop.observe(request.endpoint, response));
    let value: Record<string, unknown>;
    try {
      value = await postForJson(request.fetch, request.endpoint, init, request.signal, 'token', observe);
    } catch (error) {
      if (attempt === 0 && nonce.changed && error instanceof OAuthError && error.error === 'use_dpop_nonce') continue;
      throw error;
    }
    if (typeof value.access_token !== 'string' || typeof value.token_type !== 'string') {
      throw new SdkError('AUTHORIZATION_FAILED', `The token endpoint ${request.endpoint} answered without access_token or token_type`);
    }
    return value as OAuthTokens;
  }
}

/** The body and headers of one token request; built anew for a retry, since assertions and proofs are single-use. */
async function tokenRequestInit(request: TokenRequest): Promise<RequestInit> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(request.params)) if (value !== undefined) body.set(name, value);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const { client } = request;
  if (client !== undefined) {
    switch (request.method) {
      case 'client_secret_basic':
        headers.authorization = `Basic ${btoa(`${formEncode(client.client_id)}:${formEncode(client.client_secret ?? '')}`)}`;
        break;
      case 'client_secret_post':
        body.set('client_id', client.client_id);
        body.set('client_secret', client.client_secret ?? '');
        break;
      case 'none':
        body.set('client_id', client.client_id);
        break;
      case 'private_key_jwt': {
        const signer = request.signer;
        if (signer === undefined) throw new SdkError('INVALID_ARGUMENT', 'private_key_jwt needs a private key');
        const key = typeof signer.key === 'string' ? await importPrivateKeyPem(signer.key, signer.algorithm) : signer.key;
        const now = Math.floor(Date.now() / 1000);
        const claims = { iss: client.client_id, sub: client.client_id, aud: signer.audience, iat: now, exp: now + 300, jti: randomToken(16) };
        body.set('client_id', client.client_id);
        body.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
        body.set('client_assertion', await signJwt(claims, key, signer.algorithm));
        break;
      }
    }
  }
  if (request.dpop !== undefined) headers.dpop = await request.dpop.proof({ method: 'POST', url: request.endpoint });
  return { method: 'POST', headers, body: body.toString() };
}

/** Registers a client with Dynamic Client Registration (RFC 7591) and returns its identity. */
export async function registerClient(fetchImpl: FetchLike, endpoint: string, metadata: OAuthClientMetadata, signal?: AbortSignal): Promise<OAuthClientInformation> {
  const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(metadata) };
  const value = await postForJson(fetchImpl, endpoint, init, signal, 'registration');
  if (typeof value.client_id !== 'string') throw new SdkError('AUTHORIZATION_FAILED', `The registration endpoint ${endpoint} answered without a client_id`);
  return value as OAuthClientInformation;
}

/**
 * POSTs to an authorization server endpoint and reads the JSON answer. Redirects are refused
 * (`redirect: 'error'`, and any 3xx a fetch hands back anyway): a 307 or 308 would re-send the
 * client secret, the code verifier or the refresh token to wherever the Location points.
 */
async function postForJson(fetchImpl: FetchLike, endpoint: string, init: RequestInit, signal: AbortSignal | undefined, what: string, observe?: (response: Response) => void): Promise<Record<string, unknown>> {
  let response: Response;
  const request: RequestInit = { ...init, redirect: 'error', ...(signal === undefined ? {} : { signal }) };
  try {
    response = await fetchImpl(new URL(endpoint), request);
  } catch (error) {
    throw new SdkError('AUTHORIZATION_FAILED', `The ${what} request to ${endpoint} failed: ${messageOf(error)}`, { cause: error });
  }
  if ((response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect') {
    await response.body?.cancel().catch(() => undefined);
    throw new SdkError('AUTHORIZATION_FAILED', `The ${what} endpoint ${endpoint} answered with a redirect (HTTP ${response.status}); OAuth requests do not follow redirects`);
  }
  observe?.(response);
  const body = await readBoundedText(response, MAX_OAUTH_RESPONSE_BYTES).catch(() => ({ text: '', overflow: undefined }));
  if (body.overflow !== undefined) throw new SdkError('AUTHORIZATION_FAILED', `The ${what} endpoint ${endpoint} answered with more than ${MAX_OAUTH_RESPONSE_BYTES} bytes`);
  const text = body.text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!response.ok) {
    if (isJsonObject(value) && typeof value.error === 'string') {
      throw new OAuthError(value.error, typeof value.error_description === 'string' ? value.error_description : undefined, response.status);
    }
    throw new SdkError('AUTHORIZATION_FAILED', `The ${what} endpoint ${endpoint} answered HTTP ${response.status}`);
  }
  if (!isJsonObject(value)) throw new SdkError('AUTHORIZATION_FAILED', `The ${what} endpoint ${endpoint} answered with something other than a JSON object`);
  return value;
}
