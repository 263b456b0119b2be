import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { FromJsonSchema, InferSchemaOutput, StandardJsonSchemaV1 } from '../../../runtime/index.js';
import { InterpretingJsonSchemaValidator } from '../../../runtime/advanced.js';
import { describeSchemaIssues, toParsingSchema } from '../../../runtime/json-schema/schema-input.js';

const validator = new InterpretingJsonSchemaValidator();

describe('library schemas (zod 4, Standard JSON Schema)', () => {
  const schema = z.object({ city: z.string().describe('City name'), days: z.number().int().min(1).default(3) });

  it('describes the input side for arguments and the output side for results', () => {
    expect(toParsingSchema(schema, validator, 'input', 'test').jsonSchema).toMatchObject({ type: 'object', required: ['city'], properties: { city: { type: 'string', description: 'City name' } } });
    expect(toParsingSchema(schema, validator, 'output', 'test').jsonSchema).toMatchObject({ required: ['city', 'days'] });
  });

  it("parses with the library's own validate, so its defaults apply", async () => {
    const parsing = toParsingSchema<z.output<typeof schema>>(schema, validator, 'input', 'test');
    expect(await parsing.parse({ city: 'Oslo' })).toEqual({ ok: true, value: { city: 'Oslo', days: 3 } });
    const failed = await parsing.parse({ city: 1, days: 0 });
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(failed.issues.map((issue) => issue.path)).toEqual(['/city', '/days']);
  });

  it('refuses a schema that cannot become JSON Schema', () => {
    expect(() => toParsingSchema(z.object({ when: z.date() }), validator, 'input', 'tool x inputSchema')).toThrow(/tool x inputSchema: the zod schema cannot be expressed as JSON Schema/);
  });

  it('infers the output type', () => {
    expectTypeOf<InferSchemaOutput<typeof schema>>().toEqualTypeOf<{ city: string; days: number }>();
  });
});

describe('a converter-only Standard JSON Schema value', () => {
  // A library that converts to JSON Schema but does not validate is checked by the JSON Schema validator.
  const converterOnly: StandardJsonSchemaV1<{ n: number }> = {
    '~standard': {
      version: 1,
      vendor: 'converter-only',
      jsonSchema: {
        input: () => ({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }),
        output: () => ({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }),
      },
    },
  };

  it('falls back to the JSON Schema validator', async () => {
    const parsing = toParsingSchema(converterOnly, validator, 'input', 'test');
    expect(await parsing.parse({ n: 1 })).toEqual({ ok: true, value: { n: 1 } });
    expect(await parsing.parse({ n: 'one' })).toEqual({ ok: false, issues: [{ path: '/n', message: 'must be number' }] });
  });

  it('refuses a Standard Schema without a JSON Schema converter', () => {
    const validateOnly = { '~standard': { version: 1, vendor: 'v', validate: () => ({ value: 1 }) } } as const;
    expect(() => toParsingSchema(validateOnly as unknown as StandardJsonSchemaV1, validator, 'input', 'x')).toThrow(/cannot convert itself to JSON Schema/);
  });
});

describe('raw JSON Schemas', () => {
  it('pass values through unchanged and report issues with pointers', async () => {
    const parsing = toParsingSchema({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, validator, 'input', 'test');
    expect(await parsing.parse({ a: 'x', extra: 1 })).toEqual({ ok: true, value: { a: 'x', extra: 1 } });
    const failed = await parsing.parse({ a: 1 });
    expect(!failed.ok && describeSchemaIssues(failed.issues, 'arguments')).toBe('arguments/a: must be string');
  });

  it('infer a type from a literal schema', () => {
    const schema = {
      type: 'object',
      properties: { n: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } }, unit: { enum: ['c', 'f'] }, on: { type: 'boolean' } },
      required: ['n', 'unit'],
      additionalProperties: false,
    } as const;
    expectTypeOf<FromJsonSchema<typeof schema>>().toEqualTypeOf<{ n: number; unit: 'c' | 'f'; tags?: string[]; on?: boolean }>();
  });
});
