/**
 * Digests and bytes of skill files, runtime-neutral: SHA-256 through Web Crypto
 * (`globalThis.crypto.subtle`, present in Node 20, Deno, Bun, browsers and Workers) and the
 * bytes a `resources/read` content block stands for (UTF-8 of `text`, or the decoded `blob`).
 */
import { SdkError } from '../../core/errors.js';

const encoder = new TextEncoder();

/** The UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** `sha256:` and the 64 lowercase hex digits of the SHA-256 of `bytes`. */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) throw new SdkError('INVALID_ARGUMENT', 'skill digests need Web Crypto (globalThis.crypto.subtle), which this runtime lacks');
  const hash = new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

/** The bytes of base64 `blob`; throws SdkError('INVALID_RESULT') when it is not base64. */
export function base64Bytes(blob: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(blob);
  } catch (error) {
    throw new SdkError('INVALID_RESULT', 'a resource blob is not valid base64', { cause: error });
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** `bytes` in base64, for `blob` contents. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** `bytes` as text when they are valid UTF-8, else undefined. */
export function textOf(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
