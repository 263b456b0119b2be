import { escapePointerToken, isPlainObject } from './json-values.js';
import { isStandardSchema, type StandardJsonSchemaV1, type StandardPathSegment } from './standard-schema.js';
import type { JsonSchemaObject, JsonSchemaValidator } from './types.js';

/** A schema as mcpgen accepts it: a JSON Schema object, or a Standard JSON Schema library value. */
export type SchemaInput = JsonSchemaObject | StandardJsonSchemaV1;

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
export function toParsingSchema<T>(schema: SchemaInput, validator: JsonSchemaValidator, side: SchemaSide, what: string): ParsingSchema<T> {
  if (isStandardSchema(schema)) {
    const props = schema['~standard'];
    if (props.jsonSchema === undefined) {
      throw new TypeError(`${what}: the ${props.vendor} schema cannot convert to JSON Schema (no ~standard.jsonSchema; upgrade the library or pass a JSON Schema)`);
    }
    let jsonSchema: JsonSchemaObject;
    try {
      jsonSchema = props.jsonSchema[side]({ target: 'draft-2020-12' });
    } catch (error) {
      throw new TypeError(`${what}: the ${props.vendor} schema cannot be expressed as JSON Schema: ${(error as Error).message}`);
    }
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

function fromStandardResult<T>(result: { readonly value?: unknown; readonly issues?: ReadonlyArray<{ message: string; path?: ReadonlyArray<StandardPathSegment> | undefined }> | undefined }): ParseOutcome<T> {
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
