import { describe, expect, it } from 'vitest';
import { InterpretingJsonSchemaValidator } from '../../../runtime/advanced.js';
import { keywordCases } from './cases.js';

const validator = new InterpretingJsonSchemaValidator();

describe.each(keywordCases)('$keyword', ({ schema, valid, invalid }) => {
  const check = validator.compile(schema);
  it.each(valid.map((value) => [JSON.stringify(value), value]))('accepts %s', (_label, value) => {
    expect(check(value)).toEqual({ valid: true });
  });
  it.each(invalid.map((rejection) => [JSON.stringify(rejection.value), rejection]))('rejects %s', (_label, { value, path, keyword }) => {
    const result = check(value);
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors).toContainEqual(expect.objectContaining({ instancePath: path, keyword }));
    for (const error of result.errors) expect(error.message).not.toBe('');
  });
});

describe('messages a model can act on', () => {
  it('names the missing and the unexpected property', () => {
    const check = validator.compile({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false });
    const result = check({ town: 'Oslo' });
    expect(result).toEqual({
      valid: false,
      errors: [
        { instancePath: '', keyword: 'required', message: "must have required property 'city'", params: { missingProperty: 'city' } },
        { instancePath: '', keyword: 'additionalProperties', message: "must NOT have additional property 'town'", params: { additionalProperty: 'town' } },
      ],
    });
  });

  it('lists the allowed values of an enum', () => {
    const result = validator.compile({ enum: ['c', 'f'] })('k');
    expect(!result.valid && result.errors[0]?.message).toBe('must be one of "c", "f"');
  });

  it('explains a failed anyOf through the one branch that fits the value type', () => {
    const result = validator.compile({ anyOf: [{ type: 'string', minLength: 3 }, { type: 'number' }] })('ab');
    expect(!result.valid && result.errors.map((error) => error.keyword)).toEqual(['minLength', 'anyOf']);
  });

  it('collects every error, up to maxErrors', () => {
    const schema = { type: 'array', items: { type: 'string' } };
    const many = new InterpretingJsonSchemaValidator().compile(schema)([1, 2, 3]);
    expect(!many.valid && many.errors.map((error) => error.instancePath)).toEqual(['/0', '/1', '/2']);
    const capped = new InterpretingJsonSchemaValidator({ maxErrors: 2 }).compile(schema)([1, 2, 3]);
    expect(!capped.valid && capped.errors).toHaveLength(2);
  });
});

describe('schema preparation', () => {
  it('rejects a $ref it cannot resolve, at compile time', () => {
    expect(() => validator.compile({ $ref: '#/$defs/missing' })).toThrow(/Unresolvable \$ref/);
    expect(() => validator.compile({ $ref: 'https://example.com/schema.json' })).toThrow(/Unsupported \$ref/);
  });

  it('rejects an invalid pattern at compile time', () => {
    expect(() => validator.compile({ pattern: '(' })).toThrow(/Invalid pattern/);
  });

  it('resolves $anchor and $id-relative references', () => {
    const check = validator.compile({ $id: 'https://example.com/s', properties: { a: { $ref: '#pos' }, b: { $ref: 'https://example.com/s#/$defs/p' } }, $defs: { p: { $anchor: 'pos', minimum: 0 } } });
    expect(check({ a: 1, b: 2 }).valid).toBe(true);
    expect(check({ a: -1 }).valid).toBe(false);
    expect(check({ b: -1 }).valid).toBe(false);
  });

  it('stops a schema that recurses without consuming the value', () => {
    const result = new InterpretingJsonSchemaValidator({ maxDepth: 20 }).compile({ $defs: { loop: { $ref: '#/$defs/loop' } }, $ref: '#/$defs/loop' })(1);
    expect(!result.valid && result.errors[0]?.message).toMatch(/nested deeper/);
  });

  it('ignores format when told to, and accepts custom format checks', () => {
    expect(new InterpretingJsonSchemaValidator({ formats: 'ignore' }).compile({ format: 'email' })('nope').valid).toBe(true);
    const custom = new InterpretingJsonSchemaValidator({ formats: { even: (value) => value.length % 2 === 0 } });
    expect(custom.compile({ format: 'even' })('ab').valid).toBe(true);
    expect(custom.compile({ format: 'even' })('abc').valid).toBe(false);
    expect(custom.compile({ format: 'email' })('nope').valid).toBe(false);
  });

  it('checks uniqueItems on a large array in linear time', () => {
    const items = Array.from({ length: 50_000 }, (_, i) => ({ id: i, tags: ['a', 'b'] }));
    const started = performance.now();
    expect(validator.compile({ uniqueItems: true })(items).valid).toBe(true);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
