// Interop peer: an MCP server over stdio built with the official v1 SDK
// (@modelcontextprotocol/sdk), wired the way the SDK documents it
// (McpServer + register* + StdioServerTransport).
//
// Run: node --import tsx test/interop/peers/v1-stdio-server.ts
//
// Nothing is written to stdout except protocol messages; diagnostics go to stderr.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { waitWithTicks } from './wait-with-ticks.js';

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

const mcp = new McpServer(
  { name: 'peer-v1-stdio-server', version: '1.0.0' },
  { capabilities: { logging: {} } },
);

mcp.registerTool(
  'echo',
  { description: 'Echoes the given text back', inputSchema: { text: z.string() } },
  async ({ text: value }) => {
    await mcp.sendLoggingMessage({ level: 'info', logger: 'peer', data: `echo called with ${value}` });
    return text(`echo: ${value}`);
  },
);

mcp.registerTool(
  'add',
  {
    description: 'Adds two numbers',
    inputSchema: { a: z.number(), b: z.number() },
    outputSchema: { sum: z.number() },
  },
  async ({ a, b }) => {
    const sum = a + b;
    return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
  },
);

mcp.registerTool(
  'slow',
  { description: 'Waits ms milliseconds, reporting progress every 50 ms', inputSchema: { ms: z.number() } },
  async ({ ms }, extra) => {
    const progressToken = extra._meta?.progressToken;
    await waitWithTicks(ms, extra.signal, async (elapsed) => {
      if (progressToken === undefined) return;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress: elapsed, total: ms },
      });
    });
    return text('done');
  },
);

mcp.registerTool('sample', { description: 'Asks the client to sample a message' }, async () => {
  const result = await mcp.server.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: 'Say something.' } }],
    maxTokens: 32,
  });
  const block = result.content;
  return text(block.type === 'text' ? block.text : `[${block.type}]`);
});

mcp.registerTool('elicit', { description: 'Asks the client for a name and an age' }, async () => {
  const result = await mcp.server.elicitInput({
    mode: 'form',
    message: 'Who are you?',
    requestedSchema: {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'number' } },
      required: ['name', 'age'],
    },
  });
  return text(JSON.stringify({ action: result.action, content: result.content }));
});

mcp.registerTool('roots', { description: "Lists the client's roots" }, async () => {
  const result = await mcp.server.listRoots();
  return text(JSON.stringify(result.roots.map((root) => root.uri)));
});

for (let i = 0; i < 30; i += 1) {
  const name = `t${String(i).padStart(2, '0')}`;
  mcp.registerTool(name, { description: `Filler tool ${name}` }, async () => text(name));
}

mcp.registerResource(
  'hello',
  'mem://hello',
  { description: 'A fixed greeting', mimeType: 'text/plain' },
  async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello' }] }),
);

mcp.registerResource(
  'item',
  new ResourceTemplate('mem://items/{id}', { list: undefined }),
  { description: 'An item by id', mimeType: 'text/plain' },
  async (uri, variables) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: `item ${String(variables.id)}` }],
  }),
);

mcp.registerPrompt(
  'greet',
  { description: 'Greets someone by name', argsSchema: { name: z.string() } },
  ({ name }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }],
  }),
);

await mcp.connect(new StdioServerTransport());
process.stdin.on('end', () => {
  void mcp.close().finally(() => process.exit(0));
});
