import { escapePointerToken, isPlainObject } from './json-values.js';
import { isStandardSchema, type StandardJsonSchemaV1, type StandardPathSegment } from './standard-schema.js';
import type { JsonSchemaObject, JsonSchemaValidator } from './types.js';

/**
 * An object schema written as its properties, one library schema each (`{ city: z.string() }`),
 * as the official v1 SDK takes tool arguments. A property whose schema accepts `undefined`
 * (`.optional()`, a default) is optional; keys outside the shape are dropped when parsing.
 */
export type RawShape = { readonly [key: string]: StandardJsonSchemaV1 };

/** A schema as mcpgen accepts it: a JSON Schema object, a Standard JSON Schema library value, or a raw shape of them. */
export type SchemaInput = JsonSchemaObject | StandardJsonSchemaV1 | RawShape;

/**
 * Turns a library schema into JSON Schema when the library cannot by itself (zod 3, valibot
 * without its converter wrapper): return the JSON Schema of the given side.
 */
export type ToJsonSchema = (schema: StandardJsonSchemaV1, side: SchemaSide) => JsonSchemaObject;

/** One problem found while parsing a value: a JSON Pointer and a message. */
export interface SchemaIssue {
  readonly path: string;
  readonly message: string;
}

/** The outcome of {@link ParsingSchema.parse}. */
export type ParseOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly SchemaIssue[] };

/**
 * A schema converted once (at registration) into what the runtime needs on every use: the
 * JSON Schema for the wire and a parse function. Library schemas parse with their own
 * `validate`, so that their defaults and transforms apply; JSON Schemas are checked by the
 * configured {@link JsonSchemaValidator} and passed through unchanged.
 */
export interface ParsingSchema<T = unknown> {
  readonly jsonSchema: JsonSchemaObject;
  parse(value: unknown): ParseOutcome<T> | Promise<ParseOutcome<T>>;
}

/** Which side of a library schema to describe: what callers send, or what parsing yields. */
export type SchemaSide = 'input' | 'output';

/**
 * Converts a schema argument once. Throws when a library schema cannot produce JSON Schema, or
 * when the JSON Schema is unusable (an unresolvable `$ref`, an invalid pattern).
 */
export function toParsingSchema<T>(schema: SchemaInput, validator: JsonSchemaValidator, side: SchemaSide, what: string, convert?: ToJsonSchema): ParsingSchema<T> {
  if (isRawShape(schema)) return fromRawShape<T>(schema, side, what, convert);
  if (isStandardSchema(schema)) {
    const props = schema['~standard'];
    const jsonSchema = libraryJsonSchema(schema, side, what, convert);
    const validate = props.validate;
    if (validate === undefined) return fromJsonSchema<T>(jsonSchema, validator);
    return {
      jsonSchema,
      parse: (value) => {
        const result = validate(value);
        return result instanceof Promise ? result.then(fromStandardResult<T>) : fromStandardResult<T>(result);
      },
    };
  }
  if (!isPlainObject(schema)) throw new TypeError(`${what}: a schema must be a JSON Schema object or a Standard Schema value`);
  return fromJsonSchema<T>(schema, validator);
}

/** True for a non-empty plain object whose every member is a library schema. */
export function isRawShape(schema: unknown): schema is RawShape {
  if (!isPlainObject(schema) || isStandardSchema(schema)) return false;
  const values = Object.values(schema);
  return values.length > 0 && values.every(isStandardSchema);
}

function libraryJsonSchema(schema: StandardJsonSchemaV1, side: SchemaSide, what: string, convert: ToJsonSchema | undefined): JsonSchemaObject {
  const props = schema['~standard'];
  try {
    if (props.jsonSchema !== undefined) return props.jsonSchema[side]({ target: 'draft-2020-12' });
    if (convert !== undefined) return convert(schema, side);
  } catch (error) {
    throw new TypeError(`${what}: the ${props.vendor} schema cannot be expressed as JSON Schema: ${(error as Error).message}`);
  }
  throw new TypeError(
    `${what}: the ${props.vendor} schema cannot convert itself to JSON Schema (it lacks ~standard.jsonSchema). `
      + 'Give McpServer a toJsonSchema option (for zod 3: zodToJsonSchema from zod-to-json-schema; for valibot: toJsonSchema from @valibot/to-json-schema), '
      + 'use a version of the library that implements Standard JSON Schema (zod 4.2+, arktype 2), or pass a JSON Schema',
  );
}

/**
 * A raw shape as the object schema it stands for: each property converted and parsed by its own
 * library schema, optional where that schema accepts `undefined`.
 */
function fromRawShape<T>(shape: RawShape, side: SchemaSide, what: string, convert: ToJsonSchema | undefined): ParsingSchema<T> {
  const entries = Object.entries(shape);
  const properties: Record<string, JsonSchemaObject> = {};
  const required: string[] = [];
  for (const [key, property] of entries) {
    const { $schema: _dialect, ...converted } = libraryJsonSchema(property, side, `${what}, property ${key}`, convert);
    let json: JsonSchemaObject = converted;
    const probe = property['~standard'].validate?.(undefined);
    const optional = probe !== undefined && !(probe instanceof Promise) && probe.issues === undefined;
    if (optional) json = withoutUndefined(json);
    else required.push(key);
    properties[key] = json;
  }
  return {
    jsonSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
    parse: (value) => {
      if (!isPlainObject(value)) return { ok: false, issues: [{ path: '', message: 'must be an object' }] };
      const outcomes = entries.map(([key, property]) => {
        const validate = property['~standard'].validate;
        const result = validate === undefined ? { value: value[key] } : validate(value[key]);
        return result instanceof Promise ? result.then((settled) => [key, settled] as const) : ([key, result] as const);
      });
      const combine = (settled: ReadonlyArray<readonly [string, LibraryOutcome]>): ParseOutcome<T> => {
        const out: Record<string, unknown> = {};
        const issues: SchemaIssue[] = [];
        for (const [key, result] of settled) {
          const parsed = fromStandardResult<unknown>(result);
          if (!parsed.ok) issues.push(...parsed.issues.map((issue) => ({ path: `/${escapePointerToken(key)}${issue.path}`, message: issue.message })));
          else if (parsed.value !== undefined || key in value) out[key] = parsed.value;
        }
        return issues.length > 0 ? { ok: false, issues } : { ok: true, value: out as T };
      };
      return outcomes.some((outcome) => outcome instanceof Promise) ? Promise.all(outcomes).then(combine) : combine(outcomes as Array<readonly [string, LibraryOutcome]>);
    },
  };
}

/**
 * A converted optional schema as a property schema: converters spell "undefined or X" as
 * `anyOf: [{ not: {} }, X]`, which as a property is just X (absence is what `required` says).
 */
function withoutUndefined(json: JsonSchemaObject): JsonSchemaObject {
  const anyOf = json.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return json;
  const never = (branch: unknown) => isPlainObject(branch) && Object.keys(branch).length === 1 && isPlainObject(branch.not) && Object.keys(branch.not).length === 0;
  const rest = anyOf.filter((branch) => !never(branch));
  if (rest.length !== 1 || !isPlainObject(rest[0])) return json;
  const { anyOf: _dropped, ...others } = json;
  return { ...others, ...(rest[0] as JsonSchemaObject) };
}

function fromJsonSchema<T>(jsonSchema: JsonSchemaObject, validator: JsonSchemaValidator): ParsingSchema<T> {
  const check = validator.compile(jsonSchema);
  return {
    jsonSchema,
    parse: (value) => {
      const result = check(value);
      if (result.valid) return { ok: true, value: value as T };
      return { ok: false, issues: result.errors.map((error) => ({ path: error.instancePath, message: error.message })) };
    },
  };
}

/** What a library's `validate` settles with. */
type LibraryOutcome = { readonly value?: unknown; readonly issues?: ReadonlyArray<{ message: string; path?: ReadonlyArray<StandardPathSegment> | undefined }> | undefined };

function fromStandardResult<T>(result: LibraryOutcome): ParseOutcome<T> {
  if (result.issues === undefined) return { ok: true, value: result.value as T };
  return { ok: false, issues: result.issues.map((issue) => ({ path: pointerOf(issue.path ?? []), message: issue.message })) };
}

function pointerOf(path: ReadonlyArray<StandardPathSegment>): string {
  return path.map((segment) => `/${escapePointerToken(String(typeof segment === 'object' ? segment.key : segment))}`).join('');
}

/**
 * Renders issues for a reader that must fix the value, e.g. a model retrying a tool call:
 * `arguments/city: must be string; arguments: must have required property 'date'`.
 */
export function describeSchemaIssues(issues: readonly SchemaIssue[], label: string): string {
  return issues
    .slice(0, 10)
    .map((issue) => `${label}${issue.path}: ${issue.message}`)
    .join('; ');
}
