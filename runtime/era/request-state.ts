/**
 * Sealed `requestState` for multi round-trip requests (MCP 2026-07-28).
 *
 * A server that needs input from the client answers `tools/call`, `prompts/get` or
 * `resources/read` with an `InputRequiredResult`, and the client retries the same request with
 * `inputResponses` and the `requestState` echoed back. Everything the server has to remember
 * between rounds travels in that string, so any replica can finish the request without shared
 * storage. The spec treats the echoed string as attacker-controlled, hence the codec here:
 *
 * - integrity: HMAC-SHA256 over the token (signed mode) or AES-256-GCM (encrypted mode), with
 *   keys derived by HKDF-SHA256 from a shared secret, checked before any part of the payload is
 *   trusted;
 * - binding: the method, the target (tool name, prompt name or resource URI), a digest of the
 *   arguments and the authenticated principal are sealed in and compared on receipt, so a state
 *   cannot be replayed on another request or by another user;
 * - expiry: a deadline sealed in (default ten minutes);
 * - a bound on the number of rounds.
 *
 * It does not make a state single-use; servers that need that keep a server-side record keyed
 * by the token (tokens are canonical: a token string has exactly one valid spelling).
 *
 * Token formats (base64url without padding, '.' separated):
 * - signed: `v1.<key id>.<payload>.<mac>`; the payload is readable JSON, the MAC covers
 *   `v1.<key id>.<payload>`;
 * - encrypted: `v1e.<key id>.<iv>.<ciphertext and tag>`; `v1e.<key id>` is the associated data.
 *
 * Runtime-neutral: WebCrypto (`globalThis.crypto.subtle`) only.
 */
import { SdkError } from '../core/errors.js';
import { canonicalJson, fromBase64Url, toBase64Url } from './encoding.js';

import {
  RequestStateError,
  type RequestStateBinding,
  type RequestStateInput,
  type RequestStateKey,
  type RequestStateOptions,
  type RequestStatePayload,
} from './request-state-types.js';
import { BINDING_LABELS, bindingMismatch, isBinding, isRecord, parsePayload, type WirePayload } from './request-state-payload.js';

export {
  RequestStateError,
  type RequestStateBinding,
  type RequestStateErrorReason,
  type RequestStateInput,
  type RequestStateKey,
  type RequestStateOptions,
  type RequestStatePayload,
} from './request-state-types.js';

const SIGNED_VERSION = 'v1';
const ENCRYPTED_VERSION = 'v1e';
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MIN_SECRET_BYTES = 32;
const MAC_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const DEFAULT_TTL_MS = 10 * 60_000;
const DEFAULT_MAX_ROUNDS = 8;
const DEFAULT_MAX_TOKEN_LENGTH = 65_536;

const encoder = new TextEncoder();
// Fixed, public HKDF inputs: they separate this use of the secret (and each mode) from any other.
const HKDF_SALT = encoder.encode('mcpgen/request-state');
const MAC_INFO = encoder.encode('v1 hmac-sha256');
const ENC_INFO = encoder.encode('v1 aes-256-gcm');

interface KeyEntry {
  readonly id: string;
  readonly secret: Uint8Array<ArrayBuffer>;
  // Derived keys, imported once per key and shared by concurrent callers.
  base?: Promise<CryptoKey> | undefined;
  mac?: Promise<CryptoKey> | undefined;
  enc?: Promise<CryptoKey> | undefined;
}

/**
 * Seals request states into tokens and opens them again. One codec per server is enough; it
 * caches the derived CryptoKeys, so keep it rather than creating one per request.
 *
 * @example
 * ```ts
 * import { createRequestStateBinding, RequestStateCodec } from 'mcpgen/advanced';
 *
 * const newSecret = crypto.getRandomValues(new Uint8Array(32));
 * const oldSecret = 'a secret of at least thirty-two bytes, kept until its states expire';
 * const codec = new RequestStateCodec({
 *   keys: [{ id: 'k2', secret: newSecret }, { id: 'k1', secret: oldSecret }],
 *   encrypt: true,
 * });
 * const binding = await createRequestStateBinding({ method: 'tools/call', target: 'deploy', arguments: { env: 'prod' }, subject: 'user-42' });
 * const requestState = await codec.seal({ binding, round: 1, answers: {} });
 * // …the client answers the input requests and retries with requestState…
 * const state = await codec.open(requestState, binding);
 * state.round; // 1
 * ```
 */
export class RequestStateCodec {
  private sealingKeyEntry: KeyEntry | undefined;
  private readonly keysById = new Map<string, KeyEntry>();
  private readonly encrypt: boolean;
  private readonly ttlMs: number;
  private readonly maxRounds: number;
  private readonly maxTokenLength: number;
  private readonly now: () => number;
  /** The server identity bindings name, when configured (`audience`). */
  readonly audience: string | undefined;

  /** The key that seals: the first configured one, or the per-process key drawn now. */
  private get sealingKey(): KeyEntry {
    if (this.sealingKeyEntry === undefined) {
      const key = processKey();
      this.sealingKeyEntry = { id: key.id, secret: new Uint8Array(key.secret as Uint8Array) };
      this.keysById.set(key.id, this.sealingKeyEntry);
    }
    return this.sealingKeyEntry;
  }

  /** Throws SdkError `INVALID_ARGUMENT` for a short secret, a bad or duplicate key id, or a bad option. */
  constructor(options: RequestStateOptions = {}) {
    // The per-process key is drawn on first use, not here: some runtimes (Workers) refuse
    // random values while a module is being evaluated, where servers are often constructed.
    const keys = options.keys ?? [];
    if (options.keys !== undefined && keys.length === 0) {
      throw new SdkError('INVALID_ARGUMENT', 'RequestStateCodec needs at least one key (omit `keys` for a per-process random key)');
    }
    for (const key of keys) {
      if (typeof key.id !== 'string' || !KEY_ID.test(key.id)) {
        throw new SdkError('INVALID_ARGUMENT', `Invalid request state key id ${JSON.stringify(key.id)}: use 1–64 characters from A–Z, a–z, 0–9, '_' and '-'`);
      }
      if (this.keysById.has(key.id)) {
        throw new SdkError('INVALID_ARGUMENT', `Request state key id "${key.id}" appears twice`);
      }
      // A copy, so the caller cannot change a secret after the codec checked it.
      const secret = typeof key.secret === 'string' ? encoder.encode(key.secret) : key.secret instanceof Uint8Array ? new Uint8Array(key.secret) : undefined;
      if (secret === undefined || secret.byteLength < MIN_SECRET_BYTES) {
        throw new SdkError(
          'INVALID_ARGUMENT',
          `Request state key "${key.id}" has ${secret?.byteLength ?? 0} bytes of secret; at least ${MIN_SECRET_BYTES} are needed (e.g. 32 random bytes, base64-encoded)`,
        );
      }
      this.keysById.set(key.id, { id: key.id, secret });
    }
    this.sealingKeyEntry = keys.length > 0 ? this.keysById.get(keys[0]!.id)! : undefined;
    this.encrypt = options.encrypt ?? false;
    this.ttlMs = positive('ttlMs', options.ttlMs ?? DEFAULT_TTL_MS, false);
    this.maxRounds = positive('maxRounds', options.maxRounds ?? DEFAULT_MAX_ROUNDS, true);
    this.maxTokenLength = positive('maxTokenLength', options.maxTokenLength ?? DEFAULT_MAX_TOKEN_LENGTH, true);
    this.now = options.now ?? Date.now;
    this.audience = options.audience;
  }

  /**
   * Seals `state` with the first key, valid for `ttlMs` from now. Rejects with RequestStateError
   * `too-many-rounds` when `round` exceeds `maxRounds`, and with SdkError `INVALID_ARGUMENT` when
   * the state is not JSON or its token would exceed `maxTokenLength`.
   */
  async seal(state: RequestStateInput): Promise<string> {
    const { binding, round, answers } = state;
    if (!Number.isSafeInteger(round) || round < 1) {
      throw new SdkError('INVALID_ARGUMENT', `requestState round must be a positive integer, not ${String(round)}`);
    }
    if (round > this.maxRounds) {
      throw new RequestStateError('too-many-rounds', `requestState would exceed the limit of ${this.maxRounds} rounds for one request`);
    }
    if (!isBinding(binding)) {
      throw new SdkError('INVALID_ARGUMENT', 'requestState binding needs string method, target and argumentsDigest (and subject and server, when set)');
    }
    if (!isRecord(answers)) {
      throw new SdkError('INVALID_ARGUMENT', 'requestState answers must be a plain object');
    }
    const wire: WirePayload = { m: binding.method, t: binding.target, d: binding.argumentsDigest, r: round, a: answers, e: this.now() + this.ttlMs };
    if (binding.subject !== undefined) wire.s = binding.subject;
    if (binding.server !== undefined) wire.v = binding.server;
    if (state.user !== undefined) wire.u = state.user;
    let json: string;
    try {
      json = JSON.stringify(wire);
    } catch (error) {
      throw new SdkError('INVALID_ARGUMENT', 'requestState answers and user data must be JSON-serializable', { cause: error });
    }
    // Base64 only grows the text, so an oversize JSON cannot make a token that fits.
    if (json.length > this.maxTokenLength) throw this.tooLarge(json.length);
    const token = this.encrypt ? await this.sealEncrypted(json) : await this.sealSigned(json);
    if (token.length > this.maxTokenLength) throw this.tooLarge(token.length);
    return token;
  }

  /**
   * Verifies `token` and checks it against the request being served; rejects with
   * RequestStateError. Checks run in this order, each before anything later is trusted: size and
   * shape, key id, signature (or authenticated decryption), expiry, rounds, binding.
   */
  async open(token: string, expected: RequestStateBinding): Promise<RequestStatePayload> {
    if (typeof token !== 'string' || token.length === 0) {
      throw new RequestStateError('malformed', 'requestState is malformed: it must be a non-empty string');
    }
    if (token.length > this.maxTokenLength) {
      throw new RequestStateError('malformed', `requestState is malformed: ${token.length} characters, over the limit of ${this.maxTokenLength}`);
    }
    const parts = token.split('.', 5);
    if (parts.length !== 4) {
      throw new RequestStateError('malformed', 'requestState is malformed: it must have four dot-separated parts');
    }
    const [version, kid, third, fourth] = parts as [string, string, string, string];
    if (version !== SIGNED_VERSION && version !== ENCRYPTED_VERSION) {
      throw new RequestStateError('malformed', 'requestState is malformed: unknown format version');
    }
    if (!KEY_ID.test(kid)) {
      throw new RequestStateError('malformed', 'requestState is malformed: invalid key id');
    }
    // Draws the per-process key if this codec has not sealed yet, so that the key ring is complete.
    void this.sealingKey;
    const key = this.keysById.get(kid);
    if (key === undefined) {
      // The id is checked to be plain [A-Za-z0-9_-] above, so it is safe to show.
      throw new RequestStateError(
        'unknown-key',
        `requestState was sealed with key "${kid}", which this server does not hold (replicas must share keys, and retired keys must stay until their states expire)`,
      );
    }
    const bytes = version === SIGNED_VERSION ? await this.openSigned(key, token, third, fourth) : await this.openEncrypted(key, version, third, fourth);
    const payload = parsePayload(bytes);
    if (this.now() >= payload.expiresAt) {
      throw new RequestStateError('expired', 'requestState has expired; retry the request without it');
    }
    if (payload.round > this.maxRounds) {
      throw new RequestStateError('too-many-rounds', `requestState exceeds the limit of ${this.maxRounds} rounds for one request`);
    }
    const field = bindingMismatch(payload.binding, expected);
    if (field !== undefined) {
      throw new RequestStateError('binding-mismatch', `requestState was issued for a different ${BINDING_LABELS[field]}`, field);
    }
    return payload;
  }

  private async sealSigned(json: string): Promise<string> {
    const key = this.sealingKey;
    const signed = `${SIGNED_VERSION}.${key.id}.${toBase64Url(encoder.encode(json))}`;
    const mac = await subtle().sign('HMAC', await this.macKey(key), encoder.encode(signed));
    return `${signed}.${toBase64Url(new Uint8Array(mac))}`;
  }

  private async sealEncrypted(json: string): Promise<string> {
    const key = this.sealingKey;
    const header = `${ENCRYPTED_VERSION}.${key.id}`;
    // Random 96-bit IVs: rotate a key well before 2^32 seals, the bound for random GCM nonces.
    const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const sealed = await subtle().encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(header) }, await this.encKey(key), encoder.encode(json));
    return `${header}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
  }

  private async openSigned(key: KeyEntry, token: string, payloadText: string, macText: string): Promise<Uint8Array> {
    const mac = fromBase64Url(macText);
    if (mac === undefined || mac.byteLength !== MAC_BYTES) {
      throw new RequestStateError('malformed', 'requestState is malformed: bad signature encoding');
    }
    const signed = encoder.encode(token.slice(0, token.length - macText.length - 1));
    // subtle.verify compares in constant time.
    if (!(await subtle().verify('HMAC', await this.macKey(key), mac, signed))) {
      throw new RequestStateError('bad-signature', 'requestState failed verification: it was altered or signed with a different secret');
    }
    const payload = fromBase64Url(payloadText);
    if (payload === undefined) {
      throw new RequestStateError('malformed', 'requestState is malformed: bad payload encoding');
    }
    return payload;
  }

  private async openEncrypted(key: KeyEntry, version: string, ivText: string, sealedText: string): Promise<Uint8Array> {
    const iv = fromBase64Url(ivText);
    const sealed = fromBase64Url(sealedText);
    if (iv === undefined || iv.byteLength !== IV_BYTES || sealed === undefined || sealed.byteLength < TAG_BYTES) {
      throw new RequestStateError('malformed', 'requestState is malformed: bad ciphertext encoding');
    }
    const additionalData = encoder.encode(`${version}.${key.id}`);
    try {
      return new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv, additionalData }, await this.encKey(key), sealed));
    } catch {
      throw new RequestStateError('bad-signature', 'requestState failed authenticated decryption: it was altered or sealed with a different secret');
    }
  }

  private tooLarge(length: number): SdkError {
    return new SdkError(
      'INVALID_ARGUMENT',
      `requestState would be at least ${length} characters, over the limit of ${this.maxTokenLength}; keep large data out of the state`,
    );
  }

  private macKey(key: KeyEntry): Promise<CryptoKey> {
    return (key.mac ??= this.derive(key, MAC_INFO, { name: 'HMAC', hash: 'SHA-256', length: 256 }, ['sign', 'verify']).catch((error: unknown) => {
      key.mac = undefined;
      throw error;
    }));
  }

  private encKey(key: KeyEntry): Promise<CryptoKey> {
    return (key.enc ??= this.derive(key, ENC_INFO, { name: 'AES-GCM', length: 256 }, ['encrypt', 'decrypt']).catch((error: unknown) => {
      key.enc = undefined;
      throw error;
    }));
  }

  private async derive(key: KeyEntry, info: Uint8Array<ArrayBuffer>, algorithm: HmacImportParams | AesKeyAlgorithm, usages: KeyUsage[]): Promise<CryptoKey> {
    key.base ??= subtle().importKey('raw', key.secret, 'HKDF', false, ['deriveKey']);
    let base: CryptoKey;
    try {
      base = await key.base;
    } catch (error) {
      key.base = undefined;
      throw error;
    }
    return subtle().deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: HKDF_SALT, info }, base, algorithm, false, usages);
  }
}

let defaultCodec: RequestStateCodec | undefined;

/**
 * The codec with default options, shared by everything in the process that configures none, so
 * that its derived keys are imported once. It seals with the per-process random key: right for a
 * single replica only.
 */
export function defaultRequestStateCodec(): RequestStateCodec {
  return (defaultCodec ??= new RequestStateCodec());
}

/**
 * SHA-256 (base64url) of the canonical JSON of `value`: object keys sorted by UTF-16 code units
 * at every level (as in RFC 8785), JavaScript's shortest number form, `undefined` members left
 * out as JSON.stringify does. `{ a, b }` and `{ b, a }` give the same digest. A missing value
 * (`undefined`) digests like `null`, so a request without arguments has a digest too. Throws a
 * TypeError for values JSON cannot carry: NaN and the infinities (which would digest like
 * `null`), bigints and cycles.
 */
export async function digestArguments(value: unknown): Promise<string> {
  const text = canonicalJson(value, new Set());
  return toBase64Url(new Uint8Array(await subtle().digest('SHA-256', encoder.encode(text))));
}

/** What a binding is built from: the request being served and who sent it. */
export interface RequestStateBindingInput {
  readonly method: string;
  readonly target: string;
  readonly arguments?: unknown;
  /** The principal, already prefixed by its kind (`subject:…`, `client:…`) so that a user and a client of the same name differ. */
  readonly subject?: string | undefined;
  /** The server identity (see `RequestStateOptions.audience`). */
  readonly server?: string | undefined;
}

/** The binding of a request: its method, target, digest of `arguments`, subject and server. */
export async function createRequestStateBinding(input: RequestStateBindingInput): Promise<RequestStateBinding> {
  const argumentsDigest = await digestArguments(input.arguments);
  return {
    method: input.method,
    target: input.target,
    argumentsDigest,
    ...(input.subject !== undefined ? { subject: input.subject } : {}),
    ...(input.server !== undefined ? { server: input.server } : {}),
  };
}

let defaultKey: RequestStateKey | undefined;

/** The per-process random key; its random id makes a foreign replica's token fail as `unknown-key`. */
function processKey(): RequestStateKey {
  if (defaultKey === undefined) {
    const random = globalThis.crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES + 6));
    defaultKey = { id: `local-${toBase64Url(random.subarray(MIN_SECRET_BYTES))}`, secret: random.slice(0, MIN_SECRET_BYTES) };
  }
  return defaultKey;
}

function subtle(): SubtleCrypto {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw new SdkError('INVALID_ARGUMENT', 'requestState needs WebCrypto (globalThis.crypto.subtle), which this runtime lacks');
  }
  return subtle;
}

function positive(name: string, value: number, integer: boolean): number {
  if (!(integer ? Number.isSafeInteger(value) : Number.isFinite(value)) || value <= 0) {
    throw new SdkError('INVALID_ARGUMENT', `RequestStateCodec option ${name} must be a positive ${integer ? 'integer' : 'number'}, not ${String(value)}`);
  }
  return value;
}
