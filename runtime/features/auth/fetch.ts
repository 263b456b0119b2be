/**
 * OAuth as fetch middleware: any HTTP transport that takes a `fetch` gets authorization by
 * wrapping it.
 */
import type { FetchLike } from '../../transports/http/client-request.js';
import { OAuthAuthorizer } from './authorizer.js';
import { bearerChallengeOf, type BearerChallenge } from './challenge.js';
import { dpopChallengeOf, isDpopTokenType } from './dpop.js';
import type { OAuthClientProvider } from './provider.js';

/** Default limit on step-up authorizations for one request. */
export const DEFAULT_MAX_STEP_UPS = 2;

/** Options of {@link withOAuth}. */
export interface WithOAuthOptions {
  /**
   * The MCP server the tokens are for (its URL, as the transport uses it). Default: the URL of
   * each request without query and fragment.
   */
  readonly serverUrl?: string | URL | undefined;
  /** How many times one request may step up its scope after 403 `insufficient_scope` (default 2). */
  readonly maxStepUps?: number | undefined;
  /** The fetch for the OAuth requests themselves (default: the wrapped fetch). */
  readonly authFetch?: FetchLike | undefined;
}

/** A fetch wrapper with its authorizers, for callers that need to finish or inspect authorization. */
export interface OAuthFetch extends FetchLike {
  /** The authorizer of the server at `url` (created on first use). */
  authorizerFor(url: string | URL): OAuthAuthorizer;
}

/**
 * Wraps `fetch` so that every request carries the server's access token
 * (`Authorization: Bearer`), and so that a 401 runs refresh or authorization and a 403
 * `insufficient_scope` runs a step-up authorization, each followed by one retry of the request.
 * A request that is refused again gets the refusal as its response. With the provider's `dpop`
 * on, DPoP-bound tokens go as `Authorization: DPoP` with a fresh proof, and a 401
 * `use_dpop_nonce` is retried once with the server's nonce.
 *
 * @example
 * ```ts
 * import { Client, StreamableHttpClientTransport } from 'mcpgen';
 * import { withOAuth, type OAuthClientProvider } from 'mcpgen/auth';
 *
 * declare const provider: OAuthClientProvider;
 * const transport = new StreamableHttpClientTransport('https://mcp.example.com/mcp', {
 *   fetch: withOAuth((url, init) => fetch(url, init), provider),
 * });
 * await new Client({ name: 'host', version: '1.0.0' }).connect(transport);
 * ```
 */
export function withOAuth(fetchImpl: FetchLike, provider: OAuthClientProvider, options: WithOAuthOptions = {}): OAuthFetch {
  const maxStepUps = options.maxStepUps ?? DEFAULT_MAX_STEP_UPS;
  const authorizers = new Map<string, OAuthAuthorizer>();
  const authorizerFor = (url: string | URL): OAuthAuthorizer => {
    const target = new URL(options.serverUrl ?? url);
    target.search = '';
    target.hash = '';
    let authorizer = authorizers.get(target.href);
    if (authorizer === undefined) {
      authorizer = new OAuthAuthorizer(target, provider, { fetch: options.authFetch ?? fetchImpl });
      authorizers.set(target.href, authorizer);
    }
    return authorizer;
  };
  const wrapped = async (url: URL, init: RequestInit): Promise<Response> => {
    const authorizer = authorizerFor(url);
    const signal = init.signal ?? undefined;
    const { dpop } = authorizer;
    const challengeOf = (response: Response): BearerChallenge | undefined => bearerChallengeOf(response) ?? (dpop === undefined ? undefined : dpopChallengeOf(response));
    let unauthorized = 0;
    let stepUps = 0;
    let nonceRetried = false;
    for (;;) {
      const token = await authorizer.accessToken(signal);
      const headers = new Headers(init.headers);
      const bound = token !== undefined && dpop !== undefined && isDpopTokenType((await authorizer.tokens())?.tokens.token_type);
      if (bound) {
        headers.set('authorization', `DPoP ${token}`);
        headers.set('dpop', await dpop.proof({ method: init.method ?? 'GET', url, accessToken: token }));
      } else if (token !== undefined) {
        headers.set('authorization', `Bearer ${token}`);
      }
      const response = await fetchImpl(url, { ...init, headers });
      // RFC 9449 §9: a resource server that wants a (new) nonce refuses with use_dpop_nonce and supplies it.
      const newNonce = dpop?.observe(url, response) === true;
      if (response.status === 401 && bound && newNonce && !nonceRetried && dpopChallengeOf(response)?.error === 'use_dpop_nonce') {
        nonceRetried = true;
        await response.body?.cancel().catch(() => undefined);
        continue;
      }
      if (response.status === 401 && unauthorized < 2) {
        unauthorized++;
        await response.body?.cancel().catch(() => undefined);
        await authorizer.handleUnauthorized(challengeOf(response), token, unauthorized > 1, signal);
        continue;
      }
      const challenge = response.status === 403 ? challengeOf(response) : undefined;
      if (challenge?.error === 'insufficient_scope' && stepUps < maxStepUps) {
        stepUps++;
        if (await authorizer.handleInsufficientScope(challenge, token, signal)) {
          await response.body?.cancel().catch(() => undefined);
          continue;
        }
      }
      return response;
    }
  };
  return Object.assign(wrapped, { authorizerFor });
}
