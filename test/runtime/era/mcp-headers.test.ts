// The stateless era's header mirroring rules (Streamable HTTP, 2026-07-28): value encoding,
// x-mcp-header declarations and what makes them invalid, and parameter extraction.
import { describe, expect, it } from 'vitest';
import {
  decodeHeaderValue,
  encodeHeaderValue,
  headerParameters,
  parameterHeaderMismatch,
  parameterHeaders,
  standardHeaders,
  type HeaderParameter,
} from '../../../runtime/era/mcp-headers.js';

const b64 = (text: string): string => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

describe('encodeHeaderValue', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['us west 1', 'us west 1'],
    ['', ''],
    ['Hello, 世界', b64('Hello, 世界')],
    [' padded ', b64(' padded ')],
    ['line1\nline2', b64('line1\nline2')],
    ['\tindented', b64('\tindented')],
    ['a\tb', b64('a\tb')],
    ['=?base64?literal?=', b64('=?base64?literal?=')],
  ])('%j → %j', (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
  });
});

describe('headerParameters', () => {
  it('collects annotations reached through properties, nested ones included', () => {
    const parsed = headerParameters({
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, outer: { type: 'object', properties: { flag: { type: ['boolean', 'null'], 'x-mcp-header': 'Flag' } } } },
    });
    expect(parsed).toEqual({ ok: true, parameters: [{ name: 'Region', path: ['region'], type: 'string' }, { name: 'Flag', path: ['outer', 'flag'], type: 'boolean' }] });
  });

  it.each([
    ['empty', { value: { type: 'string', 'x-mcp-header': '' } }],
    ['object type', { value: { type: 'object', 'x-mcp-header': 'Data' } }],
    ['array type', { value: { type: 'array', 'x-mcp-header': 'Items' } }],
    ['null type', { value: { type: 'null', 'x-mcp-header': 'Nil' } }],
    ['number type', { value: { type: 'number', 'x-mcp-header': 'Score' } }],
    ['no type', { value: { 'x-mcp-header': 'Any' } }],
    ['space', { value: { type: 'string', 'x-mcp-header': 'My Region' } }],
    ['colon', { value: { type: 'string', 'x-mcp-header': 'Region:Primary' } }],
    ['non-ASCII', { value: { type: 'string', 'x-mcp-header': 'Région' } }],
    ['control character', { value: { type: 'string', 'x-mcp-header': 'Region\t1' } }],
    ['duplicate', { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'Region' } }],
    ['duplicate in another case', { a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } }],
  ])('rejects a declaration with %s', (_label, properties) => {
    expect(headerParameters({ type: 'object', properties }).ok).toBe(false);
  });

  it.each([
    ['items', { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }],
    ['anyOf', { choice: { anyOf: [{ type: 'string', 'x-mcp-header': 'Choice' }] } }],
  ])('rejects an annotation inside %s', (_label, properties) => {
    expect(headerParameters({ type: 'object', properties }).ok).toBe(false);
  });

  it('rejects annotations under $defs, even when referenced', () => {
    expect(headerParameters({ type: 'object', $defs: { r: { type: 'string', 'x-mcp-header': 'R' } }, properties: { r: { $ref: '#/$defs/r' } } }).ok).toBe(false);
  });
});

describe('parameterHeaders and standardHeaders', () => {
  const parameters: HeaderParameter[] = [
    { name: 'Region', path: ['region'], type: 'string' },
    { name: 'Days', path: ['days'], type: 'integer' },
    { name: 'Verbose', path: ['verbose'], type: 'boolean' },
    { name: 'Deep', path: ['a', 'b'], type: 'boolean' },
  ];

  it('mirrors present values and omits null, missing and unmirrorable ones', () => {
    expect(parameterHeaders(parameters, { region: 'eu', days: 42, verbose: null, a: { b: true } })).toEqual({ 'mcp-param-region': 'eu', 'mcp-param-days': '42', 'mcp-param-deep': 'true' });
    expect(parameterHeaders(parameters, { days: 1.5, region: { nested: 1 } })).toEqual({});
    expect(parameterHeaders(parameters, undefined)).toEqual({});
  });

  it('names the method, and the tool, prompt or resource', () => {
    expect(standardHeaders('tools/list', { _meta: {} })).toEqual({ 'mcp-method': 'tools/list' });
    expect(standardHeaders('tools/call', { name: 'my-tool' })).toEqual({ 'mcp-method': 'tools/call', 'mcp-name': 'my-tool' });
    expect(standardHeaders('resources/read', { uri: 'https://example.com/r?id=1' })).toEqual({ 'mcp-method': 'resources/read', 'mcp-name': 'https://example.com/r?id=1' });
    expect(standardHeaders('prompts/get', { name: 'grüß' })['mcp-name']).toBe(b64('grüß'));
  });

  it('adds to the headers it is given and returns them', () => {
    const headers: Record<string, string> = { accept: 'application/json' };
    expect(standardHeaders('tools/call', { name: 'my-tool' }, headers)).toBe(headers);
    const parameters: HeaderParameter[] = [{ name: 'Region', path: ['region'], type: 'string' }];
    expect(parameterHeaders(parameters, { region: 'eu' }, headers)).toBe(headers);
    expect(headers).toEqual({ accept: 'application/json', 'mcp-method': 'tools/call', 'mcp-name': 'my-tool', 'mcp-param-region': 'eu' });
  });
});

describe('the server side: decodeHeaderValue and parameterHeaderMismatch', () => {
  it.each(['us-west1', ' padded ', 'Hello, 世界', 'line1\nline2', '=?base64?literal?='])('reads back what the client encodes: %j', (value) => {
    expect(decodeHeaderValue(encodeHeaderValue(value))).toBe(value);
  });

  it('trims surrounding whitespace, takes non-sentinel values literally and refuses bad Base64', () => {
    expect(decodeHeaderValue('  plain  ')).toBe('plain');
    expect(decodeHeaderValue('SGVsbG8=')).toBe('SGVsbG8=');
    expect(decodeHeaderValue('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
    expect(decodeHeaderValue('=?base64?SGVsbG8?=')).toBeUndefined();
    expect(decodeHeaderValue('=?base64?SGVs!!!bG8=?=')).toBeUndefined();
    expect(decodeHeaderValue('caf\u00e9')).toBeUndefined();
  });

  const parameters: HeaderParameter[] = [
    { name: 'Region', path: ['region'], type: 'string' },
    { name: 'Days', path: ['days'], type: 'integer' },
    { name: 'Verbose', path: ['verbose'], type: 'boolean' },
  ];
  const headers = (values: Record<string, string>) => (name: string) => values[name.toLowerCase()];

  it('accepts headers that match the arguments, comparing integers numerically', () => {
    const sent = parameterHeaders(parameters, { region: 'eu', days: 42, verbose: false });
    expect(parameterHeaderMismatch(parameters, { region: 'eu', days: 42, verbose: false }, headers(sent))).toBeUndefined();
    expect(parameterHeaderMismatch(parameters, { days: 42 }, headers({ 'mcp-param-days': '42.0' }))).toBeUndefined();
    // A null or absent argument expects no header.
    expect(parameterHeaderMismatch(parameters, { region: null }, headers({}))).toBeUndefined();
  });

  it('names the header that is missing or disagrees with the body', () => {
    expect(parameterHeaderMismatch(parameters, { region: 'eu' }, headers({}))).toContain('Mcp-Param-Region header is missing');
    expect(parameterHeaderMismatch(parameters, { region: 'eu' }, headers({ 'mcp-param-region': 'us' }))).toContain('does not match arguments.region');
    expect(parameterHeaderMismatch(parameters, { verbose: true }, headers({ 'mcp-param-verbose': 'TRUE' }))).toContain('Mcp-Param-Verbose');
  });
});
