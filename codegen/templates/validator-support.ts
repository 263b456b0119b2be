/**
 * Helpers the compiled validators call. They replace the CommonJS modules ajv's standalone
 * output would otherwise load, so generated code has no runtime dependency and no eval.
 */
import type { Validator } from './contract.js';

/** Length in Unicode code points, as JSON Schema's minLength/maxLength count it. */
export function ucs2length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

/** Structural equality of JSON values, for `const` and `enum` on objects and arrays. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a !== a && b !== b;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  for (const key of keysA) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

// RFC 3986 section 3: scheme ":" hier-part [ "?" query ] [ "#" fragment ], no spaces or controls.
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:\/\/(?:[^\s/?#@]*@)?(?:\[[0-9A-Fa-f:.]+\]|[^\s/?#:@[\]]*)(?::\d*)?)?[^\s#?]*(?:\?[^\s#]*)?(?:#\S*)?$/;
const PERCENT_OK = /^(?:[^%]|%[0-9A-Fa-f]{2})*$/;
// RFC 4648 base64 with padding; the empty string is valid (zero bytes).
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The function-valued formats the MCP schemas use; regex formats (`uri-template`) are inlined
 * into the validators by ajv itself.
 */
export const formats = {
  uri: (text: string): boolean => URI.test(text) && PERCENT_OK.test(text),
  byte: (text: string): boolean => BASE64.test(text),
};

/**
 * A result validator that picks the union member by `resultType` instead of trying each one:
 * a plain `anyOf` would let any object with a `resultType` pass as InputRequiredResult.
 * An absent `resultType` means `complete`, as the 2026 spec says for older servers.
 */
export function byResultType(members: Readonly<Record<string, Validator>>, fallback: Validator): Validator {
  const check = ((value: unknown): boolean => {
    const type = typeof value === 'object' && value !== null ? (value as { resultType?: unknown }).resultType : undefined;
    const chosen = (typeof type === 'string' && Object.prototype.hasOwnProperty.call(members, type) ? members[type] : undefined) ?? fallback;
    const ok = chosen(value);
    check.errors = ok ? null : chosen.errors;
    return ok;
  }) as Validator;
  return check;
}
