/**
 * Migration guide, column 1: the tasks of docs/migration.md with `@modelcontextprotocol/sdk`
 * 1.x (the version pinned in package.json). Type-checked against the installed package so the
 * comparison stays true; not run.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
// #region imports
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
// #endregion imports
// #region more-imports
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
// #endregion more-imports

export function createWeatherServer(): McpServer {
  const mcp = new McpServer({ name: 'weather', version: '1.0.0' });

  // #region tool
  mcp.registerTool(
    'get-weather',
    { description: 'The current weather in a city', inputSchema: { city: z.string() }, outputSchema: { temperature: z.number() } },
    async ({ city }) => {
      const structuredContent = { temperature: city.length * 3 };
      return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
    },
  );
  // #endregion tool

  // #region template
  mcp.registerResource(
    'note',
    new ResourceTemplate('notes://{topic}', { list: undefined, complete: { topic: (value) => ['recipes', 'travel'].filter((t) => t.startsWith(value)) } }),
    { mimeType: 'text/plain' },
    async (uri, { topic }) => ({ contents: [{ uri: uri.href, text: `Notes on ${String(topic)}` }] }),
  );
  // #endregion template

  // #region ask-user
  mcp.registerTool('book', { inputSchema: { city: z.string() } }, async ({ city }) => {
    const answer = await mcp.server.elicitInput({
      mode: 'form',
      message: `When do you travel to ${city}?`,
      requestedSchema: { type: 'object', properties: { from: { type: 'string' } }, required: ['from'] },
    });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'Cancelled' }] };
    return { content: [{ type: 'text', text: `Booked from ${String(answer.content?.from)}` }] };
  });
  // #endregion ask-user

  // #region progress
  mcp.registerTool('count', { inputSchema: { to: z.number() } }, async ({ to }, extra) => {
    const progressToken = extra._meta?.progressToken;
    for (let step = 1; step <= to; step++) {
      if (progressToken !== undefined) {
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: step, total: to } });
      }
    }
    return { content: [{ type: 'text', text: `counted to ${to}` }] };
  });
  // #endregion progress

  return mcp;
}

export async function serveStdio(): Promise<void> {
  // #region serve-stdio
  await createWeatherServer().connect(new StdioServerTransport());
  // #endregion serve-stdio
}

export function serveHttp(): void {
  // #region serve-http
  // One transport and one McpServer per session, found again by the Mcp-Session-Id header.
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (transport === undefined) {
      const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void sessions.set(sid, created) });
      await createWeatherServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  }).listen(3000, '127.0.0.1');
  // #endregion serve-http
}

export async function useClient(): Promise<void> {
  // #region client
  const client = new Client({ name: 'weather-client', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { from: '2026-09-01' } }));
  await client.connect(new StdioClientTransport({ command: 'node', args: ['server.js'] }));
  const result = await client.callTool({ name: 'get-weather', arguments: { city: 'Lisbon' } });
  // #endregion client
  console.log(result.structuredContent);
  // #region client-progress
  await client.callTool({ name: 'count', arguments: { to: 3 } }, undefined, { onprogress: (progress) => console.log(progress.progress) });
  // #endregion client-progress
}
