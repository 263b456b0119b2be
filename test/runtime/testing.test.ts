import { describe } from 'vitest';
import { z } from 'zod';
import { McpServer, Server } from '../../runtime/index.js';
// #region docs
import { expect, it } from 'vitest';
import { connectTestClient } from '../../runtime/testing.js';
// #endregion docs

function calculator() {
  const mcp = new McpServer({ name: 'calculator', version: '1.0.0' });
  mcp.registerTool('add', { inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  mcp.registerTool('ask', {}, async (_args, context) => {
    const answer = await context.elicitForm('Name?', z.object({ name: z.string() }));
    return { content: [{ type: 'text', text: answer.action === 'accept' ? answer.content.name : 'none' }] };
  });
  return mcp;
}

describe('connectTestClient', () => {
  // #region docs

  it('adds two numbers', async () => {
    const { client, close } = await connectTestClient(calculator()); // calculator(): the McpServer under test
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(result.content).toEqual([{ type: 'text', text: '5' }]);
    await close();
  });
  // #endregion docs

  it.each([['the stateless era by default', undefined, 'stateless'], ['the stateful era when pinned', '2025-11-25', 'stateful']] as const)(
    'connects an McpServer in %s, through validation and handlers',
    async (_label, protocolVersion, era) => {
      const { client, close } = await connectTestClient(calculator(), { client: protocolVersion === undefined ? {} : { protocolVersion } });
      expect(client.era).toBe(era);
      const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      expect(result.content).toEqual([{ type: 'text', text: '5' }]);
      await expect(client.callTool({ name: 'add', arguments: { a: 'two' } })).resolves.toMatchObject({ isError: true });
      await close();
      await expect(client.listTools()).rejects.toThrow();
    },
  );

  it('answers the server’s questions with the handlers registered on the client, in both eras', async () => {
    for (const protocolVersion of ['2026-07-28', '2025-11-25']) {
      const { client, close } = await connectTestClient(calculator(), { client: { protocolVersion, capabilities: { elicitation: { form: {} } } } });
      client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada' } }));
      expect((await client.callTool({ name: 'ask', arguments: {} })).content).toEqual([{ type: 'text', text: 'Ada' }]);
      await close();
    }
  });

  it('connects a low-level Server or a factory of one', async () => {
    const make = () => {
      const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'x', inputSchema: { type: 'object' } }] }));
      return server;
    };
    for (const server of [make(), make]) {
      const { client, server: connected, close } = await connectTestClient(server);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['x']);
      expect(connected).toBeInstanceOf(Server);
      await close();
    }
  });
});
