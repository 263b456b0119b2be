import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, latestStatefulRevision, ListCache, type Stateful } from '../../../../runtime/index.js';
import { StdioClientTransport } from '../../../../runtime/node.js';
import { textOf, until } from './harness.js';

const script = fileURLToPath(new URL('./fixtures/stdio-mcp-server.ts', import.meta.url));
let client: Client<Stateful.ProtocolTypes>;
let lists: ListCache;
const changes: string[] = [];
const updates: string[] = [];
const logs: unknown[] = [];

beforeAll(async () => {
  // Notifications outside requests need the stateful era's connection: pin it.
  client = new Client<Stateful.ProtocolTypes>({ name: 'stdio-test', version: '1.0.0' }, { protocolVersion: latestStatefulRevision });
  client.setNotificationHandler('notifications/resources/updated', (params) => {
    updates.push(params.uri);
  });
  client.setNotificationHandler('notifications/message', (params) => {
    logs.push(params.data);
  });
  lists = new ListCache(client, { autoRefresh: true, onchange: (kind) => changes.push(kind) });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', script] }));
}, 30_000);

afterAll(async () => {
  await client.close();
});

it('serves an McpServer over stdio: paged lists, typed tools, templates, prompts, completion', async () => {
  expect(client.serverCapabilities).toEqual({
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    completions: {},
    logging: {},
  });
  const first = await client.listTools();
  expect(first.tools).toHaveLength(2);
  expect(first.nextCursor).toBeDefined();
  expect((await lists.tools()).map((tool) => tool.name)).toEqual(['forecast', 'grow', 'bump']);

  const forecast = await lists.callTool({ name: 'forecast', arguments: { city: 'Tromsø' } });
  expect(forecast.structuredContent).toEqual({ summary: 'Tromsø: sunny for 1 day(s)' });
  expect(logs).toContain('forecast for Tromsø');
  const invalid = await client.callTool({ name: 'forecast', arguments: { city: 3 } });
  expect(invalid.isError).toBe(true);
  expect(textOf(invalid)).toMatch(/^Invalid arguments for tool forecast: arguments\/city: /);

  expect(await client.readResource({ uri: 'notes://work/plans/q3.md' })).toEqual({ contents: [{ uri: 'notes://work/plans/q3.md', text: 'work:plans/q3.md' }] });
  const folders = await client.complete({ ref: { type: 'ref/resource', uri: 'notes://{folder}/{+path}' }, argument: { name: 'folder', value: 'w' } });
  expect(folders.completion.values).toEqual(['work']);
  const prompt = await client.getPrompt({ name: 'haiku', arguments: { topic: 'tea' } });
  expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'A haiku about tea' });
  const topics = await client.complete({ ref: { type: 'ref/prompt', name: 'haiku' }, argument: { name: 'topic', value: 'ti' } });
  expect(topics.completion.values).toEqual(['tide']);
});

it('announces a tool registered at run time, and refreshes the cached list', async () => {
  expect(textOf(await client.callTool({ name: 'grow', arguments: {} }))).toBe('grown-1');
  await until(() => changes.includes('tools'));
  await until(() => lists.peek('tools')?.length === 4);
  expect(lists.peek('tools')?.map((tool: Stateful.Tool) => tool.name)).toEqual(['forecast', 'grow', 'bump', 'grown-1']);
  expect(textOf(await client.callTool({ name: 'grown-1', arguments: {} }))).toBe('grown-1');
});

it('tells a subscribed client that a resource changed', async () => {
  await client.subscribe({ uri: 'mem://counter' });
  await client.callTool({ name: 'bump', arguments: {} });
  await until(() => updates.length === 1);
  expect(updates).toEqual(['mem://counter']);
  expect(await client.readResource({ uri: 'mem://counter' })).toEqual({ contents: [{ uri: 'mem://counter', mimeType: 'text/plain', text: '2' }] });
});
