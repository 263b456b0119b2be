/**
 * Story: tools with structured output, the client side. Lists the tools, calls them, checks
 * each structured result against the tool's output schema, and shows that bad arguments come
 * back as an `isError` result the model can act on.
 *
 * Run it: `npx tsx examples/tools/client.ts [stdio|http|memory]`.
 */
import assert from 'node:assert/strict';
// #region client
import { assertToolResult, Client, getDisplayName, ListCache } from '../../runtime/index.js';
// #endregion client
import { isMain, runStoryFromArgs, type Connect, type Story } from '../shared/harness.js';
import { createServer } from './server.js';

export async function run(connect: Connect): Promise<void> {
  // #region client
  const client = new Client({ name: 'weather-client', version: '1.0.0' });
  // #endregion client
  await connect(client);

  // #region client
  // … connected to the weather server over any transport …
  const tools = await client.listAll('tools/list');
  const weather = tools.find((tool) => tool.name === 'get-weather')!;
  const result = await client.callTool({ name: 'get-weather', arguments: { city: 'Lisbon' } });
  assertToolResult(weather, result); // throws when structuredContent breaks the tool's outputSchema
  // result.structuredContent: { city: 'Lisbon', temperature: 18, conditions: 'sunny' }
  // #endregion client

  assert.deepEqual(tools.map((tool) => tool.name).sort(), ['add', 'get-weather']);
  assert.equal(weather.title, 'Current weather');
  assert.deepEqual(weather.annotations, { readOnlyHint: true });
  assert.deepEqual(weather.outputSchema?.required, ['city', 'temperature', 'conditions']);
  assert.deepEqual(result.structuredContent, { city: 'Lisbon', temperature: 18, conditions: 'sunny' });
  // The text block mirrors the structured content for clients that predate it.
  assert.deepEqual(result.content, [{ type: 'text', text: JSON.stringify(result.structuredContent) }]);

  const fahrenheit = await client.callTool({ name: 'get-weather', arguments: { city: 'Oslo', units: 'fahrenheit' } });
  assert.deepEqual(fahrenheit.structuredContent, { city: 'Oslo', temperature: 53.6, conditions: 'sunny' });

  const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
  assert.deepEqual(sum.structuredContent, { sum: 42 });

  // #region list-cache
  // Keeps the lists across pages and list_changed notifications, and checks structured results.
  const lists = new ListCache(client, { autoRefresh: true });
  const names = (await lists.tools()).map((tool) => getDisplayName(tool)); // ['Current weather', 'add']
  const checked = await lists.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
  lists.dispose();
  // #endregion list-cache
  assert.deepEqual(names.sort(), ['Current weather', 'add']);
  assert.deepEqual(checked.structuredContent, { sum: 3 });

  // Arguments that do not fit the input schema: a tool error naming the field, not a protocol error.
  const bad = await client.callTool({ name: 'add', arguments: { a: 'two', b: 40 } });
  assert.equal(bad.isError, true);
  assert.match(JSON.stringify(bad.content), /Invalid arguments for tool add/);
}

export const story: Story = { name: 'tools', serverModule: new URL('./server.ts', import.meta.url).href, createServer, run };

if (isMain(import.meta.url)) await runStoryFromArgs(story);
