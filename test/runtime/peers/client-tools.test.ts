import { describe, expect, it } from 'vitest';
import { Client, createLinkedPair, SdkError, Server, type ClientOptions } from '../../../runtime/index.js';
import { MAX_REMEMBERED_TOOLS, ToolCatalog } from '../../../runtime/peers/client-tools.js';

const info = { name: 'tool-output-test', version: '1.0.0' };
const weather = {
  name: 'weather',
  inputSchema: { type: 'object' as const },
  outputSchema: { type: 'object' as const, properties: { celsius: { type: 'number' } }, required: ['celsius'] },
};

/** A low-level server (McpServer would refuse to send what these tests need) answering with `results` in turn. */
async function connected(results: Record<string, unknown>[], options: ClientOptions = {}) {
  const server = new Server(info, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: [weather, { name: 'free', inputSchema: { type: 'object' } }] }));
  let next = 0;
  server.setRequestHandler('tools/call', () => results[next++] as never);
  const [clientSide, serverSide] = createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(info, options);
  await client.connect(clientSide);
  return client;
}

describe.each(['2025-11-25', '2026-07-28'])('a listed tool with an outputSchema, protocol %s', (protocolVersion) => {
  it('passes a result whose structuredContent conforms, and an error result', async () => {
    const client = await connected([
      { content: [], structuredContent: { celsius: 21 } },
      { content: [{ type: 'text', text: 'no station' }], isError: true },
    ], { protocolVersion });
    await client.listTools();
    expect((await client.callTool({ name: 'weather', arguments: {} })).structuredContent).toEqual({ celsius: 21 });
    expect((await client.callTool({ name: 'weather', arguments: {} })).isError).toBe(true);
    await client.close();
  });

  it('refuses structuredContent that breaks the schema, naming the tool and the field', async () => {
    const client = await connected([{ content: [], structuredContent: { celsius: 'warm' } }], { protocolVersion });
    await client.listTools();
    const failure = await client.callTool({ name: 'weather', arguments: {} }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect(failure).toMatchObject({ code: 'INVALID_RESULT' });
    expect((failure as Error).message).toMatch(/weather.*structuredContent\/celsius/);
    await client.close();
  });

  it('refuses a successful result without structuredContent', async () => {
    const client = await connected([{ content: [{ type: 'text', text: '21' }] }], { protocolVersion });
    await client.listTools();
    await expect(client.callTool({ name: 'weather', arguments: {} })).rejects.toMatchObject({ code: 'INVALID_RESULT' });
    await client.close();
  });

  it('checks nothing for tools without an outputSchema, for unlisted tools, or when turned off', async () => {
    const bad = { content: [], structuredContent: { celsius: 'warm' } };
    const unlisted = await connected([bad], { protocolVersion });
    expect((await unlisted.callTool({ name: 'weather', arguments: {} })).structuredContent).toEqual({ celsius: 'warm' });
    await unlisted.close();
    const off = await connected([bad], { protocolVersion, validateToolOutput: false });
    await off.listTools();
    expect((await off.callTool({ name: 'weather', arguments: {} })).structuredContent).toEqual({ celsius: 'warm' });
    await off.close();
    const free = await connected([bad], { protocolVersion });
    await free.listTools();
    expect((await free.callTool({ name: 'free', arguments: {} })).structuredContent).toEqual({ celsius: 'warm' });
    await free.close();
  });
});

describe('ToolCatalog', () => {
  it(`remembers at most ${MAX_REMEMBERED_TOOLS} tools, forgetting the longest unlisted first`, () => {
    const catalog = new ToolCatalog();
    const listing = (from: number, count: number) => ({ tools: Array.from({ length: count }, (_, i) => ({ name: `t${from + i}`, inputSchema: { type: 'object', title: `t${from + i}` } })) });
    catalog.learn(listing(0, MAX_REMEMBERED_TOOLS), false, () => undefined);
    // Listing t0 again makes it the newest: t1 is now the oldest.
    catalog.learn(listing(0, 1), false, () => undefined);
    catalog.learn(listing(MAX_REMEMBERED_TOOLS, 1), false, () => undefined);
    expect(catalog.inputSchema('t0')).toEqual({ type: 'object', title: 't0' });
    expect(catalog.inputSchema('t1')).toBeUndefined();
    expect(catalog.inputSchema('t2')).toEqual({ type: 'object', title: 't2' });
    expect(catalog.inputSchema(`t${MAX_REMEMBERED_TOOLS}`)).toBeDefined();
  });
});
