// Official SDK v1 (@modelcontextprotocol/sdk): McpServer + registerTool with a Zod raw shape,
// connected to StdioServerTransport, as its README and examples show.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { describeTool, ioWait, toolNames } from '../../lib/tools.js';
import type { ServerSide, ServerSpec } from '../../lib/types.js';

export function createServer(spec: ServerSpec): McpServer {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });
  const delay = spec.ioDelayMs;
  for (const name of toolNames(spec.toolCount)) {
    server.registerTool(name, { description: describeTool(name), inputSchema: { text: z.string() } }, async ({ text }) => {
      if (delay !== undefined) await ioWait(delay);
      return { content: [{ type: 'text', text }] };
    });
  }
  return server;
}

export const serverSide: ServerSide = {
  async serveStdio(spec) {
    await createServer(spec).connect(new StdioServerTransport());
  },
};
