/**
 * The request metadata headers of Streamable HTTP in the stateless era (2026-07-28 and later):
 * `Mcp-Method`, `Mcp-Name` and the `Mcp-Param-{Name}` headers a tool's `x-mcp-header`
 * annotations ask for. Intermediaries route on these headers without parsing the body, so the
 * client mirrors body values into them with an encoding that keeps any value header-safe, and
 * a server that reads the body refuses a request whose headers disagree with it. Both sides
 * live here so that they read the annotations and the encoding the same way.
 */
import { isJsonObject } from '../core/jsonrpc.js';

/** The header mirroring the JSON-RPC `method`. */
export const METHOD_HEADER = 'mcp-method';
/** The header mirroring `params.name` (or `params.uri` for resources). */
export const NAME_HEADER = 'mcp-name';
/** The prefix of headers mirroring annotated tool parameters. */
export const PARAM_HEADER_PREFIX = 'mcp-param-';
/** The schema keyword that marks a tool parameter for mirroring. */
export const HEADER_ANNOTATION = 'x-mcp-header';

const SENTINEL = /^=\?base64\?.*\?=$/s;
// Visible ASCII and inner spaces: a value that needs no encoding. Leading or trailing
// whitespace, controls (tab included) and non-ASCII characters all call for Base64.
const PLAIN = /^(?:[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?)?$/;
// RFC 9110 field-name token (1*tchar).
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MIRRORABLE_TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'boolean']);

/**
 * Encodes a header value: as is when it is plain ASCII, otherwise as `=?base64?…?=` over its
 * UTF-8 bytes. A plain value that looks like the sentinel is encoded too, so that it cannot be
 * mistaken for an encoded one.
 */
export function encodeHeaderValue(value: string): string {
  if (PLAIN.test(value) && !SENTINEL.test(value)) return value;
  const bytes = new TextEncoder().encode(value);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/** One tool parameter mirrored into a header: the header's name part, the property path and its type. */
export interface HeaderParameter {
  /** The `x-mcp-header` value, i.e. `Region` for `Mcp-Param-Region`. */
  readonly name: string;
  /** The chain of `properties` keys from the schema root to the parameter. */
  readonly path: readonly string[];
  /** The parameter's JSON type, which decides how header and body values compare. */
  readonly type: 'string' | 'integer' | 'boolean';
}

/** The mirrored parameters of a tool, or why its annotations make the tool invalid. */
export type HeaderParameters =
  | { readonly ok: true; readonly parameters: readonly HeaderParameter[] }
  | { readonly ok: false; readonly reason: string };

/**
 * Reads and checks the `x-mcp-header` annotations of a tool's input schema. An annotation must
 * be a non-empty token, unique regardless of case, on a string, integer or boolean property
 * reached from the root through `properties` keys only; anything else invalidates the tool.
 */
export function headerParameters(inputSchema: unknown): HeaderParameters {
  const parameters: HeaderParameter[] = [];
  const reachable = new Set<unknown>();
  const walk = (schema: unknown, path: readonly string[]): string | undefined => {
    if (!isJsonObject(schema)) return undefined;
    if (path.length > 0 && HEADER_ANNOTATION in schema) {
      reachable.add(schema);
      const problem = checkAnnotation(schema, path);
      if (problem !== undefined) return problem;
      parameters.push({ name: schema[HEADER_ANNOTATION] as string, path, type: mirroredType(schema) });
    }
    const properties = schema.properties;
    if (!isJsonObject(properties)) return undefined;
    for (const [key, child] of Object.entries(properties)) {
      const problem = walk(child, [...path, key]);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
  const problem = walk(inputSchema, []);
  if (problem !== undefined) return { ok: false, reason: problem };
  const stray = countAnnotations(inputSchema, reachable);
  if (stray > 0) {
    return { ok: false, reason: `${HEADER_ANNOTATION} is used where it is not reachable through properties alone (inside items, a composition, a condition, $defs or at the root)` };
  }
  const seen = new Map<string, string>();
  for (const parameter of parameters) {
    const folded = parameter.name.toLowerCase();
    const earlier = seen.get(folded);
    if (earlier !== undefined) {
      return { ok: false, reason: `${HEADER_ANNOTATION} ${JSON.stringify(parameter.name)} repeats ${JSON.stringify(earlier)} (names are compared without case)` };
    }
    seen.set(folded, parameter.name);
  }
  return { ok: true, parameters };
}

function checkAnnotation(schema: { readonly [key: string]: unknown }, path: readonly string[]): string | undefined {
  const where = `property ${path.join('.')}`;
  const name = schema[HEADER_ANNOTATION];
  if (typeof name !== 'string' || name === '') return `${HEADER_ANNOTATION} of ${where} is empty or not a string`;
  if (!TOKEN.test(name)) return `${HEADER_ANNOTATION} ${JSON.stringify(name)} of ${where} is not an HTTP field-name token`;
  const types = Array.isArray(schema.type) ? schema.type.filter((type) => type !== 'null') : [schema.type];
  if (types.length === 0 || !types.every((type) => typeof type === 'string' && MIRRORABLE_TYPES.has(type))) {
    return `${HEADER_ANNOTATION} of ${where} is on a parameter of type ${JSON.stringify(schema.type)}; only string, integer and boolean can be mirrored`;
  }
  return undefined;
}

/** The JSON type of a checked annotated property (a `null` alternative aside). */
function mirroredType(schema: { readonly [key: string]: unknown }): HeaderParameter['type'] {
  const types = Array.isArray(schema.type) ? schema.type.filter((type) => type !== 'null') : [schema.type];
  return types[0] as HeaderParameter['type'];
}

/** Counts annotated subschemas anywhere in `schema` that are not in `allowed`. */
function countAnnotations(schema: unknown, allowed: ReadonlySet<unknown>, depth = 0): number {
  if (depth > 64 || typeof schema !== 'object' || schema === null) return 0;
  let count = 0;
  if (!Array.isArray(schema) && HEADER_ANNOTATION in schema && !allowed.has(schema)) count++;
  for (const child of Object.values(schema)) count += countAnnotations(child, allowed, depth + 1);
  return count;
}

/**
 * The `Mcp-Param-*` headers for a call's arguments: one per annotated parameter whose value is
 * present, not null and of a mirrorable kind (integers within the safe range). Added to `headers`
 * when given, which is returned.
 */
export function parameterHeaders(parameters: readonly HeaderParameter[], args: unknown, headers: Record<string, string> = {}): Record<string, string> {
  for (const parameter of parameters) {
    let value: unknown = args;
    for (const key of parameter.path) value = isJsonObject(value) ? value[key] : undefined;
    const text = typeof value === 'string'
      ? value
      : typeof value === 'boolean'
        ? String(value)
        : typeof value === 'number' && Number.isSafeInteger(value)
          ? String(value)
          : undefined;
    if (text !== undefined) headers[`${PARAM_HEADER_PREFIX}${parameter.name.toLowerCase()}`] = encodeHeaderValue(text);
  }
  return headers;
}

/**
 * `Mcp-Method` and, for requests addressing a named tool or prompt or a resource URI,
 * `Mcp-Name` for one outgoing message. Added to `headers` when given, which is returned: headers
 * are built by assignment into one object, because merging with spreads takes V8's slow path.
 */
export function standardHeaders(method: string, params: unknown, headers: Record<string, string> = {}): Record<string, string> {
  headers[METHOD_HEADER] = method;
  const name = isJsonObject(params) ? nameTarget(params) : undefined;
  if (name !== undefined) headers[NAME_HEADER] = encodeHeaderValue(name);
  return headers;
}

/**
 * What `Mcp-Name` names for a request with `params`: a tool or prompt name, a resource URI or
 * a task id, in that order. The client sends it and the server compares it, from this one rule.
 */
export function nameTarget(params: Readonly<Record<string, unknown>>): string | undefined {
  if (typeof params.name === 'string') return params.name;
  if (typeof params.uri === 'string') return params.uri;
  return typeof params.taskId === 'string' ? params.taskId : undefined;
}

// The server side: reading headers back and comparing them with the body.

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII, space and tab: what a header value may carry as is. */
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;

/**
 * The text a header value stands for: the value with surrounding whitespace trimmed, and
 * decoded when it uses the Base64 sentinel. Undefined when the sentinel's content is not
 * strict Base64 of UTF-8 text, or the value holds characters a header must not carry.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = raw.trim();
  if (!HEADER_SAFE.test(value)) return undefined;
  if (!(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX) && value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length)) {
    return value;
  }
  const encoded = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!BASE64.test(encoded)) return undefined;
  try {
    const bytes = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The value at `path` in `args`, following object members only. */
function valueAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (!isJsonObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** Why the `Mcp-Param-*` headers of a tool call disagree with its arguments, or undefined when they agree. */
export function parameterHeaderMismatch(parameters: readonly HeaderParameter[], args: unknown, header: (name: string) => string | undefined): string | undefined {
  for (const parameter of parameters) {
    const headerName = `Mcp-Param-${parameter.name}`;
    const raw = header(headerName);
    const value = valueAt(args, parameter.path);
    if (value === undefined || value === null) continue;
    if (raw === undefined) return `the ${headerName} header is missing although arguments.${parameter.path.join('.')} is set`;
    const text = decodeHeaderValue(raw);
    if (text === undefined) return `the ${headerName} header is not a valid header value`;
    const matches = parameter.type === 'integer'
      ? text.trim() !== '' && Number(text) === value
      : parameter.type === 'boolean'
        ? text === String(value)
        : text === value;
    if (!matches) return `the ${headerName} header does not match arguments.${parameter.path.join('.')}`;
  }
  return undefined;
}
