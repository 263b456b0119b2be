/**
 * The resource-server side of MCP authorization for mcpgen's HTTP handler: bearer tokens are
 * checked by a pluggable verifier (audience, expiry, scopes), refusals carry the
 * `WWW-Authenticate` challenges clients act on, the Protected Resource Metadata document
 * (RFC 9728) is served, and the verified {@link AuthInfo} reaches handlers through
 * `context.extra.authInfo`.
 */
import { asError, SdkError } from '../../core/errors.js';
import type { HttpReply, HttpRequestView } from '../../transports/http/http-types.js';
import { formatBearerChallenge } from './challenge.js';
import { DPOP_ALGORITHMS, InvalidDpopProofError, verifyDpopProof, type VerifiedDpopProof } from './dpop.js';
import { DEFAULT_DPOP_REPLAY_CACHE_ENTRIES, ReplayCache } from './replay-cache.js';
import type { AuthInfo, ProtectedResourceMetadata } from './types.js';

const PRM_WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * Thrown by a verifier for a token that is not valid (unknown, revoked, malformed): answered
 * with 401 `invalid_token` and the message as `error_description`.
 *
 * @example
 * ```ts
 * import { InvalidTokenError, type TokenVerifier } from 'mcpgen/auth';
 *
 * const revoked = new Set<string>();
 * const verifier: TokenVerifier = {
 *   async verifyAccessToken(token) {
 *     if (revoked.has(token)) throw new InvalidTokenError('The token was revoked');
 *     return { token, scopes: ['files:read'], resource: 'https://files.example.com/mcp' };
 *   },
 * };
 * ```
 */
export class InvalidTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidTokenError';
  }
}

/**
 * Checks access tokens. Resolve the token's {@link AuthInfo}; resolve undefined or throw
 * {@link InvalidTokenError} for an invalid token. Introspection (RFC 7662) and local JWT
 * validation both fit; the guard itself then checks audience, expiry and scopes.
 *
 * @example
 * ```ts
 * import type { TokenVerifier } from 'mcpgen/auth';
 *
 * const verifier: TokenVerifier = {
 *   async verifyAccessToken(token) {
 *     const answer = await fetch('https://as.example.com/introspect', { method: 'POST', body: new URLSearchParams({ token }) });
 *     const claims = (await answer.json()) as { active: boolean; scope?: string; exp?: number; aud?: string; client_id?: string };
 *     if (!claims.active) return undefined;
 *     return { token, scopes: claims.scope?.split(' ') ?? [], expiresAt: claims.exp, resource: claims.aud, clientId: claims.client_id };
 *   },
 * };
 * ```
 */
export interface TokenVerifier {
  verifyAccessToken(token: string): Promise<AuthInfo | undefined>;
}

/** Options of {@link createBearerGuard} (and the `auth` option of `createMcpHttpHandler`). */
export interface BearerAuthOptions {
  readonly verifier: TokenVerifier;
  /** This MCP server's canonical URI: tokens must have been issued for it (RFC 8707 audience). */
  readonly resource: string | URL;
  /** Issuer identifiers of the authorization servers whose tokens this server accepts. */
  readonly authorizationServers: readonly string[];
  /** Scopes every request needs; a token lacking one gets 403 `insufficient_scope`. */
  readonly requiredScopes?: readonly string[] | undefined;
  /** `scopes_supported` of the metadata (default: `requiredScopes`). */
  readonly scopesSupported?: readonly string[] | undefined;
  /** More members of the Protected Resource Metadata (`resource_name`, `resource_documentation`…). */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Refuse tokens whose verifier reports no `resource` (default true): without an audience
   * the server cannot tell a token meant for it from one meant for another resource.
   */
  readonly requireAudience?: boolean | undefined;
  /**
   * Accept DPoP-bound tokens (RFC 9449, SEP-1932): `true` or options. Tokens presented with the
   * `DPoP` scheme need a valid, fresh proof signed by the key the verifier reports in
   * `confirmation.jkt`, and a bound token presented as Bearer is refused.
   */
  readonly dpop?: boolean | DpopGuardOptions | undefined;
}

/** DPoP on the resource server (the `dpop` option of {@link BearerAuthOptions}). */
export interface DpopGuardOptions {
  /** Refuse Bearer tokens: every token must be DPoP-bound and come with a proof (default false). */
  readonly required?: boolean | undefined;
  /**
   * The nonce proofs must carry (RFC 9449 §9), e.g. a value that changes every few minutes;
   * proofs without it are refused with `use_dpop_nonce` and the nonce. Default: no nonce.
   */
  nonce?(): string | Promise<string>;
  /** How far a proof's `iat` may be from now, in seconds (default 300); proof ids are remembered that long to refuse replays. */
  readonly maxAgeSeconds?: number | undefined;
  /**
   * The most proof ids remembered for replay checks (default 100,000, about 10 MB). Only proofs
   * that came with a valid token are remembered; when full, the id closest to expiry is dropped.
   */
  readonly maxReplayEntries?: number | undefined;
}

/** What the guard decided about one request. */
export type GuardOutcome =
  /** Answer with this reply (metadata, or a refusal). */
  | { readonly reply: HttpReply }
  /** Go on with this request, which carries the verified `authInfo`. */
  | { readonly request: HttpRequestView };

/** The bearer check of an MCP HTTP endpoint; see {@link createBearerGuard}. */
export interface BearerGuard {
  /** The absolute URL of the Protected Resource Metadata document. */
  readonly metadataUrl: string;
  /** The Protected Resource Metadata document. */
  readonly metadata: ProtectedResourceMetadata;
  /** Serves the metadata, refuses requests without a valid token, and lets the rest through with their `authInfo`. */
  check(request: HttpRequestView): Promise<GuardOutcome>;
  /** How many DPoP proof ids the replay check remembers now (0 without `dpop`), for monitoring. */
  readonly dpopReplayEntries: number;
}

/** Two resource identifiers name the same resource when they differ at most by a trailing slash. */
function sameResource(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

/** How a guard challenges: Bearer, DPoP or both, and the DPoP nonce it hands out. */
interface ChallengeSchemes {
  readonly bearer: boolean;
  readonly dpop: boolean;
  readonly nonce?: string | undefined;
}

const BEARER_ONLY: ChallengeSchemes = { bearer: true, dpop: false };

/**
 * A refusal; `error` is omitted for requests that carried no credentials at all (RFC 6750 §3.1),
 * and goes into the challenge of the scheme the request used (`errorScheme`).
 */
function refusal(status: 401 | 403, challenge: Record<string, string | undefined>, error: string | undefined, description: string, schemes: ChallengeSchemes = BEARER_ONLY, errorScheme: 'bearer' | 'dpop' = 'bearer'): HttpReply {
  const errorParams = { error, error_description: error === undefined ? undefined : description };
  const challenges: string[] = [];
  if (schemes.bearer) challenges.push(formatBearerChallenge({ ...(errorScheme === 'bearer' ? errorParams : {}), ...challenge }));
  if (schemes.dpop) {
    const params = formatBearerChallenge({ algs: DPOP_ALGORITHMS.join(' '), ...(errorScheme === 'dpop' ? errorParams : {}), ...challenge });
    challenges.push(`DPoP${params.slice('Bearer'.length)}`);
  }
  return {
    kind: 'body',
    status,
    headers: {
      'content-type': 'application/json',
      'www-authenticate': challenges.join(', '),
      ...(schemes.nonce !== undefined ? { 'dpop-nonce': schemes.nonce } : {}),
    },
    body: JSON.stringify({ error: error ?? 'invalid_request', error_description: description }),
  };
}

/** A view of `request` that also carries `authInfo`. */
function withAuthInfo(request: HttpRequestView, authInfo: AuthInfo): HttpRequestView {
  return {
    method: request.method,
    path: request.path,
    query: request.query,
    header: (name) => request.header(name),
    readBody: (maxBytes, budget) => request.readBody(maxBytes, budget),
    signal: request.signal,
    localAddress: request.localAddress,
    authInfo,
  };
}

/**
 * Creates the bearer check of an MCP HTTP endpoint. `GET /.well-known/oauth-protected-resource<path of resource>`
 * answers with the metadata; every other request needs `Authorization: Bearer <token>` (or,
 * with `dpop` on, `Authorization: DPoP <token>` and a DPoP proof), refused with 401 and a
 * challenge naming the metadata URL and the required scope when it is missing, invalid, expired
 * or for another resource, and with 403 `insufficient_scope` when it lacks a required scope.
 *
 * @example
 * ```ts
 * import { createMcpHttpHandler, McpServer } from 'mcpgen';
 * import type { TokenVerifier } from 'mcpgen/auth';
 *
 * declare const verifier: TokenVerifier;
 * const mcp = new McpServer({ name: 'files', version: '1.0.0' });
 * const http = createMcpHttpHandler({
 *   server: () => mcp.createServer(),
 *   auth: { verifier, resource: 'https://files.example.com/mcp', authorizationServers: ['https://as.example.com'], requiredScopes: ['files:read'] },
 * });
 * ```
 */
export function createBearerGuard(options: BearerAuthOptions): BearerGuard {
  const resourceUrl = new URL(options.resource);
  const resource = String(options.resource);
  const path = resourceUrl.pathname.replace(/\/$/, '');
  const metadataPath = `${PRM_WELL_KNOWN}${path}`;
  const metadataUrl = `${resourceUrl.origin}${metadataPath}`;
  const required = options.requiredScopes ?? [];
  const scopesSupported = options.scopesSupported ?? (required.length > 0 ? required : undefined);
  const metadata: ProtectedResourceMetadata = {
    ...options.metadata,
    resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ['header'],
    ...(scopesSupported !== undefined ? { scopes_supported: [...scopesSupported] } : {}),
  };
  const scope = required.length > 0 ? required.join(' ') : undefined;
  const challenge = { scope, resource_metadata: metadataUrl };
  const dpop = options.dpop === undefined || options.dpop === false ? undefined : options.dpop === true ? {} : options.dpop;
  const maxAgeSeconds = dpop?.maxAgeSeconds ?? 300;
  const maxReplayEntries = dpop?.maxReplayEntries ?? DEFAULT_DPOP_REPLAY_CACHE_ENTRIES;
  if (!(Number.isSafeInteger(maxReplayEntries) && maxReplayEntries > 0)) throw new SdkError('INVALID_ARGUMENT', `dpop.maxReplayEntries must be a positive integer, not ${String(maxReplayEntries)}`);
  // A proof is fresh for maxAgeSeconds either side of its iat, so a replay can pass for twice that.
  const seenProofs = new ReplayCache(maxReplayEntries, 2 * maxAgeSeconds * 1000);
  const authorization = dpop === undefined ? /^(Bearer)[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i : /^(Bearer|DPoP)[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i;

  const check = async (request: HttpRequestView): Promise<GuardOutcome> => {
    if (request.path === metadataPath && (request.method === 'GET' || request.method === 'HEAD')) {
      return { reply: { kind: 'body', status: 200, headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' }, body: JSON.stringify(metadata) } };
    }
    const nonce = await dpop?.nonce?.();
    const schemes: ChallengeSchemes = dpop === undefined ? BEARER_ONLY : { bearer: dpop.required !== true, dpop: true, nonce };
    const header = request.header('authorization');
    const match = header === undefined ? null : authorization.exec(header);
    if (match === null) {
      return { reply: header === undefined ? refusal(401, challenge, undefined, 'Missing Authorization header', schemes) : refusal(401, challenge, 'invalid_request', 'Malformed Authorization header', schemes) };
    }
    const scheme = match[1]!.toLowerCase() === 'dpop' ? 'dpop' : 'bearer';
    const token = match[2]!;
    const unauthorized = (description: string, error = 'invalid_token'): GuardOutcome => ({ reply: refusal(401, challenge, error, description, schemes, scheme) });
    if (scheme === 'bearer' && !schemes.bearer) return unauthorized('This server accepts DPoP-bound tokens only');
    let proof: VerifiedDpopProof | undefined;
    if (scheme === 'dpop') {
      const proofHeader = request.header('dpop');
      if (proofHeader === undefined || proofHeader.includes(',')) return unauthorized('The request needs exactly one DPoP proof', 'invalid_dpop_proof');
      try {
        proof = await verifyDpopProof(proofHeader, { method: request.method, url: `${resourceUrl.origin}${request.path}`, accessToken: token, nonce, maxAgeSeconds });
      } catch (error) {
        if (!(error instanceof InvalidDpopProofError)) throw asError(error);
        return unauthorized(error.message, error.nonce ? 'use_dpop_nonce' : 'invalid_dpop_proof');
      }
    }
    let info: AuthInfo | undefined;
    try {
      info = await options.verifier.verifyAccessToken(token);
    } catch (error) {
      if (error instanceof InvalidTokenError) return unauthorized(error.message);
      throw asError(error);
    }
    if (info === undefined) return unauthorized('Invalid access token');
    const boundTo = info.confirmation?.jkt;
    if (proof !== undefined && boundTo !== proof.jkt) return unauthorized(boundTo === undefined ? 'The token is not DPoP-bound' : 'The token is bound to another key than the DPoP proof\'s');
    if (proof === undefined && boundTo !== undefined) return unauthorized('A DPoP-bound token needs the DPoP scheme and a proof');
    if (info.resource === undefined ? options.requireAudience !== false : !sameResource(info.resource, resource)) {
      return unauthorized(info.resource === undefined ? 'The token names no audience' : `The token was issued for ${info.resource}, not for this server`);
    }
    if (info.expiresAt !== undefined && info.expiresAt * 1000 <= Date.now()) return unauthorized('The token has expired');
    // Only now, with the token and the proof verified, is the proof id worth remembering.
    if (proof !== undefined && !seenProofs.use(`${proof.jkt}.${proof.jti}`, Date.now())) return unauthorized('The DPoP proof was used before', 'invalid_dpop_proof');
    const missing = required.filter((needed) => !info.scopes.includes(needed));
    if (missing.length > 0) {
      return { reply: refusal(403, challenge, 'insufficient_scope', `The token lacks the scope ${missing.join(' ')}`, schemes, scheme) };
    }
    return { request: withAuthInfo(request, info) };
  };
  return {
    metadataUrl,
    metadata,
    check,
    get dpopReplayEntries() {
      return seenProofs.size;
    },
  };
}

/**
 * The verified credentials of the request a handler serves, when the endpoint checks bearer
 * tokens.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { authInfoOf } from 'mcpgen/auth';
 *
 * const mcp = new McpServer({ name: 'files', version: '1.0.0' });
 * mcp.registerTool('whoami', {}, (_args, context) => ({
 *   content: [{ type: 'text', text: authInfoOf(context)?.subject ?? 'anonymous' }],
 * }));
 * ```
 */
export function authInfoOf(context: { readonly extra?: { readonly authInfo?: unknown } | undefined }): AuthInfo | undefined {
  const info = context.extra?.authInfo;
  if (typeof info !== 'object' || info === null || typeof (info as AuthInfo).token !== 'string') return undefined;
  return info as AuthInfo;
}
