import type { ValidationIssue } from '../../generated/contract.js';

/**
 * A JSON Schema object. Keywords are left open (`unknown`), so schemas written `as const`,
 * loaded from JSON or produced by a schema library all fit without casts.
 */
export interface JsonSchemaObject {
  readonly [keyword: string]: unknown;
}

/** A JSON Schema: an object, or `true` (accepts anything) / `false` (accepts nothing). */
export type JsonSchema = boolean | JsonSchemaObject;

/** What checking one value produced: valid, or the failures with JSON Pointer paths. */
export type JsonSchemaResult =
  | { readonly valid: true }
  | { readonly valid: false; readonly errors: readonly ValidationIssue[] };

/** A schema prepared by a {@link JsonSchemaValidator}; call it once per value. */
export type JsonSchemaCheck = (value: unknown) => JsonSchemaResult;

/**
 * Validates values against JSON Schemas supplied at run time. Schemas of tools, prompts and
 * elicitation forms arrive as data, so they cannot be compiled ahead of time like the protocol
 * schemas; this interface lets an application choose how they are checked. `compile` runs once
 * per schema (at registration), the returned check once per value.
 *
 * The default, {@link InterpretingJsonSchemaValidator}, evaluates schemas without generating
 * code and so works where `eval` is forbidden (Workers, strict CSP); `mcpgen/node` adds an
 * ajv-backed one for Node.
 *
 * @example
 * ```ts
 * import { InterpretingJsonSchemaValidator } from 'mcpgen/advanced';
 *
 * const check = new InterpretingJsonSchemaValidator().compile({ type: 'object', required: ['id'] });
 * const result = check({});
 * if (!result.valid) console.log(result.errors[0]?.message); // must have required property 'id'
 * ```
 */
export interface JsonSchemaValidator {
  /** Prepares `schema`; throws when the schema itself is unusable (an unresolvable `$ref`, say). */
  compile(schema: JsonSchema): JsonSchemaCheck;
}
