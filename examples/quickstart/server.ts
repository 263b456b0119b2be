/**
 * The README's first server: one tool with typed input and structured output, over stdio, or
 * over Streamable HTTP with `--http`. Run it through its clients (`make demo`) or any MCP
 * client: `npx tsx examples/quickstart/server.ts [--http]` (`PORT` picks the HTTP port).
 */
import { McpServer } from '../../runtime/index.js';
import { createMcpNodeServer, StdioServerTransport } from '../../runtime/node.js';
import { z } from 'zod';

const mcp = new McpServer({ name: 'greeter', version: '1.0.0' });

mcp.registerTool(
  'greet',
  {
    description: 'Greets someone by name',
    inputSchema: z.object({ name: z.string() }),
    outputSchema: z.object({ greeting: z.string() }),
  },
  async ({ name }, context) => {
    await context.log('info', `greeting ${name}`);
    return { structuredContent: { greeting: `Hello, ${name}!` } };
  },
);

if (process.argv.includes('--http')) {
  // One endpoint for both eras: 2025 sessions and 2026-07-28 stateless requests.
  const node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
  const url = await node.listen(Number(process.env.PORT ?? 3000)); // resolves once bound
  console.log(`greeter listening on ${url.href}`);
} else {
  await mcp.connect(new StdioServerTransport());
}
