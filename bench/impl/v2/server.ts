// Official SDK v2 (@modelcontextprotocol/server): McpServer + registerTool with a Zod schema,
// served over stdio with serveStdio(factory), as its documentation shows.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { describeTool, ioWait, toolNames } from '../../lib/tools.js';
import type { ServerSide, ServerSpec } from '../../lib/types.js';

export function createServer(spec: ServerSpec): McpServer {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });
  const delay = spec.ioDelayMs;
  for (const name of toolNames(spec.toolCount)) {
    server.registerTool(name, { description: describeTool(name), inputSchema: z.object({ text: z.string() }) }, async ({ text }) => {
      if (delay !== undefined) await ioWait(delay);
      return { content: [{ type: 'text', text }] };
    });
  }
  return server;
}

export const serverSide: ServerSide = {
  async serveStdio(spec) {
    serveStdio(() => createServer(spec));
  },
};
