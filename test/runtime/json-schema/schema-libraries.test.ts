/**
 * Every schema library the docs name works through McpServer over a real connection: zod 4
 * (`zod` and `zod/v4`), zod 3 (through a JSON Schema converter), valibot (plain, through its
 * converter), arktype, and v1-style raw shapes of any of them.
 */
import { toJsonSchema as valibotToJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z as z4 } from 'zod';
import { z as z4sub } from 'zod/v4';
import { z as z3 } from 'zod3';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { McpServer, type SchemaInput, type ToJsonSchema } from '../../../runtime/index.js';
import { connectTestClient } from '../../../runtime/testing.js';

const convert: ToJsonSchema = (schema) => {
  const vendor = schema['~standard'].vendor;
  if (vendor === 'zod') return zodToJsonSchema(schema as never) as Record<string, unknown>;
  if (vendor === 'valibot') return valibotToJsonSchema(schema as never) as Record<string, unknown>;
  throw new Error(`no converter for ${vendor}`);
};

const LIBRARIES: ReadonlyArray<readonly [string, SchemaInput, boolean]> = [
  ['zod 4', z4.object({ city: z4.string(), days: z4.number().optional() }), false],
  ['zod/v4', z4sub.object({ city: z4sub.string(), days: z4sub.number().optional() }), false],
  ['zod 3 with a converter', z3.object({ city: z3.string(), days: z3.number().optional() }), true],
  ['valibot with a converter', v.object({ city: v.string(), days: v.optional(v.number()) }), true],
  ['arktype', type({ city: 'string', 'days?': 'number' }), false],
  ['a raw shape of zod 4', { city: z4.string(), days: z4.number().optional() }, false],
  ['a raw shape of zod 3 with a converter', { city: z3.string(), days: z3.number().optional() }, true],
  ['a raw shape of valibot with a converter', { city: v.string(), days: v.optional(v.number()) }, true],
];

describe.each(LIBRARIES)('%s', (_name, inputSchema, needsConverter) => {
  it('lists the tool with an object JSON Schema and parses its arguments', async () => {
    const mcp = new McpServer({ name: 'libraries', version: '1.0.0' }, needsConverter ? { toJsonSchema: convert } : {});
    mcp.registerTool('forecast', { inputSchema }, (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }));
    const { client, close } = await connectTestClient(mcp);
    const [tool] = (await client.listTools()).tools;
    expect(tool!.inputSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string' }, days: { type: 'number' } }, required: ['city'] });
    const ok = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo', extra: 1 } });
    expect(JSON.parse((ok.content[0] as { text: string }).text)).toMatchObject({ city: 'Oslo' });
    const bad = await client.callTool({ name: 'forecast', arguments: { city: 3 } });
    expect(bad.isError).toBe(true);
    expect((bad.content[0] as { text: string }).text).toContain('city');
    await close();
  });
});

describe('a library schema that cannot describe itself', () => {
  it('is refused at registration with a hint naming the option and the converters', () => {
    const mcp = new McpServer({ name: 'libraries', version: '1.0.0' });
    expect(() => mcp.registerTool('t', { inputSchema: z3.object({ a: z3.string() }) }, () => ({ content: [] }))).toThrow(/toJsonSchema option.*zod-to-json-schema/);
    expect(() => mcp.registerTool('u', { inputSchema: { a: v.string() } }, () => ({ content: [] }))).toThrow(/property a.*@valibot\/to-json-schema/);
  });

  it('types raw-shape arguments from the shape', () => {
    const mcp = new McpServer({ name: 'libraries', version: '1.0.0' });
    mcp.registerTool('typed', { inputSchema: { city: z4.string(), days: z4.number().optional() } }, ({ city, days }) => {
      const name: string = city;
      const count: number | undefined = days;
      // @ts-expect-error city is a string, not a number
      const wrong: number = city;
      return { content: [{ type: 'text', text: `${name}${count ?? ''}${String(wrong)}` }] };
    });
  });
});
