/**
 * DPoP (RFC 9449, MCP's SEP-1932 extension) for the OAuth client: sender-constrained access
 * tokens. The client holds an asymmetric key pair, proves possession of it with a fresh signed
 * proof on every token request and every request to the MCP server, and the tokens it obtains
 * are bound to the key, so a stolen token is useless without it. WebCrypto only.
 */
import { SdkError } from '../../core/errors.js';
import type { BearerChallenge } from './challenge.js';
import { parseChallenges } from './challenge.js';
import { randomToken, sha256Base64Url, signJwt, type JwsAlgorithm } from './crypto.js';

/** Options of DPoP, the `dpop` member of an `OAuthClientProvider`. */
export interface DpopOptions {
  /**
   * The key pair that proofs are signed with (ECDSA P-256 or P-384, RSASSA-PKCS1-v1_5 or
   * RSA-PSS with SHA-256). Default: an ES256 pair generated once per provider, whose private
   * key cannot be exported. Tokens are bound to the key, so an application that keeps tokens
   * across restarts (a file store) passes a key it keeps too (e.g. a non-extractable
   * `CryptoKeyPair` in IndexedDB); otherwise the server refuses the stored tokens after a
   * restart and the client obtains new ones.
   */
  readonly keyPair?: CryptoKeyPair | Promise<CryptoKeyPair> | undefined;
}

/** What a DPoP proof is for (RFC 9449 §4.2). */
export interface DpopProofClaims {
  /** The HTTP method of the request (`htm`). */
  readonly method: string;
  /** The request URL; query and fragment are left out of `htu`. */
  readonly url: string | URL;
  /** The access token the request presents; its hash goes into `ath`. */
  readonly accessToken?: string | undefined;
  /** The nonce the server supplied, if it did. */
  readonly nonce?: string | undefined;
}

/**
 * Generates a DPoP key pair: ECDSA P-256 (ES256), the private key not extractable.
 *
 * @example
 * ```ts
 * import { generateDpopKeyPair } from 'mcpgen/auth';
 *
 * const keyPair = await generateDpopKeyPair();
 * ```
 */
export async function generateDpopKeyPair(): Promise<CryptoKeyPair> {
  return await globalThis.crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
}

/** The JWS algorithm of a WebCrypto key, among those DPoP proofs are signed with. */
function algorithmOf(key: CryptoKey): JwsAlgorithm {
  const algorithm = key.algorithm as { name: string; namedCurve?: string; hash?: { name: string } };
  if (algorithm.name === 'ECDSA' && algorithm.namedCurve === 'P-256') return 'ES256';
  if (algorithm.name === 'ECDSA' && algorithm.namedCurve === 'P-384') return 'ES384';
  if (algorithm.name === 'RSASSA-PKCS1-v1_5' && algorithm.hash?.name === 'SHA-256') return 'RS256';
  if (algorithm.name === 'RSA-PSS' && algorithm.hash?.name === 'SHA-256') return 'PS256';
  throw new SdkError('INVALID_ARGUMENT', `A DPoP key must be ECDSA P-256 or P-384, or RSA with SHA-256; got ${algorithm.name}`);
}

/** The public members of a JWK (RFC 7518 §6), in the order RFC 7638 thumbprints use. */
function publicMembers(jwk: JsonWebKey): Record<string, string> {
  if (jwk.kty === 'EC') return { crv: jwk.crv!, kty: 'EC', x: jwk.x!, y: jwk.y! };
  if (jwk.kty === 'RSA') return { e: jwk.e!, kty: 'RSA', n: jwk.n! };
  throw new SdkError('INVALID_ARGUMENT', `A DPoP key must be an EC or RSA key; got ${String(jwk.kty)}`);
}

/** The URL of a request as `htu` carries it: without query and fragment. */
export function dpopTargetUri(url: string | URL): string {
  const target = new URL(url);
  target.search = '';
  target.hash = '';
  return target.href;
}

/**
 * Signs DPoP proofs with one key pair and remembers the nonces servers supplied (by origin),
 * so that each proof carries the nonce of the server it goes to.
 *
 * @example
 * ```ts
 * import { DpopProver } from 'mcpgen/auth';
 *
 * const prover = new DpopProver();
 * const proof = await prover.proof({ method: 'POST', url: 'https://as.example.com/token' });
 * await fetch('https://as.example.com/token', { method: 'POST', headers: { dpop: proof }, body: new URLSearchParams({ grant_type: 'client_credentials' }) });
 * ```
 */
export class DpopProver {
  private readonly keyPair: Promise<CryptoKeyPair>;
  private publicJwk: Promise<Record<string, string>> | undefined;
  private readonly nonces = new Map<string, string>();

  constructor(options: DpopOptions = {}) {
    this.keyPair = Promise.resolve(options.keyPair ?? generateDpopKeyPair());
    // A failed key generation surfaces at the first proof, not as an unhandled rejection.
    this.keyPair.catch(() => undefined);
  }

  private async jwk(): Promise<Record<string, string>> {
    this.publicJwk ??= this.keyPair.then(async ({ publicKey }) => publicMembers(await globalThis.crypto.subtle.exportKey('jwk', publicKey)));
    return await this.publicJwk;
  }

  /** The JWK SHA-256 thumbprint of the public key (RFC 7638), which bound tokens carry as `cnf.jkt`. */
  async thumbprint(): Promise<string> {
    return await sha256Base64Url(JSON.stringify(await this.jwk()));
  }

  /** The nonce last supplied by the server at `url`'s origin, if any. */
  nonceFor(url: string | URL): string | undefined {
    return this.nonces.get(new URL(url).origin);
  }

  /**
   * Records the `DPoP-Nonce` a response from `url` carries (RFC 9449 §8, §9). Returns true when
   * it is new, so that a request refused with `use_dpop_nonce` is worth retrying.
   */
  observe(url: string | URL, response: Response): boolean {
    const nonce = response.headers.get('dpop-nonce');
    if (nonce === null || nonce === '') return false;
    const origin = new URL(url).origin;
    if (this.nonces.get(origin) === nonce) return false;
    this.nonces.set(origin, nonce);
    return true;
  }

  /** A fresh proof for one request; the server's nonce is used unless `claims.nonce` is given. */
  async proof(claims: DpopProofClaims): Promise<string> {
    const { privateKey } = await this.keyPair;
    const algorithm = algorithmOf(privateKey);
    const nonce = claims.nonce ?? this.nonceFor(claims.url);
    const payload = {
      jti: randomToken(16),
      htm: claims.method.toUpperCase(),
      htu: dpopTargetUri(claims.url),
      iat: Math.floor(Date.now() / 1000),
      ...(claims.accessToken !== undefined ? { ath: await sha256Base64Url(claims.accessToken) } : {}),
      ...(nonce !== undefined ? { nonce } : {}),
    };
    return await signJwt(payload, privateKey, algorithm, { typ: 'dpop+jwt', jwk: await this.jwk() });
  }
}

const provers = new WeakMap<object, DpopProver>();

/**
 * The prover of a provider with DPoP switched on (`dpop: true` or options), one per provider
 * object so that every server it authorizes, and every token it stores, shares one key.
 */
export function dpopProverFor(provider: { readonly dpop?: boolean | DpopOptions | undefined }): DpopProver | undefined {
  const { dpop } = provider;
  if (dpop === undefined || dpop === false) return undefined;
  let prover = provers.get(provider);
  if (prover === undefined) {
    prover = new DpopProver(dpop === true ? {} : dpop);
    provers.set(provider, prover);
  }
  return prover;
}

/** Whether a token response's `token_type` says the token is DPoP-bound. */
export function isDpopTokenType(tokenType: string | undefined): boolean {
  return tokenType?.toLowerCase() === 'dpop';
}

/** The DPoP challenge (RFC 9449 §7.1) of a 401 or 403 response, read like a Bearer one. */
export function dpopChallengeOf(response: Response): BearerChallenge | undefined {
  const header = response.headers.get('www-authenticate');
  if (header === null) return undefined;
  const dpop = parseChallenges(header).find((challenge) => challenge.scheme === 'dpop');
  if (dpop === undefined) return undefined;
  const { params } = dpop;
  return {
    ...(params.resource_metadata !== undefined ? { resourceMetadata: params.resource_metadata } : {}),
    ...(params.scope !== undefined && params.scope.trim() !== '' ? { scope: params.scope.trim() } : {}),
    ...(params.error !== undefined ? { error: params.error } : {}),
    ...(params.error_description !== undefined ? { errorDescription: params.error_description } : {}),
  };
}

/** JWS algorithms a resource server accepts in DPoP proofs, with their WebCrypto parameters. */
const VERIFY_ALGORITHMS: Readonly<Record<string, { readonly kty: string; readonly import: EcKeyImportParams | RsaHashedImportParams; readonly verify: AlgorithmIdentifier | EcdsaParams | RsaPssParams }>> = {
  ES256: { kty: 'EC', import: { name: 'ECDSA', namedCurve: 'P-256' }, verify: { name: 'ECDSA', hash: 'SHA-256' } },
  ES384: { kty: 'EC', import: { name: 'ECDSA', namedCurve: 'P-384' }, verify: { name: 'ECDSA', hash: 'SHA-384' } },
  RS256: { kty: 'RSA', import: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, verify: { name: 'RSASSA-PKCS1-v1_5' } },
  PS256: { kty: 'RSA', import: { name: 'RSA-PSS', hash: 'SHA-256' }, verify: { name: 'RSA-PSS', saltLength: 32 } },
};

/** The algorithms {@link verifyDpopProof} accepts, for `dpop_signing_alg_values_supported` and challenges. */
export const DPOP_ALGORITHMS: readonly string[] = Object.keys(VERIFY_ALGORITHMS);

/** What a DPoP proof must match (RFC 9449 §4.3). */
export interface DpopProofCheck {
  readonly method: string;
  /** The URL the request was sent to; compared without query and fragment. */
  readonly url: string | URL;
  /** The access token presented with the proof: its hash must be the proof's `ath`. */
  readonly accessToken?: string | undefined;
  /** The nonce the proof must carry, when the server requires one. */
  readonly nonce?: string | undefined;
  /** How far `iat` may be from now, in seconds (default 300). */
  readonly maxAgeSeconds?: number | undefined;
}

/** A proof that held: its key's thumbprint (to compare with the token's `cnf.jkt`) and its id (for replay checks). */
export interface VerifiedDpopProof {
  readonly jkt: string;
  readonly jti: string;
  readonly iat: number;
  readonly nonce: string | undefined;
}

/** A DPoP proof that is malformed, not signed by its key, or not for this request; `nonce` when only the nonce is wrong. */
export class InvalidDpopProofError extends Error {
  readonly nonce: boolean;

  constructor(message: string, nonce = false) {
    super(message);
    this.name = 'InvalidDpopProofError';
    this.nonce = nonce;
  }
}

const decoder = new TextDecoder();

function decodePart(part: string): unknown {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return JSON.parse(decoder.decode(Uint8Array.from(binary, (char) => char.charCodeAt(0))));
}

function base64UrlBytes(part: string): Uint8Array<ArrayBuffer> {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (char) => char.charCodeAt(0));
}

/**
 * Checks a DPoP proof as a resource server or authorization server does (RFC 9449 §4.3): one
 * well-formed JWS of `typ` dpop+jwt, signed with an accepted asymmetric algorithm by the public
 * key in its header, whose `htm`, `htu`, `iat`, `ath` and `nonce` match the request. Replay
 * (`jti`) and token binding (`jkt`) are left to the caller. Rejects with
 * {@link InvalidDpopProofError}.
 *
 * @example
 * ```ts
 * import { verifyDpopProof } from 'mcpgen/auth';
 *
 * declare const proof: string;
 * const { jkt } = await verifyDpopProof(proof, { method: 'POST', url: 'https://mcp.example.com/mcp', accessToken: 'the-token' });
 * ```
 */
export async function verifyDpopProof(proof: string, check: DpopProofCheck): Promise<VerifiedDpopProof> {
  const parts = proof.split('.');
  if (parts.length !== 3) throw new InvalidDpopProofError('The DPoP proof is not a compact JWS');
  const [head, body, signature] = parts as [string, string, string];
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = decodePart(head) as Record<string, unknown>;
    claims = decodePart(body) as Record<string, unknown>;
  } catch {
    throw new InvalidDpopProofError('The DPoP proof is not well-formed');
  }
  if (typeof header !== 'object' || header === null || typeof claims !== 'object' || claims === null) throw new InvalidDpopProofError('The DPoP proof is not well-formed');
  if (header.typ !== 'dpop+jwt') throw new InvalidDpopProofError('The DPoP proof\'s typ is not dpop+jwt');
  const algorithm = typeof header.alg === 'string' ? VERIFY_ALGORITHMS[header.alg] : undefined;
  if (algorithm === undefined) throw new InvalidDpopProofError(`The DPoP proof's alg is not one of ${DPOP_ALGORITHMS.join(', ')}`);
  const jwk = header.jwk as JsonWebKey | undefined;
  if (typeof jwk !== 'object' || jwk === null || jwk.kty !== algorithm.kty) throw new InvalidDpopProofError('The DPoP proof carries no public key of its algorithm');
  if ('d' in jwk) throw new InvalidDpopProofError('The DPoP proof carries a private key');
  let members: Record<string, string>;
  let valid: boolean;
  try {
    members = publicMembers(jwk);
    const key = await globalThis.crypto.subtle.importKey('jwk', members, algorithm.import, false, ['verify']);
    valid = await globalThis.crypto.subtle.verify(algorithm.verify, key, base64UrlBytes(signature), new TextEncoder().encode(`${head}.${body}`));
  } catch {
    throw new InvalidDpopProofError('The DPoP proof\'s key or signature is not usable');
  }
  if (!valid) throw new InvalidDpopProofError('The DPoP proof\'s signature does not verify');
  if (typeof claims.jti !== 'string' || claims.jti === '') throw new InvalidDpopProofError('The DPoP proof has no jti');
  if (claims.htm !== check.method.toUpperCase()) throw new InvalidDpopProofError('The DPoP proof\'s htm is not the request method');
  const rawHtu = typeof claims.htu === 'string' ? claims.htu : '';
  if (/[?#]/.test(rawHtu)) throw new InvalidDpopProofError('The DPoP proof\'s htu carries a query or fragment');
  let htu: string;
  try {
    htu = dpopTargetUri(rawHtu);
  } catch {
    throw new InvalidDpopProofError('The DPoP proof\'s htu is not a URL');
  }
  if (htu !== dpopTargetUri(check.url)) throw new InvalidDpopProofError('The DPoP proof\'s htu is not the request URL');
  const maxAge = check.maxAgeSeconds ?? 300;
  if (typeof claims.iat !== 'number' || Math.abs(Date.now() / 1000 - claims.iat) > maxAge) throw new InvalidDpopProofError('The DPoP proof\'s iat is missing or outside the accepted window');
  if (check.accessToken !== undefined && claims.ath !== (await sha256Base64Url(check.accessToken))) throw new InvalidDpopProofError('The DPoP proof\'s ath does not match the access token');
  const nonce = typeof claims.nonce === 'string' ? claims.nonce : undefined;
  if (check.nonce !== undefined && nonce !== check.nonce) throw new InvalidDpopProofError('The DPoP proof lacks the current nonce', true);
  return { jkt: await sha256Base64Url(JSON.stringify(members)), jti: claims.jti, iat: claims.iat, nonce };
}
