/**
 * The request metadata headers of Streamable HTTP in the stateless era (2026-07-28 on):
 * `Mcp-Method`, `Mcp-Name` and `Mcp-Param-{Name}` mirror body fields so intermediaries can
 * route without parsing JSON, and a server that reads the body must refuse a request whose
 * headers disagree with it (HeaderMismatch, HTTP 400). Values that are not plain ASCII travel
 * as `=?base64?…?=`; anything else is literal.
 */
import { isJsonObject } from '../jsonrpc.js';

/** A tool parameter mirrored into a header by an `x-mcp-header` annotation. */
export interface HeaderParameter {
  /** The `x-mcp-header` value: the header is `Mcp-Param-{name}`. */
  readonly name: string;
  /** The chain of `properties` keys from the schema root to the parameter. */
  readonly path: readonly string[];
  readonly type: 'string' | 'integer' | 'boolean';
}

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII, space and tab: what a header value may carry as is. */
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;
/** RFC 9110 token characters, for `x-mcp-header` names. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

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

/**
 * The parameters of a tool's input schema that carry a well-formed `x-mcp-header`: on a
 * primitive, reached through `properties` keys only.
 */
export function headerParameters(inputSchema: unknown): HeaderParameter[] {
  const found: HeaderParameter[] = [];
  const walk = (schema: unknown, path: string[]): void => {
    if (!isJsonObject(schema) || !isJsonObject(schema.properties)) return;
    for (const [key, property] of Object.entries(schema.properties)) {
      if (!isJsonObject(property)) continue;
      const name = property['x-mcp-header'];
      const type = property.type;
      if (typeof name === 'string' && TOKEN.test(name) && (type === 'string' || type === 'integer' || type === 'boolean')) {
        found.push({ name, path: [...path, key], type });
      }
      walk(property, [...path, key]);
    }
  };
  walk(inputSchema, []);
  return found;
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
