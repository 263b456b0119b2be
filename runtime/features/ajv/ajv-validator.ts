import { createRequire } from 'node:module';
import type { ValidationIssue } from '../../core/contract.js';
import type { JsonSchema, JsonSchemaCheck, JsonSchemaResult, JsonSchemaValidator } from '../../json-schema/types.js';

/**
 * ajv's own options (its `Options` type), spelled here without naming the ajv package so that
 * these declarations compile for users who have not installed the optional peer.
 */
export type AjvOptions = Readonly<Record<string, unknown>>;

/** Options of {@link AjvJsonSchemaValidator}. */
export interface AjvJsonSchemaValidatorOptions {
  /** Extra ajv options (strict mode is off by default, since tool schemas come from elsewhere; all errors are collected). */
  readonly ajv?: AjvOptions;
}

/** The fields of an ajv error object read here. */
interface AjvError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string | undefined;
  readonly params: object;
}

/** A compiled ajv validator: a type guard that leaves its errors on itself. */
interface AjvValidate {
  (value: unknown): boolean;
  errors?: readonly AjvError[] | null | undefined;
}

const VALID: JsonSchemaResult = { valid: true };

/** The part of an ajv instance used here (Ajv and Ajv2020 alike). */
interface AjvInstance {
  compile(schema: object | boolean): AjvValidate;
}

type AjvConstructor = new (options: AjvOptions) => AjvInstance;

interface AjvModules {
  readonly draft07: AjvConstructor;
  readonly modern: AjvConstructor;
  readonly addFormats: (ajv: AjvInstance) => unknown;
}

let modules: AjvModules | undefined;

/**
 * Loads ajv on first use rather than at import, so `mcpgen/node` works without ajv installed
 * for applications that never construct this validator (ajv is an optional peer dependency).
 */
function loadAjv(): AjvModules {
  if (modules === undefined) {
    const require = createRequire(import.meta.url);
    const draft07 = require('ajv') as { default: AjvConstructor };
    const modern = require('ajv/dist/2020.js') as { default: AjvConstructor };
    const formats = require('ajv-formats') as { default: (ajv: AjvInstance) => unknown };
    modules = { draft07: draft07.default, modern: modern.default, addFormats: formats.default };
  }
  return modules;
}

/**
 * A {@link JsonSchemaValidator} backed by ajv, which compiles each schema to JavaScript. It is
 * faster than the interpreting validator on hot paths but generates code at run time, so it
 * is Node-only (not for Workers or strict CSP). Schemas declaring draft-07 (`$schema`) are
 * compiled as draft-07, every other one as 2020-12. Needs the `ajv` and `ajv-formats` packages,
 * loaded when the first validator is constructed.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { AjvJsonSchemaValidator } from 'mcpgen/node';
 *
 * const mcp = new McpServer({ name: 'fast', version: '1.0.0' }, { validator: new AjvJsonSchemaValidator() });
 * ```
 */
export class AjvJsonSchemaValidator implements JsonSchemaValidator {
  private readonly options: AjvOptions;
  private modern: AjvInstance | undefined;
  private draft07: AjvInstance | undefined;

  constructor(options: AjvJsonSchemaValidatorOptions = {}) {
    // Nine digits of multipleOf tolerance, as the interpreting validator has: 0.3 is a multiple of 0.1.
    this.options = { strict: false, allErrors: true, multipleOfPrecision: 9, ...options.ajv };
    loadAjv();
  }

  compile(schema: JsonSchema): JsonSchemaCheck {
    const validate = this.instanceFor(schema).compile(schema);
    return (value) => (validate(value) ? VALID : { valid: false, errors: (validate.errors ?? []).map(toIssue) });
  }

  private instanceFor(schema: JsonSchema): AjvInstance {
    const dialect = typeof schema === 'object' && typeof schema.$schema === 'string' ? schema.$schema : '';
    const ajv = loadAjv();
    if (/draft-0[67]/.test(dialect)) {
      this.draft07 ??= withFormats(new ajv.draft07(this.options), ajv);
      return this.draft07;
    }
    this.modern ??= withFormats(new ajv.modern(this.options), ajv);
    return this.modern;
  }
}

function withFormats(instance: AjvInstance, ajv: AjvModules): AjvInstance {
  ajv.addFormats(instance);
  return instance;
}

function toIssue(error: AjvError): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  // ajv names the offending property only in params; models need it in the message.
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') message = `must have required property '${params.missingProperty}'`;
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') message = `must NOT have additional property '${params.additionalProperty}'`;
  return { instancePath: error.instancePath, keyword: error.keyword, message, params };
}
