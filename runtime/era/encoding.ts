/**
 * The byte and text encodings of request states: canonical JSON (the argument digest must not
 * depend on key order) and strict base64url (one spelling per token, so that a single-use
 * check keyed on the token string cannot be sidestepped with a second spelling).
 */

/**
 * JSON with object keys sorted by UTF-16 code units at every level (as in RFC 8785),
 * JavaScript's shortest number form, and `undefined` members left out as JSON.stringify does.
 * Throws TypeError for bigints and cycles.
 */
export function canonicalJson(value: unknown, ancestors: Set<object>): string {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`digestArguments cannot digest ${String(value)}: JSON has no such number`);
      return JSON.stringify(value);
    case 'bigint':
      throw new TypeError('digestArguments cannot digest a bigint');
    case 'object':
      break;
    default:
      // undefined, functions and symbols: JSON has no such value.
      return 'null';
  }
  if (value === null) return 'null';
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return canonicalJson(toJSON.call(value), ancestors);
  if (ancestors.has(value)) throw new TypeError('digestArguments cannot digest a cyclic value');
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((item) => canonicalJson(item, ancestors)).join(',')}]`;
  } else {
    const record = value as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const member = record[key];
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      members.push(`${JSON.stringify(key)}:${canonicalJson(member, ancestors)}`);
    }
    text = `{${members.join(',')}}`;
  }
  ancestors.delete(value);
  return text;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DECODE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Base64url without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]!;
    out += ALPHABET[n >>> 2]! + ALPHABET[(n & 3) << 4]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 8) | bytes[i + 1]!;
    out += ALPHABET[n >>> 10]! + ALPHABET[(n >>> 4) & 63]! + ALPHABET[(n & 15) << 2]!;
  }
  return out;
}

/**
 * Strict base64url without padding; undefined for anything else, including non-zero unused bits
 * in the last character, so every byte string has exactly one accepted spelling.
 */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  const rest = text.length % 4;
  if (rest === 1) return undefined;
  const out = new Uint8Array(((text.length - rest) / 4) * 3 + (rest === 0 ? 0 : rest - 1));
  let o = 0;
  let i = 0;
  for (; i + 3 < text.length; i += 4) {
    const a = sextet(text, i);
    const b = sextet(text, i + 1);
    const c = sextet(text, i + 2);
    const d = sextet(text, i + 3);
    if ((a | b | c | d) < 0) return undefined;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >>> 16;
    out[o++] = (n >>> 8) & 255;
    out[o++] = n & 255;
  }
  if (rest === 2) {
    const a = sextet(text, i);
    const b = sextet(text, i + 1);
    if (a < 0 || b < 0 || (b & 15) !== 0) return undefined;
    out[o] = (a << 2) | (b >>> 4);
  } else if (rest === 3) {
    const a = sextet(text, i);
    const b = sextet(text, i + 1);
    const c = sextet(text, i + 2);
    if (a < 0 || b < 0 || c < 0 || (c & 3) !== 0) return undefined;
    out[o++] = (a << 2) | (b >>> 4);
    out[o] = ((b & 15) << 4) | (c >>> 2);
  }
  return out;
}

/** The 6-bit value of the character at `index`, or -1 when it is not base64url. */
function sextet(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code < 128 ? DECODE[code]! : -1;
}
