/**
 * Migration guide, column 2: the tasks of docs/migration.md with `@modelcontextprotocol/server`
 * and `@modelcontextprotocol/client` 2.x (the versions pinned in package.json). Type-checked
 * against the installed packages so the comparison stays true; not run.
 */
// #region imports
import { acceptedContent, createMcpHandler, inputRequired, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { z } from 'zod';
// #endregion imports
// #region more-imports
import { InMemoryTransport, ProtocolError, ProtocolErrorCode, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Protocol, type EventStore } from '@modelcontextprotocol/server';
// #endregion more-imports

export function createWeatherServer(): McpServer {
  const mcp = new McpServer({ name: 'weather', version: '1.0.0' });

  // #region tool
  mcp.registerTool(
    'get-weather',
    { description: 'The current weather in a city', inputSchema: z.object({ city: z.string() }), outputSchema: z.object({ temperature: z.number() }) },
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
  // 2026-07-28 requests: return inputRequired(...) and read the answer when the client retries.
  // (2025 sessions use ctx.mcpReq.elicitInput(...) instead, which throws on 2026-07-28 requests.)
  const Dates = z.object({ from: z.string() });
  mcp.registerTool('book', { inputSchema: z.object({ city: z.string() }) }, async ({ city }, ctx) => {
    const dates = acceptedContent(ctx.mcpReq.inputResponses, 'dates', Dates);
    if (dates === undefined) {
      return inputRequired({ inputRequests: { dates: inputRequired.elicit({ mode: 'form', message: `When do you travel to ${city}?`, requestedSchema: Dates }) } });
    }
    return { content: [{ type: 'text', text: `Booked from ${dates.from}` }] };
  });
  // #endregion ask-user

  // #region progress
  mcp.registerTool('count', { inputSchema: z.object({ to: z.number() }) }, async ({ to }, ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (let step = 1; step <= to; step++) {
      if (progressToken !== undefined) {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: step, total: to } });
      }
    }
    return { content: [{ type: 'text', text: `counted to ${to}` }] };
  });
  // #endregion progress

  return mcp;
}

export function serveOverStdio(): void {
  // #region serve-stdio
  serveStdio(() => createWeatherServer());
  // #endregion serve-stdio
}

// #region serve-http
// A Fetch API handler (Workers, Deno, Bun; Node through an adapter); the factory backs both eras.
const handler = createMcpHandler(() => createWeatherServer());
export default { fetch: (request: Request) => handler.fetch(request) };
// #endregion serve-http

export async function useClient(): Promise<void> {
  // #region client
  const client = new Client({ name: 'weather-client', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { from: '2026-09-01' } }));
  await client.connect(new StdioClientTransport({ command: 'node', args: ['server.js'] }));
  const result = await client.callTool({ name: 'get-weather', arguments: { city: 'Lisbon' } });
  // #endregion client
  console.log(result.structuredContent);
  // #region client-progress
  await client.callTool({ name: 'count', arguments: { to: 3 } }, { onprogress: (progress) => console.log(progress.progress) });
  // #endregion client-progress
}
