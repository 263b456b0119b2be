import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../../runtime/index.js';
import { AjvJsonSchemaValidator } from '../../../../runtime/node.js';
import { keywordCases } from '../../json-schema/cases.js';
import { connect } from '../mcp-server/harness.js';

const validator = new AjvJsonSchemaValidator();

describe('AjvJsonSchemaValidator agrees with the interpreting validator', () => {
  it.each(keywordCases.map((testCase) => [testCase.keyword, testCase]))('%s', (_keyword, { schema, valid, invalid }) => {
    const check = validator.compile(schema);
    for (const value of valid) expect(check(value), JSON.stringify(value)).toEqual({ valid: true });
    // Verdicts only: where ajv reports some errors (e.g. surplus tuple items) differs legitimately.
    for (const { value } of invalid) expect(check(value).valid, JSON.stringify(value)).toBe(false);
  });

  it('names missing and additional properties in its messages', () => {
    const result = validator.compile({ type: 'object', required: ['city'], additionalProperties: false })({ town: 'x' });
    expect(!result.valid && result.errors.map((error) => error.message)).toEqual(["must have required property 'city'", "must NOT have additional property 'town'"]);
  });
});

it('plugs into McpServer', async () => {
  const mcp = new McpServer({ name: 'ajv', version: '1.0.0' }, { validator });
  mcp.registerTool('t', { inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }, ({ n }) => ({ content: [{ type: 'text', text: String(n * 2) }] }));
  const { client } = await connect(mcp);
  expect(await client.callTool({ name: 't', arguments: { n: 21 } })).toEqual({ content: [{ type: 'text', text: '42' }] });
  expect(await client.callTool({ name: 't', arguments: { n: 'x' } })).toEqual({ content: [{ type: 'text', text: 'Invalid arguments for tool t: arguments/n: must be integer' }], isError: true });
  await client.close();
});
