import { describe, expect, it } from 'vitest';
import { applyElicitationDefaults, assertToolResult, checkToolResult, elicitationDefaults, getDisplayName, McpServer, withElicitationDefaults, type RequestedSchema } from '../../../../runtime/index.js';
import { InterpretingJsonSchemaValidator } from '../../../../runtime/advanced.js';
import { connect, textOf } from '../../features/mcp-server/harness.js';

describe('getDisplayName', () => {
  it('prefers title, then annotations.title, then name', () => {
    expect(getDisplayName({ name: 'get_weather', title: 'Weather', annotations: { title: 'Weather (annotated)' } })).toBe('Weather');
    expect(getDisplayName({ name: 'get_weather', annotations: { title: 'Weather (annotated)' } })).toBe('Weather (annotated)');
    expect(getDisplayName({ name: 'get_weather', title: '' })).toBe('get_weather');
    expect(getDisplayName({ name: 'readme', title: 'Read me' })).toBe('Read me');
  });
});

describe('checkToolResult', () => {
  const tool = { name: 't', outputSchema: { type: 'object' as const, properties: { n: { type: 'integer' } }, required: ['n'] } };

  it('accepts conforming, error and schema-less results', () => {
    expect(checkToolResult(tool, { content: [], structuredContent: { n: 1 } })).toBeNull();
    expect(checkToolResult(tool, { content: [], isError: true })).toBeNull();
    expect(checkToolResult({ name: 'free' }, { content: [] })).toBeNull();
  });

  it('reports mismatches and missing structured content', () => {
    expect(checkToolResult(tool, { content: [], structuredContent: { n: 1.5 } })).toEqual([{ instancePath: '/n', keyword: 'type', message: 'must be integer', params: { type: 'integer' } }]);
    expect(checkToolResult(tool, { content: [] })?.[0]?.message).toMatch(/must have structuredContent/);
    expect(() => assertToolResult(tool, { content: [], structuredContent: {} })).toThrow(/structuredContent: must have required property 'n'/);
  });

  it('uses the validator it is given', () => {
    let compiled = 0;
    const inner = new InterpretingJsonSchemaValidator();
    const counting = { compile: (schema: Parameters<typeof inner.compile>[0]) => (compiled++, inner.compile(schema)) };
    checkToolResult(tool, { content: [], structuredContent: { n: 1 } }, counting);
    checkToolResult(tool, { content: [], structuredContent: { n: 2 } }, counting);
    expect(compiled).toBe(1);
  });
});

describe('elicitation defaults', () => {
  const schema: RequestedSchema = {
    type: 'object',
    properties: {
      name: { type: 'string', default: 'Ada' },
      age: { type: 'number' },
      tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, default: ['x'] },
      ok: { type: 'boolean', default: false },
    },
  };

  it('collects defaults and applies them under what the user entered', () => {
    expect(elicitationDefaults(schema)).toEqual({ name: 'Ada', tags: ['x'], ok: false });
    expect(applyElicitationDefaults(schema, { name: 'Grace', age: 85 })).toEqual({ name: 'Grace', age: 85, tags: ['x'], ok: false });
  });

  it('fills accepted content in a wrapped client handler', async () => {
    const mcp = new McpServer({ name: 'e', version: '1' });
    mcp.registerTool('ask', {}, async (_args, context) => {
      // The client wrapper fills the defaults, so the server sees them even without its own filling.
      const result = await context.session.server.elicit({ mode: 'form', message: 'Who?', requestedSchema: schema });
      return { content: [{ type: 'text', text: JSON.stringify(result.content) }] };
    });
    const { client } = await connect(mcp, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', withElicitationDefaults(() => ({ action: 'accept', content: { age: 3 } })));
    expect(JSON.parse(textOf(await client.callTool({ name: 'ask', arguments: {} })))).toEqual({ name: 'Ada', age: 3, tags: ['x'], ok: false });
    await client.close();
  });
});
