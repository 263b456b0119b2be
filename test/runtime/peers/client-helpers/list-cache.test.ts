import { describe, expect, it } from 'vitest';
import { Client, createLinkedPair, latestStatefulRevision, ListCache, McpServer, Server, type CachedListKind } from '../../../../runtime/index.js';
import { connect, settle, until } from '../../features/mcp-server/harness.js';

const info = { name: 'list-cache-test', version: '1.0.0' };

function server(): McpServer {
  const mcp = new McpServer(info, { pageSize: 2 });
  for (const name of ['a', 'b', 'c']) mcp.registerTool(name, {}, () => ({ content: [] }));
  mcp.registerResource('r', 'mem://r', {}, (uri) => ({ contents: [{ uri, text: '' }] }));
  mcp.registerResourceTemplate('t', 'mem://t/{id}', {}, (uri) => ({ contents: [{ uri, text: '' }] }));
  return mcp;
}

describe('ListCache', () => {
  it('fetches every page once and serves the cache afterwards', async () => {
    const mcp = server();
    const { client } = await connect(mcp, {}, false);
    let listed = 0;
    const original = client.listAll.bind(client);
    client.listAll = ((...args: Parameters<Client['listAll']>) => {
      listed += 1;
      return original(...args);
    }) as Client['listAll'];
    const lists = new ListCache(client);
    expect((await lists.tools()).map((tool) => tool.name)).toEqual(['a', 'b', 'c']);
    expect((await lists.tools()).map((tool) => tool.name)).toEqual(['a', 'b', 'c']);
    expect(listed).toBe(1);
    expect((await lists.resources()).map((resource) => resource.uri)).toEqual(['mem://r']);
    expect((await lists.resourceTemplates()).map((template) => template.uriTemplate)).toEqual(['mem://t/{id}']);
    // The server declares no prompts capability, so there is nothing to list.
    expect(await lists.prompts()).toEqual([]);
    await client.close();
  });

  it('drops a list when the server says it changed, and refetches on the next read', async () => {
    const mcp = server();
    const { client } = await connect(mcp, {}, false);
    const seen: Array<[CachedListKind, unknown]> = [];
    const lists = new ListCache(client, { onchange: (kind, items) => seen.push([kind, items]) });
    await lists.tools();
    await lists.resources();
    mcp.registerTool('d', {}, () => ({ content: [] }));
    mcp.registerResource('r2', 'mem://r2', {}, (uri) => ({ contents: [{ uri, text: '' }] }));
    await until(() => seen.length === 3);
    expect(seen).toEqual([['tools', undefined], ['resources', undefined], ['resourceTemplates', undefined]]);
    expect(lists.peek('tools')).toBeUndefined();
    expect((await lists.tools()).map((tool) => tool.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(lists.peek('tools')).toHaveLength(4);
    await client.close();
  });

  it('fetches again when a change is announced while the pages come in', async () => {
    const mcp = server();
    const { client } = await connect(mcp, {}, false);
    const changes: CachedListKind[] = [];
    let announced!: () => void;
    const lists = new ListCache(client, {
      onchange: (kind) => {
        changes.push(kind);
        if (kind === 'tools') announced();
      },
    });
    const results: string[][] = [];
    const original = client.listAll.bind(client);
    client.listAll = (async (...args: Parameters<Client['listAll']>) => {
      const items = (await original(...args)) as Array<{ name: string }>;
      results.push(items.map((tool) => tool.name));
      if (results.length === 1) {
        // The list changes after these pages were read, and the notification lands before they return.
        const heard = new Promise<void>((resolve) => (announced = resolve));
        mcp.registerTool('late', {}, () => ({ content: [] }));
        await heard;
      }
      return items;
    }) as Client['listAll'];
    expect((await lists.tools()).map((tool) => tool.name)).toEqual(['a', 'b', 'c', 'late']);
    expect(results).toEqual([['a', 'b', 'c'], ['a', 'b', 'c', 'late']]);
    expect(lists.peek('tools')?.map((tool) => tool.name)).toEqual(['a', 'b', 'c', 'late']);
    await client.close();
  });

  it('refetches at once with autoRefresh', async () => {
    const mcp = server();
    const { client } = await connect(mcp, {}, false);
    const fresh: string[][] = [];
    const lists = new ListCache(client, { autoRefresh: true, onchange: (kind, items) => kind === 'tools' && fresh.push((items ?? []).map((tool) => (tool as { name: string }).name)) });
    await lists.tools();
    const b = mcp.registerTool('e', {}, () => ({ content: [] }));
    await until(() => fresh.length === 1);
    b.disable();
    await until(() => fresh.length === 2);
    expect(fresh).toEqual([['a', 'b', 'c', 'e'], ['a', 'b', 'c']]);
    expect(lists.peek('tools')?.map((tool) => tool.name)).toEqual(['a', 'b', 'c']);
    await client.close();
  });

  it('checks structured tool results against the listed output schema', async () => {
    // A low-level server can break its own output schema; McpServer would not let it.
    const server = new Server(info, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({
      tools: [{ name: 'liar', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } }],
    }));
    server.setRequestHandler('tools/call', (params) =>
      params.arguments?.honest === true ? { content: [], structuredContent: { n: 1 } } : { content: [], structuredContent: { n: 'one' } },
    );
    const [clientSide, serverSide] = createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1' }, { protocolVersion: latestStatefulRevision });
    await client.connect(clientSide);
    const lists = new ListCache(client);
    expect((await lists.callTool({ name: 'liar', arguments: { honest: true } })).structuredContent).toEqual({ n: 1 });
    await expect(lists.callTool({ name: 'liar', arguments: {} })).rejects.toMatchObject({
      code: 'INVALID_RESULT',
      message: 'Tool liar returned a result that does not match its outputSchema: structuredContent/n: must be number',
    });
    await client.close();
  });

  it('gives the notifications back when disposed', async () => {
    const mcp = server();
    const { client } = await connect(mcp, {}, false);
    const seen: string[] = [];
    const lists = new ListCache(client, { onchange: (kind) => seen.push(kind) });
    lists.dispose();
    mcp.registerTool('z', {}, () => ({ content: [] }));
    await settle(5);
    expect(seen).toEqual([]);
    await client.close();
  });
});
