/**
 * Each keyword the emitter compiles, on a small schema of its own: what it accepts, the issue
 * it reports (ajv's keyword, params and wording), and that any other keyword fails codegen.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Validator } from '../../../generated/contract.js';
import { compileValidators, supportImport, validatorExport } from '../../../codegen/emit-validators.js';
import { CodegenError } from '../../../codegen/model.js';
import type { Schema } from '../../../codegen/schema-walk.js';
import { repoRoot } from '../../../codegen/spec-source.js';

const DEFINITIONS: Record<string, Schema> = {
  Str: { type: 'string' },
  Union: { type: ['string', 'integer'] },
  Int: { type: 'integer', minimum: 0, maximum: 10 },
  Const: { type: 'string', const: 'a' },
  ObjConst: { const: { a: [1] } },
  Enum: { type: 'string', enum: ['x', 'y'] },
  Uri: { type: 'string', format: 'uri' },
  Byte: { type: 'string', format: 'byte' },
  Template: { type: 'string', format: 'uri-template' },
  Short: { type: 'string', minLength: 2, maxLength: 3 },
  List: { type: 'array', items: { $ref: '#/definitions/Str' }, maxItems: 2 },
  Closed: { type: 'object', properties: { name: { type: 'string' }, 'a/b': { type: 'integer' } }, required: ['name'], additionalProperties: false },
  Map: { type: 'object', additionalProperties: { $ref: '#/definitions/Int' } },
  Either: { anyOf: [{ $ref: '#/definitions/Str' }, { type: 'object', properties: { kind: { const: 'k' } }, required: ['kind'] }] },
  Both: { allOf: [{ $ref: '#/definitions/Closed' }, { properties: { name: { const: 'n' } } }] },
  RefSibling: { $ref: '#/definitions/Str', const: 'z' },
  Never: { not: {} },
  Names: { type: 'object', propertyNames: { type: 'string' } },
  Keys: { type: 'object', propertyNames: { maxLength: 3 } },
  KeysInside: { type: 'object', properties: { m: { $ref: '#/definitions/Keys' } } },
};

let dir: string;
let mod: Record<string, Validator>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcpgen-validator-emit-'));
  const targets = Object.entries(DEFINITIONS).map(([name, schema]) => ({ name, schema }));
  const compiled = compileValidators({ revision: 'test', definitions: DEFINITIONS, targets });
  const support = pathToFileURL(join(repoRoot, 'codegen', 'templates', 'validator-support.ts')).href;
  const exports = targets.map(({ name }) => validatorExport(`validate${name}`, compiled.checkOf.get(name)!, 'unknown'));
  writeFileSync(join(dir, 'validators.ts'), [supportImport(compiled, support), ...exports, compiled.code, ''].join('\n'));
  mod = (await import(pathToFileURL(join(dir, 'validators.ts')).href)) as typeof mod;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The issues of `name` on `value`, or 'valid'. */
function run(name: string, value: unknown): 'valid' | Array<{ instancePath: string; keyword: string; params: unknown; message: string }> {
  const validate = mod[`validate${name}`]!;
  if (validate(value)) return 'valid';
  return (validate.errors ?? []).map(({ instancePath, keyword, params, message }) => ({ instancePath, keyword, params, message }));
}

describe('keywords and their issues', () => {
  it.each<[string, unknown, unknown]>([
    ['Str', 'x', 'valid'],
    ['Str', 1, [{ instancePath: '', keyword: 'type', params: { type: 'string' }, message: 'must be string' }]],
    ['Union', 3, 'valid'],
    ['Union', 1.5, [{ instancePath: '', keyword: 'type', params: { type: ['string', 'integer'] }, message: 'must be string,integer' }]],
    ['Int', Number.NaN, [{ instancePath: '', keyword: 'type', params: { type: 'integer' }, message: 'must be integer' }]],
    ['Int', 11, [{ instancePath: '', keyword: 'maximum', params: { comparison: '<=', limit: 10 }, message: 'must be <= 10' }]],
    ['Int', -1, [{ instancePath: '', keyword: 'minimum', params: { comparison: '>=', limit: 0 }, message: 'must be >= 0' }]],
    ['Const', 'b', [{ instancePath: '', keyword: 'const', params: { allowedValue: 'a' }, message: 'must be equal to constant' }]],
    ['ObjConst', { a: [1] }, 'valid'],
    ['ObjConst', { a: [2] }, [{ instancePath: '', keyword: 'const', params: { allowedValue: { a: [1] } }, message: 'must be equal to constant' }]],
    ['Enum', 'z', [{ instancePath: '', keyword: 'enum', params: { allowedValues: ['x', 'y'] }, message: 'must be equal to one of the allowed values' }]],
    ['Uri', 'https://example.com/x', 'valid'],
    ['Uri', 'not a uri', [{ instancePath: '', keyword: 'format', params: { format: 'uri' }, message: 'must match format "uri"' }]],
    ['Byte', 'aGk=', 'valid'],
    ['Byte', 'a', [{ instancePath: '', keyword: 'format', params: { format: 'byte' }, message: 'must match format "byte"' }]],
    ['Template', 'file:///{path}', 'valid'],
    ['Template', 'file:///{pa th}', [{ instancePath: '', keyword: 'format', params: { format: 'uri-template' }, message: 'must match format "uri-template"' }]],
    ['Short', '\u{1F600}\u{1F600}', 'valid'],
    ['Short', 'a', [{ instancePath: '', keyword: 'minLength', params: { limit: 2 }, message: 'must NOT have fewer than 2 characters' }]],
    ['Short', 'abcd', [{ instancePath: '', keyword: 'maxLength', params: { limit: 3 }, message: 'must NOT have more than 3 characters' }]],
    ['List', ['a', 'b', 'c'], [{ instancePath: '', keyword: 'maxItems', params: { limit: 2 }, message: 'must NOT have more than 2 items' }]],
    ['List', ['a', 2], [{ instancePath: '/1', keyword: 'type', params: { type: 'string' }, message: 'must be string' }]],
    ['Closed', { name: 'n', 'a/b': 1 }, 'valid'],
    ['Closed', {}, [{ instancePath: '', keyword: 'required', params: { missingProperty: 'name' }, message: "must have required property 'name'" }]],
    ['Closed', { name: 'n', x: 1 }, [{ instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'x' }, message: 'must NOT have additional properties' }]],
    ['Closed', { name: 'n', 'a/b': 'x' }, [{ instancePath: '/a~1b', keyword: 'type', params: { type: 'integer' }, message: 'must be integer' }]],
    ['Closed', [], [{ instancePath: '', keyword: 'type', params: { type: 'object' }, message: 'must be object' }]],
    ['Map', { 'x/y~': 20 }, [{ instancePath: '/x~1y~0', keyword: 'maximum', params: { comparison: '<=', limit: 10 }, message: 'must be <= 10' }]],
    ['Either', { kind: 'k' }, 'valid'],
    [
      'Either',
      { kind: 'j' },
      [
        { instancePath: '', keyword: 'type', params: { type: 'string' }, message: 'must be string' },
        { instancePath: '/kind', keyword: 'const', params: { allowedValue: 'k' }, message: 'must be equal to constant' },
        { instancePath: '', keyword: 'anyOf', params: {}, message: 'must match a schema in anyOf' },
      ],
    ],
    ['Both', { name: 'n' }, 'valid'],
    ['Both', { name: 'm' }, [{ instancePath: '/name', keyword: 'const', params: { allowedValue: 'n' }, message: 'must be equal to constant' }]],
    ['RefSibling', 'z', 'valid'],
    ['RefSibling', 'y', [{ instancePath: '', keyword: 'const', params: { allowedValue: 'z' }, message: 'must be equal to constant' }]],
    ['Never', 1, [{ instancePath: '', keyword: 'not', params: {}, message: 'must NOT be valid' }]],
    ['Names', { any: 1 }, 'valid'],
    ['Keys', { abc: 1 }, 'valid'],
    [
      'Keys',
      { abc: 1, abcd: 2 },
      [
        { instancePath: '', keyword: 'maxLength', params: { limit: 3 }, message: 'must NOT have more than 3 characters' },
        { instancePath: '', keyword: 'propertyNames', params: { propertyName: 'abcd' }, message: 'property name must be valid' },
      ],
    ],
    [
      'KeysInside',
      { m: { long: 1 } },
      [
        { instancePath: '/m', keyword: 'maxLength', params: { limit: 3 }, message: 'must NOT have more than 3 characters' },
        { instancePath: '/m', keyword: 'propertyNames', params: { propertyName: 'long' }, message: 'property name must be valid' },
      ],
    ],
  ])('%s on %j', (name, value, expected) => {
    expect(run(name, value)).toEqual(expected);
  });

  it('drops the failed branches once a later branch matches', () => {
    expect(run('Either', 'x')).toBe('valid');
    expect(run('Either', { kind: 'k' })).toBe('valid');
    expect(mod['validateEither']!.errors).toBeNull();
  });

  it('nests an issue under the path of every $ref on the way down', () => {
    const wrapped = { $ref: '#/definitions/List' };
    const definitions = { ...DEFINITIONS, Outer: { type: 'object', properties: { list: wrapped } } };
    const compiled = compileValidators({ revision: 'test', definitions, targets: [{ name: 'Outer', schema: definitions.Outer }] });
    expect(compiled.code).toContain(`prefix(s, '/list')`);
  });
});

describe('codegen fails on what the emitter does not compile', () => {
  it.each<[string, Schema, string]>([
    ['pattern', { type: 'string', pattern: '^a' }, 'uses keyword "pattern"'],
    ['oneOf', { oneOf: [{ type: 'string' }] }, 'uses keyword "oneOf"'],
    ['patternProperties', { type: 'object', patternProperties: { '^x': {} } }, 'uses keyword "patternProperties"'],
    ['exclusiveMinimum', { type: 'number', exclusiveMinimum: 0 }, 'uses keyword "exclusiveMinimum"'],
    ['an unknown format', { type: 'string', format: 'date-time' }, 'uses format "date-time"'],
    ['tuple items', { type: 'array', items: [{ type: 'string' }] }, 'uses tuple "items"'],
  ])('%s, naming revision, definition and keyword', (_what, schema, text) => {
    const definitions = { Outer: { type: 'object', properties: { inner: { $ref: '#/definitions/Bad' } } }, Bad: schema };
    const compile = () => compileValidators({ revision: '2099-01-01', definitions, targets: [{ name: 'Outer', schema: definitions.Outer }] });
    expect(compile).toThrow(CodegenError);
    expect(compile).toThrow(`revision 2099-01-01: definition Bad: ${text}`);
  });
});
