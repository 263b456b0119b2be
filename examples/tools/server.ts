/**
 * Story: tools with structured output. `get-weather` declares its input and output with zod,
 * `add` with JSON Schema literals; both return `structuredContent` typed from the output
 * schema, and the server adds the text content older clients read.
 *
 * Run it: `npx tsx examples/tools/server.ts` (stdio) or `… --http` (prints the endpoint URL).
 */
// #region server
import { McpServer } from '../../runtime/index.js';
import { z } from 'zod';
// #endregion server
import { isMain, serveFromArgs } from '../shared/harness.js';

// #region server

export function createServer(): McpServer {
  const mcp = new McpServer({ name: 'weather', version: '1.0.0' });

  mcp.registerTool(
    'get-weather',
    {
      title: 'Current weather',
      description: 'The current weather in a city',
      inputSchema: z.object({ city: z.string(), units: z.enum(['celsius', 'fahrenheit']).default('celsius') }),
      outputSchema: z.object({ city: z.string(), temperature: z.number(), conditions: z.string() }),
      annotations: { readOnlyHint: true },
    },
    // `city` and `units` are typed from the input schema; the return type is checked against the output schema.
    ({ city, units }) => {
      const celsius = city.length * 3;
      const temperature = units === 'celsius' ? celsius : celsius * 1.8 + 32;
      return { structuredContent: { city, temperature, conditions: 'sunny' } };
    },
  );

  // JSON Schema literals work too, with the same inference (`a` and `b` are numbers).
  mcp.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    },
    ({ a, b }) => ({ structuredContent: { sum: a + b } }),
  );

  return mcp;
}
// #endregion server

if (isMain(import.meta.url)) await serveFromArgs(createServer());
