/**
 * The JSON Schema keywords the validator emitter compiles, grouped and ordered the way ajv 8
 * evaluates them, so that the first failure (and so the reported issue) is the one ajv reported.
 */
import { CodegenError } from '../model.js';
import { ANNOTATION_KEYWORDS, isSchemaObject, type Schema } from '../schema-walk.js';

/** The data types a `type` keyword may name. */
export const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);

/** Type-specific keyword groups in ajv's order; a group applies only when the data has its type. */
export type GroupType = 'number' | 'string' | 'array' | 'object';

/**
 * Keywords that apply to any data, in evaluation order; then the typed groups, each in order.
 * `type` itself is checked before all of them (or, when the schema has one type with rules of
 * its own, in place of that type's group, after the untyped keywords), as ajv does.
 */
export const UNTYPED_KEYWORDS = ['$ref', 'const', 'enum', 'not', 'anyOf', 'allOf'] as const;
export const GROUPS: ReadonlyArray<readonly [GroupType, readonly string[]]> = [
  ['number', ['maximum', 'minimum']],
  ['string', ['maxLength', 'minLength', 'format']],
  ['array', ['maxItems', 'items']],
  ['object', ['required', 'propertyNames', 'additionalProperties', 'properties']],
];

/** The formats a schema may name; any other fails codegen, as ajv's strict mode did. */
export const FORMATS = new Set(['uri', 'byte', 'uri-template']);

/** Keywords that change nothing a validator decides; `$schema` names the dialect only. */
const IGNORED = new Set([...ANNOTATION_KEYWORDS, '$schema']);

const SUPPORTED = new Set<string>([...UNTYPED_KEYWORDS, ...GROUPS.flatMap(([, keywords]) => keywords), 'type']);

/** Where a schema node sits, for error messages. */
export interface Site {
  readonly revision: string;
  readonly definition: string;
}

export function codegenError(site: Site, text: string): CodegenError {
  return new CodegenError(`revision ${site.revision}: definition ${site.definition}: ${text}`);
}

/** True for a schema that accepts everything: `true`, `{}` or only annotations. */
export function acceptsAll(schema: unknown): boolean {
  if (schema === true) return true;
  return isSchemaObject(schema) && Object.keys(schema).every((key) => IGNORED.has(key));
}

/** A `propertyNames` schema every property name (a string) passes, so it needs no code. */
export function acceptsEveryName(schema: unknown): boolean {
  if (acceptsAll(schema)) return true;
  return isSchemaObject(schema) && Object.keys(schema).every((key) => IGNORED.has(key) || key === 'type') && schema.type === 'string';
}

/** Throws unless every keyword of this node (not its children) is compiled with ajv's meaning. */
export function checkKeywords(site: Site, schema: Schema): void {
  for (const key of Object.keys(schema)) {
    if (IGNORED.has(key)) continue;
    if (!SUPPORTED.has(key)) throw codegenError(site, `uses keyword "${key}", which the validator emitter does not support`);
  }
  const type = schema.type;
  if (type !== undefined) {
    const names = Array.isArray(type) ? type : [type];
    if (names.length === 0 || names.some((name) => typeof name !== 'string' || !JSON_TYPES.has(name))) throw codegenError(site, `has an invalid type ${JSON.stringify(type)}`);
  }
  if (schema.format !== undefined && (typeof schema.format !== 'string' || !FORMATS.has(schema.format))) {
    throw codegenError(site, `uses format ${JSON.stringify(schema.format)}, which the validator emitter does not support`);
  }
  if (schema.items !== undefined && !isSchemaObject(schema.items) && typeof schema.items !== 'boolean') {
    throw codegenError(site, 'uses tuple "items" (an array of schemas), which the validator emitter does not support');
  }
  for (const key of ['maximum', 'minimum', 'maxItems', 'maxLength', 'minLength']) {
    if (schema[key] !== undefined && (typeof schema[key] !== 'number' || !Number.isFinite(schema[key]))) throw codegenError(site, `has a non-numeric "${key}"`);
  }
  if (schema.required !== undefined && (!Array.isArray(schema.required) || schema.required.some((name) => typeof name !== 'string'))) {
    throw codegenError(site, 'has a "required" that is not a list of names');
  }
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) throw codegenError(site, 'has an "enum" that is not a list');
  for (const key of ['anyOf', 'allOf']) {
    if (schema[key] !== undefined && (!Array.isArray(schema[key]) || schema[key].length === 0)) throw codegenError(site, `has an empty or non-list "${key}"`);
  }
}
