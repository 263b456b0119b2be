import type { ValidationIssue } from '../../generated/contract.js';
import { defaultFormats, type FormatCheck } from './formats.js';
import { canonicalJson, escapePointerToken, isPlainObject, jsonEqual, jsonTypeOf } from './json-values.js';
import { PreparedSchema } from './prepare.js';
import type { JsonSchema, JsonSchemaCheck, JsonSchemaObject, JsonSchemaResult, JsonSchemaValidator } from './types.js';

/** Options of {@link InterpretingJsonSchemaValidator}. */
export interface InterpretingValidatorOptions {
  /**
   * How `format` is treated: `'assert'` (default) checks date, time, date-time, email, uri,
   * uuid, ipv4, ipv6 and hostname; `'ignore'` treats every format as an annotation; a record
   * adds or replaces checks on top of the defaults.
   */
  readonly formats?: 'assert' | 'ignore' | Readonly<Record<string, FormatCheck>>;
  /** Collect at most this many errors per value (default 20). */
  readonly maxErrors?: number;
  /** Fail values nested deeper than this through `$ref` or subschemas (default 256). */
  readonly maxDepth?: number;
}

type Sink = ValidationIssue[] | null;

const VALID: JsonSchemaResult = { valid: true };

/**
 * A JSON Schema 2020-12 validator that interprets schemas instead of compiling them to code:
 * no `eval`, no `new Function`, so it runs on Workers and under strict CSP. It also accepts
 * the draft-07 spellings schema libraries still emit (`definitions`, array-form `items` with
 * `additionalItems`, `dependencies`, boolean `exclusiveMinimum`).
 *
 * Supported: type, enum, const, the numeric, string, array and object assertions, properties,
 * patternProperties, additionalProperties, propertyNames, required, dependentRequired,
 * dependentSchemas, items, prefixItems, contains, uniqueItems, allOf, anyOf, oneOf, not,
 * if/then/else, format (see options) and `$ref` to `#`, `#/json/pointer` and `#anchor`.
 * `unevaluatedProperties`/`unevaluatedItems` and remote references are not evaluated.
 *
 * @example
 * ```ts
 * import { InterpretingJsonSchemaValidator } from 'mcpgen/advanced';
 * const validator = new InterpretingJsonSchemaValidator();
 * const check = validator.compile({ type: 'object', properties: { n: { type: 'integer', minimum: 1 } } });
 * check({ n: 0 }); // { valid: false, errors: [{ instancePath: '/n', keyword: 'minimum', message: 'must be >= 1', … }] }
 * ```
 */
export class InterpretingJsonSchemaValidator implements JsonSchemaValidator {
  private readonly formats: Readonly<Record<string, FormatCheck>>;
  private readonly maxErrors: number;
  private readonly maxDepth: number;

  constructor(options: InterpretingValidatorOptions = {}) {
    const formats = options.formats ?? 'assert';
    this.formats = formats === 'ignore' ? {} : formats === 'assert' ? defaultFormats : { ...defaultFormats, ...formats };
    this.maxErrors = options.maxErrors ?? 20;
    this.maxDepth = options.maxDepth ?? 256;
  }

  compile(schema: JsonSchema): JsonSchemaCheck {
    const prepared = new PreparedSchema(schema);
    return (value) => {
      const run = new Evaluation(prepared, this.formats, this.maxErrors, this.maxDepth);
      const errors: ValidationIssue[] = [];
      return run.check(prepared.root, value, '', 0, errors) ? VALID : { valid: false, errors };
    };
  }
}

/** One evaluation of one value; `sink` null means "only the verdict matters", so it stops early. */
class Evaluation {
  constructor(
    private readonly schema: PreparedSchema,
    private readonly formats: Readonly<Record<string, FormatCheck>>,
    private readonly maxErrors: number,
    private readonly maxDepth: number,
  ) {}

  check(schema: JsonSchema, value: unknown, path: string, depth: number, sink: Sink): boolean {
    if (schema === true) return true;
    if (schema === false) return this.fail(sink, path, 'false schema', 'boolean schema is false');
    if (depth > this.maxDepth) return this.fail(sink, path, '$ref', `is nested deeper than ${this.maxDepth} levels`);
    let ok = true;
    const next = depth + 1;
    if (typeof schema.$ref === 'string') ok = this.check(this.schema.target(schema.$ref), value, path, next, sink) && ok;
    if (!ok && sink === null) return false;
    ok = this.checkGeneric(schema, value, path, sink) && ok;
    if (!ok && sink === null) return false;
    if (typeof value === 'number') ok = this.checkNumber(schema, value, path, sink) && ok;
    else if (typeof value === 'string') ok = this.checkString(schema, value, path, sink) && ok;
    else if (Array.isArray(value)) ok = this.checkArray(schema, value, path, next, sink) && ok;
    else if (isPlainObject(value)) ok = this.checkObject(schema, value, path, next, sink) && ok;
    if (!ok && sink === null) return false;
    return this.checkCombinators(schema, value, path, next, sink) && ok;
  }

  private fail(sink: Sink, path: string, keyword: string, message: string, params: Record<string, unknown> = {}): false {
    if (sink !== null && sink.length < this.maxErrors) sink.push({ instancePath: path, keyword, message, params });
    return false;
  }

  private checkGeneric(schema: JsonSchemaObject, value: unknown, path: string, sink: Sink): boolean {
    let ok = true;
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
      const actual = jsonTypeOf(value);
      if (!types.some((type) => type === actual || (type === 'number' && actual === 'integer'))) {
        ok = this.fail(sink, path, 'type', `must be ${types.join(' or ')}`, { type: schema.type });
        if (sink === null) return false;
      }
    }
    if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => jsonEqual(allowed, value))) {
      const shown = schema.enum.slice(0, 10).map((allowed) => JSON.stringify(allowed)).join(', ');
      ok = this.fail(sink, path, 'enum', `must be one of ${shown}${schema.enum.length > 10 ? ', …' : ''}`, { allowedValues: schema.enum });
    }
    if ('const' in schema && !jsonEqual(schema.const, value)) {
      ok = this.fail(sink, path, 'const', `must be equal to ${JSON.stringify(schema.const)}`, { allowedValue: schema.const });
    }
    return ok;
  }

  private checkNumber(schema: JsonSchemaObject, value: number, path: string, sink: Sink): boolean {
    let ok = true;
    const bound = (keyword: string, limit: unknown, passes: (limit: number) => boolean, comparison: string): void => {
      if (typeof limit === 'number' && !passes(limit)) ok = this.fail(sink, path, keyword, `must be ${comparison} ${limit}`, { comparison, limit });
    };
    // Draft-04 spelled exclusive bounds as booleans next to minimum/maximum.
    const exclusiveMin = schema.exclusiveMinimum === true ? schema.minimum : schema.exclusiveMinimum;
    const exclusiveMax = schema.exclusiveMaximum === true ? schema.maximum : schema.exclusiveMaximum;
    if (schema.exclusiveMinimum !== true) bound('minimum', schema.minimum, (limit) => value >= limit, '>=');
    if (schema.exclusiveMaximum !== true) bound('maximum', schema.maximum, (limit) => value <= limit, '<=');
    bound('exclusiveMinimum', exclusiveMin, (limit) => value > limit, '>');
    bound('exclusiveMaximum', exclusiveMax, (limit) => value < limit, '<');
    const divisor = schema.multipleOf;
    if (typeof divisor === 'number' && divisor > 0 && !isMultiple(value, divisor)) {
      ok = this.fail(sink, path, 'multipleOf', `must be multiple of ${divisor}`, { multipleOf: divisor });
    }
    return ok;
  }

  private checkString(schema: JsonSchemaObject, value: string, path: string, sink: Sink): boolean {
    let ok = true;
    if (typeof schema.minLength === 'number' || typeof schema.maxLength === 'number') {
      const length = codePointLength(value);
      if (typeof schema.minLength === 'number' && length < schema.minLength) {
        ok = this.fail(sink, path, 'minLength', `must NOT have fewer than ${schema.minLength} characters`, { limit: schema.minLength });
      }
      if (typeof schema.maxLength === 'number' && length > schema.maxLength) {
        ok = this.fail(sink, path, 'maxLength', `must NOT have more than ${schema.maxLength} characters`, { limit: schema.maxLength });
      }
    }
    if (typeof schema.pattern === 'string' && !this.schema.regex(schema.pattern).test(value)) {
      ok = this.fail(sink, path, 'pattern', `must match pattern "${schema.pattern}"`, { pattern: schema.pattern });
    }
    if (typeof schema.format === 'string') {
      const format = Object.hasOwn(this.formats, schema.format) ? this.formats[schema.format] : undefined;
      if (format !== undefined && !format(value)) ok = this.fail(sink, path, 'format', `must match format "${schema.format}"`, { format: schema.format });
    }
    return ok;
  }

  private checkArray(schema: JsonSchemaObject, value: readonly unknown[], path: string, depth: number, sink: Sink): boolean {
    let ok = true;
    const at = (index: number): string => `${path}/${index}`;
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) {
      ok = this.fail(sink, path, 'minItems', `must NOT have fewer than ${schema.minItems} items`, { limit: schema.minItems });
    }
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
      ok = this.fail(sink, path, 'maxItems', `must NOT have more than ${schema.maxItems} items`, { limit: schema.maxItems });
    }
    if (!ok && sink === null) return false;
    // Array-form `items` is draft-07's tuple; `additionalItems` then covers the rest.
    const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
    for (let i = 0; i < value.length; i++) {
      const itemSchema = i < tuple.length ? (tuple[i] as JsonSchema) : (rest as JsonSchema | undefined);
      if (itemSchema !== undefined && !this.check(itemSchema, value[i], at(i), depth, sink)) {
        ok = false;
        if (sink === null) return false;
      }
    }
    if (schema.contains !== undefined) {
      let matches = 0;
      for (const item of value) if (this.check(schema.contains as JsonSchema, item, path, depth, null)) matches++;
      const min = typeof schema.minContains === 'number' ? schema.minContains : 1;
      if (matches < min) ok = this.fail(sink, path, 'contains', `must contain at least ${min} valid item(s)`, { minContains: min });
      if (typeof schema.maxContains === 'number' && matches > schema.maxContains) {
        ok = this.fail(sink, path, 'maxContains', `must contain at most ${schema.maxContains} valid item(s)`, { maxContains: schema.maxContains });
      }
    }
    if (schema.uniqueItems === true) {
      const seen = new Map<string, number>();
      for (let i = 0; i < value.length; i++) {
        const key = canonicalJson(value[i]);
        const first = seen.get(key);
        if (first !== undefined) {
          ok = this.fail(sink, path, 'uniqueItems', `must NOT have duplicate items (items ${first} and ${i} are identical)`, { i: first, j: i });
          break;
        }
        seen.set(key, i);
      }
    }
    return ok;
  }

  private checkObject(schema: JsonSchemaObject, value: Record<string, unknown>, path: string, depth: number, sink: Sink): boolean {
    let ok = true;
    const keys = Object.keys(value);
    const at = (key: string): string => `${path}/${escapePointerToken(key)}`;
    const failed = (): boolean => {
      ok = false;
      return sink === null;
    };
    if (Array.isArray(schema.required)) {
      for (const name of schema.required as string[]) {
        if (Object.hasOwn(value, name)) continue;
        this.fail(sink, path, 'required', `must have required property '${name}'`, { missingProperty: name });
        if (failed()) return false;
      }
    }
    if (typeof schema.minProperties === 'number' && keys.length < schema.minProperties) {
      ok = this.fail(sink, path, 'minProperties', `must NOT have fewer than ${schema.minProperties} properties`, { limit: schema.minProperties });
    }
    if (typeof schema.maxProperties === 'number' && keys.length > schema.maxProperties) {
      ok = this.fail(sink, path, 'maxProperties', `must NOT have more than ${schema.maxProperties} properties`, { limit: schema.maxProperties });
    }
    if (!ok && sink === null) return false;
    const properties = isPlainObject(schema.properties) ? schema.properties : undefined;
    const patterns = isPlainObject(schema.patternProperties) ? Object.keys(schema.patternProperties) : [];
    for (const key of keys) {
      let covered = false;
      if (properties !== undefined && Object.hasOwn(properties, key)) {
        covered = true;
        if (!this.check(properties[key] as JsonSchema, value[key], at(key), depth, sink) && failed()) return false;
      }
      for (const source of patterns) {
        if (!this.schema.regex(source).test(key)) continue;
        covered = true;
        if (!this.check((schema.patternProperties as JsonSchemaObject)[source] as JsonSchema, value[key], at(key), depth, sink) && failed()) return false;
      }
      if (!covered && schema.additionalProperties !== undefined) {
        if (schema.additionalProperties === false) {
          this.fail(sink, path, 'additionalProperties', `must NOT have additional property '${key}'`, { additionalProperty: key });
          if (failed()) return false;
        } else if (!this.check(schema.additionalProperties as JsonSchema, value[key], at(key), depth, sink) && failed()) {
          return false;
        }
      }
      if (schema.propertyNames !== undefined && !this.check(schema.propertyNames as JsonSchema, key, path, depth, null)) {
        this.fail(sink, path, 'propertyNames', `property name '${key}' is invalid`, { propertyName: key });
        if (failed()) return false;
      }
    }
    return this.checkDependencies(schema, value, path, depth, sink) && ok;
  }

  private checkDependencies(schema: JsonSchemaObject, value: Record<string, unknown>, path: string, depth: number, sink: Sink): boolean {
    let ok = true;
    const required: Record<string, unknown> = { ...(isPlainObject(schema.dependentRequired) ? schema.dependentRequired : {}) };
    const schemas: Record<string, unknown> = { ...(isPlainObject(schema.dependentSchemas) ? schema.dependentSchemas : {}) };
    // Draft-07's `dependencies` holds both kinds.
    if (isPlainObject(schema.dependencies)) {
      for (const [key, dependency] of Object.entries(schema.dependencies)) (Array.isArray(dependency) ? required : schemas)[key] = dependency;
    }
    for (const [key, needed] of Object.entries(required)) {
      if (!Object.hasOwn(value, key) || !Array.isArray(needed)) continue;
      for (const name of needed as string[]) {
        if (!Object.hasOwn(value, name)) {
          ok = this.fail(sink, path, 'dependentRequired', `must have property '${name}' when property '${key}' is present`, { property: key, missingProperty: name });
          if (sink === null) return false;
        }
      }
    }
    for (const [key, dependent] of Object.entries(schemas)) {
      if (Object.hasOwn(value, key) && !this.check(dependent as JsonSchema, value, path, depth, sink)) {
        ok = false;
        if (sink === null) return false;
      }
    }
    return ok;
  }

  private checkCombinators(schema: JsonSchemaObject, value: unknown, path: string, depth: number, sink: Sink): boolean {
    let ok = true;
    if (Array.isArray(schema.allOf)) {
      for (const part of schema.allOf as JsonSchema[]) {
        if (!this.check(part, value, path, depth, sink)) {
          ok = false;
          if (sink === null) return false;
        }
      }
    }
    if (Array.isArray(schema.anyOf) && !(schema.anyOf as JsonSchema[]).some((part) => this.check(part, value, path, depth, null))) {
      ok = this.reportBranches(schema.anyOf as JsonSchema[], value, path, depth, sink, 'anyOf', 'must match at least one schema in anyOf');
      if (sink === null) return false;
    }
    if (Array.isArray(schema.oneOf)) {
      const passing = (schema.oneOf as JsonSchema[]).flatMap((part, index) => (this.check(part, value, path, depth, null) ? [index] : []));
      if (passing.length === 0) ok = this.reportBranches(schema.oneOf as JsonSchema[], value, path, depth, sink, 'oneOf', 'must match exactly one schema in oneOf');
      else if (passing.length > 1) ok = this.fail(sink, path, 'oneOf', `must match exactly one schema in oneOf (matches ${passing.join(' and ')})`, { passingSchemas: passing });
      if (!ok && sink === null) return false;
    }
    if (schema.not !== undefined && this.check(schema.not as JsonSchema, value, path, depth, null)) {
      ok = this.fail(sink, path, 'not', 'must NOT be valid against the "not" schema');
      if (sink === null) return false;
    }
    if (schema.if !== undefined) {
      const branch = this.check(schema.if as JsonSchema, value, path, depth, null) ? 'then' : 'else';
      const target = schema[branch] as JsonSchema | undefined;
      if (target !== undefined && !this.check(target, value, path, depth, sink)) {
        ok = false;
        if (sink !== null && sink.length < this.maxErrors) sink.push({ instancePath: path, keyword: 'if', message: `must match "${branch}" schema`, params: { failingKeyword: branch } });
      }
    }
    return ok;
  }

  /**
   * Reports a failed anyOf/oneOf. When exactly one branch fits the value's type, its own errors
   * say far more than "matches no branch", so they are reported as well.
   */
  private reportBranches(parts: JsonSchema[], value: unknown, path: string, depth: number, sink: Sink, keyword: string, message: string): false {
    if (sink === null) return false;
    const actual = jsonTypeOf(value);
    const fitting = parts.filter((part) => {
      if (typeof part === 'boolean' || part.type === undefined) return false;
      const types = Array.isArray(part.type) ? part.type : [part.type];
      return types.includes(actual) || (actual === 'integer' && types.includes('number'));
    });
    if (fitting.length === 1) this.check(fitting[0]!, value, path, depth, sink);
    return this.fail(sink, path, keyword, message);
  }
}

function isMultiple(value: number, divisor: number): boolean {
  const quotient = value / divisor;
  if (!Number.isFinite(quotient)) return false;
  // Binary floating point cannot represent 0.1 exactly; a relative tolerance absorbs that.
  return Math.abs(quotient - Math.round(quotient)) <= 1e-9 * Math.max(1, Math.abs(quotient));
}

function codePointLength(value: string): number {
  let length = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}
