import { describe, expect, it } from 'vitest';
import { McpServer } from '../../../../runtime/index.js';
import { connect } from './harness.js';

const info = { name: 'pagination-test', version: '1.0.0' };

function server(count: number): McpServer {
  const mcp = new McpServer(info, { pageSize: 3 });
  for (let i = 0; i < count; i++) {
    const id = String(i).padStart(2, '0');
    mcp.registerTool(`tool${id}`, {}, () => ({ content: [] }));
    mcp.registerPrompt(`prompt${id}`, {}, () => ({ messages: [] }));
    mcp.registerResource(`resource${id}`, `mem://r/${id}`, {}, (uri) => ({ contents: [{ uri, text: id }] }));
    mcp.registerResourceTemplate(`template${id}`, `mem://t${id}/{x}`, {}, (uri) => ({ contents: [{ uri, text: id }] }));
  }
  return mcp;
}

describe('pagination', () => {
  it('pages every list with opaque cursors', async () => {
    const { client } = await connect(server(10));
    const first = await client.listTools();
    expect(first.tools.map((tool) => tool.name)).toEqual(['tool00', 'tool01', 'tool02']);
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(first.nextCursor).not.toMatch(/^\d+$/);
    expect((await client.listAll('tools/list')).map((tool) => tool.name)).toEqual(Array.from({ length: 10 }, (_, i) => `tool${String(i).padStart(2, '0')}`));
    expect(await client.listAll('prompts/list')).toHaveLength(10);
    expect(await client.listAll('resources/list')).toHaveLength(10);
    expect(await client.listAll('resources/templates/list')).toHaveLength(10);
    const last = await client.listTools({ cursor: (await client.listTools({ cursor: (await client.listTools({ cursor: first.nextCursor! })).nextCursor! })).nextCursor! });
    expect(last.tools.map((tool) => tool.name)).toEqual(['tool09']);
    expect(last.nextCursor).toBeUndefined();
    await client.close();
  });

  it('answers a cursor it did not issue with INVALID_PARAMS', async () => {
    const { client } = await connect(server(5));
    for (const cursor of ['garbage!', '3', btoa('{"offset":3}'), btoa('[1]'), btoa('[-1,"tool00"]'), btoa('[2,"nope"]')]) {
      await expect(client.listTools({ cursor }), cursor).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid cursor/) });
    }
    await client.close();
  });

  it('continues after the last item served when the list changed between pages', async () => {
    const mcp = new McpServer(info, { pageSize: 2 });
    const handles = ['a', 'b', 'c', 'd', 'e'].map((name) => mcp.registerTool(name, {}, () => ({ content: [] })));
    const { client } = await connect(mcp);
    const first = await client.listTools();
    expect(first.tools.map((tool) => tool.name)).toEqual(['a', 'b']);
    handles[0]!.remove();
    const second = await client.listTools({ cursor: first.nextCursor! });
    expect(second.tools.map((tool) => tool.name)).toEqual(['c', 'd']);
    // Once the item a cursor points after is gone, the client has to start over.
    handles[3]!.remove();
    await expect(client.listTools({ cursor: second.nextCursor! })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('answers 1,000 tools in one page by default, as clients that ignore nextCursor expect', async () => {
    const mcp = new McpServer(info);
    for (let i = 0; i < 1_001; i++) mcp.registerTool(`t${i}`, {}, () => ({ content: [] }));
    const { client } = await connect(mcp);
    const first = await client.listTools();
    expect(first.tools).toHaveLength(1_000);
    const rest = await client.listTools({ cursor: first.nextCursor! });
    expect(rest.tools.map((tool) => tool.name)).toEqual(['t1000']);
    expect(rest.nextCursor).toBeUndefined();
    await client.close();
  });

  it('refuses a page size below one', () => {
    expect(() => new McpServer(info, { pageSize: 0 })).toThrow(RangeError);
  });
});
