import type { ExpressionPart, TemplatePart, VarSpec } from './parse.js';

type Scalar = string | number | boolean;

/**
 * A value to expand: a string (or number/boolean, written as text), a list, or an associative
 * array. `undefined`, `null`, empty lists and empty objects count as undefined and are skipped.
 */
export type UriVariableValue = Scalar | readonly Scalar[] | Readonly<Record<string, Scalar>> | null | undefined;

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;
const HEX = /[0-9A-Fa-f]/;
const utf8 = /* @__PURE__ */ new TextEncoder();

/** Expands parsed template parts with `values` (RFC 6570 levels 1–4). */
export function expandParts(parts: readonly TemplatePart[], values: Readonly<Record<string, UriVariableValue>>): string {
  let out = '';
  for (const part of parts) out += part.kind === 'literal' ? part.text : expandExpression(part, values);
  return out;
}

function expandExpression(expression: ExpressionPart, values: Readonly<Record<string, UriVariableValue>>): string {
  const { rule } = expression;
  const pieces: string[] = [];
  for (const spec of expression.variables) {
    const value = Object.hasOwn(values, spec.name) ? values[spec.name] : undefined;
    const piece = expandVariable(spec, value, expression);
    if (piece !== undefined) pieces.push(piece);
  }
  return pieces.length === 0 ? '' : rule.first + pieces.join(rule.separator);
}

function expandVariable(spec: VarSpec, value: UriVariableValue, expression: ExpressionPart): string | undefined {
  const { rule } = expression;
  const encode = (text: string): string => encodeValue(text, rule.allowReserved);
  const named = (name: string, text: string): string => (text === '' ? name + rule.ifEmpty : `${name}=${text}`);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object') {
    const text = spec.prefix === undefined ? String(value) : truncate(String(value), spec.prefix);
    return rule.named ? named(spec.name, encode(text)) : encode(text);
  }
  const pairs: Array<[string | undefined, string]> = Array.isArray(value)
    ? (value as readonly Scalar[]).map((item) => [undefined, String(item)])
    : Object.entries(value as Readonly<Record<string, Scalar>>).map(([key, item]) => [key, String(item)]);
  if (pairs.length === 0) return undefined;
  if (!spec.explode) {
    const joined = pairs.map(([key, item]) => (key === undefined ? encode(item) : `${encode(key)},${encode(item)}`)).join(',');
    return rule.named ? named(spec.name, joined) : joined;
  }
  return pairs
    .map(([key, item]) => {
      if (key !== undefined) return named(encode(key), encode(item));
      return rule.named ? named(spec.name, encode(item)) : encode(item);
    })
    .join(rule.separator);
}

/** The first `length` characters (code points, so surrogate pairs stay whole). */
function truncate(text: string, length: number): string {
  return Array.from(text).slice(0, length).join('');
}

/**
 * Percent-encodes everything outside the unreserved set (and, for `+`/`#`, the reserved set,
 * where existing `%XX` triplets also pass through), as UTF-8.
 */
export function encodeValue(text: string, allowReserved: boolean): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (UNRESERVED.test(char) || (allowReserved && RESERVED.test(char))) {
      out += char;
    } else if (allowReserved && char === '%' && HEX.test(text.charAt(i + 1)) && HEX.test(text.charAt(i + 2))) {
      out += text.slice(i, i + 3);
      i += 2;
    } else {
      const code = text.codePointAt(i)!;
      const whole = String.fromCodePoint(code);
      i += whole.length - 1;
      out += utf8Percent(whole);
    }
  }
  return out;
}

function utf8Percent(char: string): string {
  let out = '';
  for (const byte of utf8.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}
