/**
 * The README's first server: one tool with typed input and structured output, over stdio.
 * Run it through its client (`make demo`) or any MCP client: `npx tsx examples/quickstart/server.ts`.
 */
import { McpServer } from '../../runtime/index.js';
import { StdioServerTransport } from '../../runtime/node.js';
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

await mcp.connect(new StdioServerTransport());
