import { describe, expect, it } from 'vitest';
import { choicesOf, formFields, parseFormAnswer, type FormField } from '../../../../runtime/features/host/form-elicitation.js';

const field = (schema: FormField['schema'], required = false): FormField => ({ name: 'f', schema, required });

describe('parseFormAnswer', () => {
  it('types numbers, integers and booleans, and enforces their bounds', () => {
    expect(parseFormAnswer(field({ type: 'integer', minimum: 1, maximum: 9 }), '3')).toEqual({ ok: true, value: 3 });
    expect(parseFormAnswer(field({ type: 'integer' }), '2.5')).toEqual({ ok: false, reason: 'expected an integer' });
    expect(parseFormAnswer(field({ type: 'number', maximum: 9 }), '10')).toEqual({ ok: false, reason: 'at most 9' });
    expect(parseFormAnswer(field({ type: 'boolean' }), 'No')).toEqual({ ok: true, value: false });
    expect(parseFormAnswer(field({ type: 'boolean' }), 'maybe')).toEqual({ ok: false, reason: 'answer y or n' });
  });

  it('takes the default or skips an optional field on an empty answer, and requires the others', () => {
    expect(parseFormAnswer(field({ type: 'string', default: 'x' }), '  ')).toEqual({ ok: true, value: 'x' });
    expect(parseFormAnswer(field({ type: 'string' }), '')).toEqual({ ok: true, value: undefined });
    expect(parseFormAnswer(field({ type: 'string' }, true), '')).toEqual({ ok: false, reason: 'an answer is required' });
  });

  it('accepts a choice by value or by its number, single and multiple', () => {
    const single = field({ type: 'string', oneOf: [{ const: 'red', title: 'Red' }, { const: 'blue', title: 'Blue' }] });
    expect(parseFormAnswer(single, '2')).toEqual({ ok: true, value: 'blue' });
    expect(parseFormAnswer(single, 'green')).toEqual({ ok: false, reason: 'choose one of red, blue' });
    const multiple = field({ type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] } });
    expect(parseFormAnswer(multiple, '1, c')).toEqual({ ok: true, value: ['a', 'c'] });
    expect(parseFormAnswer(multiple, 'a,z')).toEqual({ ok: false, reason: 'not among the choices: z' });
  });
});

describe('formFields and choicesOf', () => {
  it('keep the server order and mark required fields', () => {
    const fields = formFields({ type: 'object', properties: { b: { type: 'string' }, a: { type: 'number' } }, required: ['a'] });
    expect(fields.map(({ name, required }) => [name, required])).toEqual([['b', false], ['a', true]]);
    expect(choicesOf({ type: 'string' })).toBeUndefined();
  });
});
