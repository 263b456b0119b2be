/**
 * The Standard Schema v1 contracts (https://standardschema.dev), declared here so that mcpgen
 * accepts any schema library that implements them (zod 4, valibot, arktype…) without
 * depending on one. Only the members mcpgen reads are declared; a library's schema values
 * satisfy these interfaces structurally.
 */

/** A path segment of a Standard Schema issue: a key, or an object wrapping one. */
export type StandardPathSegment = PropertyKey | { readonly key: PropertyKey };

/** One failure reported by a Standard Schema `validate`. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<StandardPathSegment> | undefined;
}

/** The outcome of a Standard Schema `validate`: a value, or issues. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardIssue> };

/** The JSON Schema dialects a Standard JSON Schema converter may be asked for. */
export type StandardJsonSchemaTarget = 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | (string & {});

/** What a Standard Schema value carries under its `~standard` key. */
export interface StandardProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  /** Type carriers only; never read at run time. */
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  /** Present on validating schemas (Standard Schema v1). */
  readonly validate?: ((value: unknown, options?: { readonly libraryOptions?: Record<string, unknown> }) => StandardResult<Output> | Promise<StandardResult<Output>>) | undefined;
  /** Present on schemas that convert to JSON Schema (Standard JSON Schema v1). */
  readonly jsonSchema?: {
    readonly input: (options: { readonly target: StandardJsonSchemaTarget }) => Record<string, unknown>;
    readonly output: (options: { readonly target: StandardJsonSchemaTarget }) => Record<string, unknown>;
  } | undefined;
}

/**
 * A schema library value usable wherever mcpgen takes a schema: it must convert to JSON Schema
 * (for `tools/list` and elicitation requests); when it also validates, mcpgen uses its
 * `validate`, so that the library's defaults and transforms apply.
 */
export interface StandardJsonSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardProps<Input, Output>;
}

/** True when `value` is a Standard Schema value (has a `~standard` member). */
export function isStandardSchema(value: unknown): value is StandardJsonSchemaV1 {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && '~standard' in value;
}
