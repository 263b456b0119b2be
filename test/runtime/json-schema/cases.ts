import type { JsonSchema } from '../../../runtime/index.js';

/** A value the schema must reject, with where and why (JSON Pointer and keyword). */
export interface Rejection {
  readonly value: unknown;
  readonly path: string;
  readonly keyword: string;
}

/** Schema-keyword cases shared by the interpreting and the ajv-backed validator tests. */
export interface KeywordCase {
  readonly keyword: string;
  readonly schema: JsonSchema;
  readonly valid: readonly unknown[];
  readonly invalid: readonly Rejection[];
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

const reject = (value: unknown, keyword: string, path = ''): Rejection => ({ value, path, keyword });

export const keywordCases: readonly KeywordCase[] = [
  { keyword: 'boolean schema true', schema: true, valid: [1, 'a', null, {}], invalid: [] },
  { keyword: 'boolean schema false', schema: false, valid: [], invalid: [reject(1, 'false schema')] },
  { keyword: 'type string', schema: { type: 'string' }, valid: ['', 'x'], invalid: [reject(1, 'type'), reject(null, 'type')] },
  { keyword: 'type integer', schema: { type: 'integer' }, valid: [0, -7, 1e3], invalid: [reject(1.5, 'type'), reject('1', 'type')] },
  { keyword: 'type number accepts integers', schema: { type: 'number' }, valid: [1, 1.5], invalid: [reject('1.5', 'type')] },
  { keyword: 'type list', schema: { type: ['string', 'null'] }, valid: ['a', null], invalid: [reject(0, 'type'), reject([], 'type')] },
  { keyword: 'type object and array', schema: { type: 'object' }, valid: [{}], invalid: [reject([], 'type'), reject(null, 'type')] },
  { keyword: 'enum', schema: { enum: ['red', 2, null, { a: 1 }] }, valid: ['red', 2, null, { a: 1 }], invalid: [reject('blue', 'enum'), reject({ a: 2 }, 'enum')] },
  { keyword: 'const', schema: { const: { x: [1, 2] } }, valid: [{ x: [1, 2] }], invalid: [reject({ x: [2, 1] }, 'const'), reject(null, 'const')] },
  { keyword: 'minimum / maximum', schema: { minimum: 1, maximum: 3 }, valid: [1, 3, 'not a number'], invalid: [reject(0, 'minimum'), reject(3.5, 'maximum')] },
  { keyword: 'exclusiveMinimum / exclusiveMaximum', schema: { exclusiveMinimum: 0, exclusiveMaximum: 1 }, valid: [0.5], invalid: [reject(0, 'exclusiveMinimum'), reject(1, 'exclusiveMaximum')] },
  { keyword: 'multipleOf', schema: { multipleOf: 0.1 }, valid: [0.3, 1, 0], invalid: [reject(0.35, 'multipleOf')] },
  { keyword: 'multipleOf integer', schema: { multipleOf: 3 }, valid: [9, -3], invalid: [reject(10, 'multipleOf')] },
  { keyword: 'minLength / maxLength count code points', schema: { minLength: 2, maxLength: 3 }, valid: ['ab', '😀😀', 'abc'], invalid: [reject('a', 'minLength'), reject('😀', 'minLength'), reject('abcd', 'maxLength')] },
  { keyword: 'pattern', schema: { pattern: '^[a-z]+-\\d+$' }, valid: ['abc-12'], invalid: [reject('ABC-12', 'pattern'), reject('abc-', 'pattern')] },
  { keyword: 'format email', schema: { format: 'email' }, valid: ['ada@example.com'], invalid: [reject('ada@', 'format'), reject('ada example.com', 'format'), reject('a@b@c.d', 'format')] },
  { keyword: 'format date', schema: { format: 'date' }, valid: ['2024-02-29'], invalid: [reject('2023-02-29', 'format'), reject('2024-13-01', 'format'), reject('24-01-01', 'format')] },
  { keyword: 'format date-time', schema: { format: 'date-time' }, valid: ['2025-11-25T10:00:00Z', '2025-11-25T10:00:00.5+02:00'], invalid: [reject('2025-11-25 25:00:00Z', 'format'), reject('2025-11-25T10:00:00', 'format')] },
  { keyword: 'format time', schema: { format: 'time' }, valid: ['23:59:60Z'], invalid: [reject('24:00:00Z', 'format')] },
  { keyword: 'format uri', schema: { format: 'uri' }, valid: ['https://example.com/a?b', 'urn:isbn:123'], invalid: [reject('/relative/path', 'format'), reject('http://exa mple.com', 'format')] },
  { keyword: 'format uuid', schema: { format: 'uuid' }, valid: ['550e8400-e29b-41d4-a716-446655440000'], invalid: [reject('550e8400e29b41d4a716446655440000', 'format')] },
  { keyword: 'format ipv4', schema: { format: 'ipv4' }, valid: ['192.168.0.1', '0.0.0.0'], invalid: [reject('256.1.1.1', 'format'), reject('1.2.3', 'format')] },
  { keyword: 'format ipv6', schema: { format: 'ipv6' }, valid: ['::1', '2001:db8::8a2e:370:7334'], invalid: [reject('2001:db8::zz', 'format'), reject('1:2:3:4:5:6:7:8:9', 'format')] },
  { keyword: 'format hostname', schema: { format: 'hostname' }, valid: ['example.com', 'a-b.c'], invalid: [reject('-bad.com', 'format'), reject('a..b', 'format')] },
  { keyword: 'format ignores non-strings', schema: { format: 'email' }, valid: [42, null], invalid: [] },
  {
    keyword: 'properties and required',
    schema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name'] },
    valid: [{ name: 'Ada' }, { name: 'Ada', age: 36, extra: true }],
    invalid: [reject({}, 'required'), reject({ name: 'Ada', age: 'old' }, 'type', '/age'), reject({ name: 7 }, 'type', '/name')],
  },
  {
    keyword: 'additionalProperties false',
    schema: { type: 'object', properties: { a: {} }, additionalProperties: false },
    valid: [{ a: 1 }, {}],
    invalid: [reject({ a: 1, b: 2 }, 'additionalProperties')],
  },
  {
    keyword: 'additionalProperties schema',
    schema: { type: 'object', properties: { a: {} }, additionalProperties: { type: 'number' } },
    valid: [{ a: 'x', b: 2 }],
    invalid: [reject({ b: 'two' }, 'type', '/b')],
  },
  {
    keyword: 'patternProperties',
    schema: { type: 'object', patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false },
    valid: [{ 'x-a': 'y' }],
    invalid: [reject({ 'x-a': 1 }, 'type', '/x-a'), reject({ y: 'z' }, 'additionalProperties')],
  },
  { keyword: 'propertyNames', schema: { propertyNames: { maxLength: 3 } }, valid: [{ abc: 1 }], invalid: [reject({ abcd: 1 }, 'propertyNames')] },
  { keyword: 'minProperties / maxProperties', schema: { minProperties: 1, maxProperties: 2 }, valid: [{ a: 1 }], invalid: [reject({}, 'minProperties'), reject({ a: 1, b: 2, c: 3 }, 'maxProperties')] },
  {
    keyword: 'dependentRequired',
    schema: { dependentRequired: { card: ['billing'] } },
    valid: [{}, { billing: 'x' }, { card: 1, billing: 'x' }],
    invalid: [reject({ card: 1 }, 'dependentRequired')],
  },
  {
    keyword: 'dependentSchemas',
    schema: { dependentSchemas: { card: { required: ['cvc'] } } },
    valid: [{ card: 1, cvc: 2 }],
    invalid: [reject({ card: 1 }, 'required')],
  },
  { keyword: 'dependencies (draft-07)', schema: { $schema: DRAFT_07, dependencies: { a: ['b'] } }, valid: [{ a: 1, b: 2 }], invalid: [reject({ a: 1 }, 'dependentRequired')] },
  { keyword: 'items', schema: { type: 'array', items: { type: 'integer' } }, valid: [[], [1, 2]], invalid: [reject([1, 'two'], 'type', '/1')] },
  {
    keyword: 'prefixItems with items',
    schema: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: { type: 'boolean' } },
    valid: [['a', 1], ['a', 1, true, false], ['a']],
    invalid: [reject([1, 1], 'type', '/0'), reject(['a', 1, 'x'], 'type', '/2')],
  },
  { keyword: 'prefixItems with items false', schema: { prefixItems: [{}], items: false }, valid: [[1]], invalid: [reject([1, 2], 'false schema', '/1')] },
  { keyword: 'array items + additionalItems (draft-07)', schema: { $schema: DRAFT_07, items: [{ type: 'string' }], additionalItems: false }, valid: [['a']], invalid: [reject(['a', 'b'], 'false schema', '/1')] },
  { keyword: 'minItems / maxItems', schema: { minItems: 1, maxItems: 2 }, valid: [[1]], invalid: [reject([], 'minItems'), reject([1, 2, 3], 'maxItems')] },
  { keyword: 'uniqueItems', schema: { uniqueItems: true }, valid: [[1, '1', { a: 1 }, { a: 2 }]], invalid: [reject([{ a: 1, b: 2 }, { b: 2, a: 1 }], 'uniqueItems'), reject([1, 1], 'uniqueItems')] },
  { keyword: 'contains / minContains / maxContains', schema: { contains: { type: 'string' }, minContains: 1, maxContains: 2 }, valid: [['a', 1]], invalid: [reject([1, 2], 'contains'), reject(['a', 'b', 'c'], 'maxContains')] },
  { keyword: 'allOf', schema: { allOf: [{ minimum: 1 }, { maximum: 2 }] }, valid: [1.5], invalid: [reject(0, 'minimum'), reject(3, 'maximum')] },
  { keyword: 'anyOf', schema: { anyOf: [{ type: 'string' }, { type: 'number' }] }, valid: ['a', 1], invalid: [reject(null, 'anyOf')] },
  { keyword: 'oneOf', schema: { oneOf: [{ type: 'integer' }, { minimum: 2 }] }, valid: [1, 2.5], invalid: [reject(3, 'oneOf'), reject(1.5, 'oneOf')] },
  { keyword: 'not', schema: { not: { type: 'string' } }, valid: [1], invalid: [reject('a', 'not')] },
  {
    keyword: 'if / then / else',
    schema: { if: { properties: { kind: { const: 'a' } } }, then: { required: ['a'] }, else: { required: ['b'] } },
    valid: [{ kind: 'a', a: 1 }, { kind: 'b', b: 1 }],
    invalid: [reject({ kind: 'a', b: 1 }, 'required'), reject({ kind: 'b', a: 1 }, 'required')],
  },
  {
    keyword: '$ref to $defs',
    schema: { type: 'object', properties: { home: { $ref: '#/$defs/address' } }, $defs: { address: { type: 'object', required: ['city'] } } },
    valid: [{ home: { city: 'Oslo' } }],
    invalid: [reject({ home: {} }, 'required', '/home')],
  },
  {
    keyword: '$ref to definitions (draft-07)',
    schema: { properties: { n: { $ref: '#/definitions/positive' } }, definitions: { positive: { type: 'number', exclusiveMinimum: 0 } } },
    valid: [{ n: 1 }],
    invalid: [reject({ n: 0 }, 'exclusiveMinimum', '/n')],
  },
  {
    keyword: '$ref recursion to the root',
    schema: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } }, required: ['name'] },
    valid: [{ name: 'a', children: [{ name: 'b', children: [] }] }],
    invalid: [reject({ name: 'a', children: [{ children: [] }] }, 'required', '/children/0')],
  },
  {
    keyword: '$ref with an escaped pointer',
    schema: { properties: { v: { $ref: '#/$defs/a~1b' } }, $defs: { 'a/b': { type: 'boolean' } } },
    valid: [{ v: true }],
    invalid: [reject({ v: 'yes' }, 'type', '/v')],
  },
  {
    keyword: 'property names escaped in paths',
    schema: { properties: { 'a/b': { type: 'string' }, 'c~d': { type: 'string' } } },
    valid: [{ 'a/b': 'x' }],
    invalid: [reject({ 'a/b': 1 }, 'type', '/a~1b'), reject({ 'c~d': 1 }, 'type', '/c~0d')],
  },
];
