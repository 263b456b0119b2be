/**
 * Helpers the compiled validators call. Checks run inline in the generated functions; these
 * helpers build the issues on the failure path, so generated code carries no message strings
 * and has no runtime dependency and no eval.
 */
import type { ValidationIssue, Validator } from './contract.js';

/** An issue while it travels up: callers prefix their own path as the failure unwinds. */
interface PendingIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}

/**
 * Issues of the validation in progress. A failing check appends and returns false; an `anyOf`
 * that finally matches truncates the issues its failed branches left.
 */
const pending: PendingIssue[] = [];
/** How many extension validators are running a core validator as a sub-check. */
let nesting = 0;

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

/** A JSON object in the JSON Schema sense: not null, not an array. */
export function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Tests for optional properties of one type: absent (`undefined`) passes. */
export const optString = (value: unknown): boolean => value === undefined || typeof value === 'string';
export const optBoolean = (value: unknown): boolean => value === undefined || typeof value === 'boolean';
export const optNumber = (value: unknown): boolean => value === undefined || Number.isFinite(value);
export const optInteger = (value: unknown): boolean => value === undefined || Number.isInteger(value);
export const optObject = (value: unknown): boolean => value === undefined || isObject(value);
export const optArray = (value: unknown): boolean => value === undefined || Array.isArray(value);

// RFC 3986 section 3: scheme ":" hier-part [ "?" query ] [ "#" fragment ], no spaces or controls.
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:\/\/(?:[^\s/?#@]*@)?(?:\[[0-9A-Fa-f:.]+\]|[^\s/?#:@[\]]*)(?::\d*)?)?[^\s#?]*(?:\?[^\s#]*)?(?:#\S*)?$/;
const PERCENT_OK = /^(?:[^%]|%[0-9A-Fa-f]{2})*$/;
// RFC 4648 base64 with padding; the empty string is valid (zero bytes).
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// RFC 6570 level 4: literals (no controls, space, quotes, <>\^`{|} or stray %) and expressions
// with an optional operator and comma-separated varspecs, each with a prefix or explode modifier.
// It decides as ajv-formats' full-mode uri-template does, so verdicts match the ajv-compiled validators.
const URI_TEMPLATE = /^(?:(?:[^\x00-\x20"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i;

/** `format: uri`: an absolute URI. */
export function isUri(text: string): boolean {
  return URI.test(text) && PERCENT_OK.test(text);
}

/** `format: byte`: base64 data. */
export function isByte(text: string): boolean {
  return BASE64.test(text);
}

/** `format: uri-template`: an RFC 6570 template. */
export function isUriTemplate(text: string): boolean {
  return URI_TEMPLATE.test(text);
}

/** ajv's wording for a failed keyword, from its params; the one place messages are spelled. */
export function issueMessage(keyword: string, params: Readonly<Record<string, unknown>>): string {
  switch (keyword) {
    case 'type':
      return `must be ${String(params['type'])}`;
    case 'required':
      return `must have required property '${String(params['missingProperty'])}'`;
    case 'const':
      return 'must be equal to constant';
    case 'enum':
      return 'must be equal to one of the allowed values';
    case 'additionalProperties':
      return 'must NOT have additional properties';
    case 'anyOf':
      return 'must match a schema in anyOf';
    case 'not':
      return 'must NOT be valid';
    case 'format':
      return `must match format "${String(params['format'])}"`;
    case 'maximum':
    case 'minimum':
      return `must be ${String(params['comparison'])} ${String(params['limit'])}`;
    case 'maxItems':
    case 'minItems':
      return `must NOT have ${keyword === 'maxItems' ? 'more' : 'fewer'} than ${String(params['limit'])} items`;
    case 'maxLength':
    case 'minLength':
      return `must NOT have ${keyword === 'maxLength' ? 'more' : 'fewer'} than ${String(params['limit'])} characters`;
    case 'propertyNames':
      return 'property name must be valid';
    case 'false schema':
      return 'boolean schema is false';
    default:
      return 'is invalid';
  }
}

/** Records one failure at `path` (relative to the current check) and returns false. */
export function fail(path: string, keyword: string, params: Record<string, unknown>): false {
  pending.push({ instancePath: path, keyword, params, message: issueMessage(keyword, params) });
  return false;
}

/** `type` failed; `type` is the schema's value (a name or a list of names). */
export function typeError(path: string, type: string | readonly string[]): false {
  return fail(path, 'type', { type });
}

export const notString = (path: string): false => typeError(path, 'string');
export const notObject = (path: string): false => typeError(path, 'object');
export const notArray = (path: string): false => typeError(path, 'array');
export const notBoolean = (path: string): false => typeError(path, 'boolean');
export const notNumber = (path: string): false => typeError(path, 'number');
export const notInteger = (path: string): false => typeError(path, 'integer');
export const notNull = (path: string): false => typeError(path, 'null');

/** `required` failed: reports the first of `names` that `data` lacks, as ajv does. */
export function missing(path: string, data: Record<string, unknown>, names: readonly string[]): false {
  return fail(path, 'required', { missingProperty: names.find((name) => data[name] === undefined) });
}

export function notConst(path: string, allowedValue: unknown): false {
  return fail(path, 'const', { allowedValue });
}

export function notEnum(path: string, allowedValues: readonly unknown[]): false {
  return fail(path, 'enum', { allowedValues });
}

export function additional(path: string, additionalProperty: string): false {
  return fail(path, 'additionalProperties', { additionalProperty });
}

export function badFormat(path: string, format: string): false {
  return fail(path, 'format', { format });
}

/** A numeric, length or item-count bound failed. */
export function limit(path: string, keyword: string, bound: number): false {
  const comparison = keyword === 'maximum' ? '<=' : keyword === 'minimum' ? '>=' : null;
  return fail(path, keyword, comparison === null ? { limit: bound } : { comparison, limit: bound });
}

/** Where the next issue goes; a check that may fail past this point can prefix or drop from here. */
export function mark(): number {
  return pending.length;
}

/** Prefixes `path` to every issue recorded since `start` (a sub-check at `path` failed). */
export function prefix(start: number, path: string): false {
  for (let i = start; i < pending.length; i++) pending[i]!.instancePath = path + pending[i]!.instancePath;
  return false;
}

/** No `anyOf` branch matched: the branches' issues (prefixed) and then the anyOf issue itself. */
export function noBranch(start: number, path: string): false {
  prefix(start, path);
  return fail(path, 'anyOf', {});
}

/** A property name failed the `propertyNames` schema: its issues (at the object), then the name. */
export function badName(start: number, path: string, propertyName: string): false {
  prefix(start, path);
  return fail(path, 'propertyNames', { propertyName });
}

/** A branch matched after others failed: their issues no longer apply. */
export function cut(start: number): void {
  if (pending.length > start) pending.length = start;
}

/** A property name as a JSON Pointer segment (RFC 6901). */
export function pointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Wraps a compiled check as a Validator: `errors` holds the issues of the last failed call.
 * Defined once per export, so each export is one pure call the bundler may drop.
 */
export function validator<T>(check: (value: unknown) => boolean): Validator<T> {
  const validate = ((value: unknown): boolean => {
    // A check that threw (a getter, a stack overflow) may have left issues behind.
    if (nesting === 0 && pending.length > 0) pending.length = 0;
    const start = pending.length;
    if (check(value)) {
      validate.errors = null;
      return true;
    }
    validate.errors = pending.splice(start) as ValidationIssue[];
    return false;
  }) as Validator<T>;
  return validate;
}

/**
 * Runs another module's exported validator as a sub-check (an extension reusing its core
 * revision's definitions): its issues join the pending ones so the caller can prefix them.
 */
export function subValidator(validate: Validator, value: unknown): boolean {
  nesting++;
  let ok: boolean;
  try {
    ok = validate(value);
  } finally {
    nesting--;
  }
  if (!ok) for (const issue of validate.errors ?? []) pending.push({ ...issue, params: { ...issue.params } });
  return ok;
}

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
