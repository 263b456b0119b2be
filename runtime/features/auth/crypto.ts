/**
 * The cryptography OAuth clients need, on WebCrypto alone (`globalThis.crypto`), so that it runs
 * unchanged on Node, Deno, Bun, Workers and browsers: random values, PKCE (RFC 7636, S256) and
 * compact JWS signing for `private_key_jwt` client authentication (RFC 7523).
 */
import { SdkError } from '../../core/errors.js';

const encoder = new TextEncoder();

/** Base64url without padding (RFC 4648 §5), the encoding of PKCE values and JWS parts. */
export function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `count` random bytes as base64url text: state values, verifiers, JWT ids. */
export function randomToken(count = 32): string {
  return base64Url(globalThis.crypto.getRandomValues(new Uint8Array(count)));
}

/** The SHA-256 digest of `text` as base64url. */
export async function sha256Base64Url(text: string): Promise<string> {
  return base64Url(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

/** A PKCE pair: the verifier stays with the client, the challenge goes into the authorization URL. */
export interface PkcePair {
  readonly verifier: string;
  readonly challenge: string;
  readonly method: 'S256';
}

/** Creates a PKCE pair: 32 random bytes (43 characters) and their S256 challenge. */
export async function createPkcePair(): Promise<PkcePair> {
  const verifier = randomToken(32);
  return { verifier, challenge: await sha256Base64Url(verifier), method: 'S256' };
}

/** The JWS algorithms {@link signJwt} supports. */
export type JwsAlgorithm = 'ES256' | 'ES384' | 'RS256' | 'PS256';

const ALGORITHMS: Readonly<Record<JwsAlgorithm, { import: EcKeyImportParams | RsaHashedImportParams; sign: AlgorithmIdentifier | EcdsaParams | RsaPssParams }>> = {
  ES256: { import: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
  ES384: { import: { name: 'ECDSA', namedCurve: 'P-384' }, sign: { name: 'ECDSA', hash: 'SHA-384' } },
  RS256: { import: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, sign: { name: 'RSASSA-PKCS1-v1_5' } },
  PS256: { import: { name: 'RSA-PSS', hash: 'SHA-256' }, sign: { name: 'RSA-PSS', saltLength: 32 } },
};

/**
 * Imports a PKCS #8 private key in PEM form (`-----BEGIN PRIVATE KEY-----`) for signing with
 * `algorithm`. Rejects with SdkError('INVALID_ARGUMENT') when the text is no such key.
 */
export async function importPrivateKeyPem(pem: string, algorithm: JwsAlgorithm): Promise<CryptoKey> {
  const body = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, '').replace(/\s+/g, '');
  let der: Uint8Array<ArrayBuffer>;
  try {
    der = Uint8Array.from(atob(body), (char) => char.charCodeAt(0));
  } catch (error) {
    throw new SdkError('INVALID_ARGUMENT', 'The private key is not PEM-encoded PKCS #8', { cause: error });
  }
  try {
    return await globalThis.crypto.subtle.importKey('pkcs8', der, ALGORITHMS[algorithm].import, false, ['sign']);
  } catch (error) {
    throw new SdkError('INVALID_ARGUMENT', `The private key cannot sign ${algorithm}`, { cause: error });
  }
}

/**
 * Signs `claims` as a compact JWS (`typ` JWT unless `header` names another, as DPoP proofs do).
 * WebCrypto's ECDSA signatures are already the fixed-length r‖s form JWS uses, so no DER
 * conversion is needed.
 */
export async function signJwt(claims: Readonly<Record<string, unknown>>, key: CryptoKey, algorithm: JwsAlgorithm, header: Readonly<Record<string, unknown>> = {}): Promise<string> {
  const encode = (value: unknown): string => base64Url(encoder.encode(JSON.stringify(value)));
  const input = `${encode({ typ: 'JWT', ...header, alg: algorithm })}.${encode(claims)}`;
  const signature = await globalThis.crypto.subtle.sign(ALGORITHMS[algorithm].sign, key, encoder.encode(input));
  return `${input}.${base64Url(new Uint8Array(signature))}`;
}
