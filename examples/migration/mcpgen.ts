/**
 * Migration guide, column 3: the tasks of docs/migration.md with mcpgen. Type-checked like the
 * other two columns; the stories in examples/ run the same calls for real.
 */
// #region imports
import { Client, createMcpHttpHandler, McpServer } from '../../runtime/index.js';
import { StdioClientTransport, StdioServerTransport } from '../../runtime/node.js';
import { z } from 'zod';
// #endregion imports
// #region more-imports
import { createLinkedPair, ProtocolError, Stateful, StreamableHttpClientTransport } from '../../runtime/index.js';
import { InMemoryEventStore, LegacySseClientTransport } from '../../runtime/http.js';
import { Protocol } from '../../runtime/advanced.js';
// #endregion more-imports

export function createWeatherServer(): McpServer {
  const mcp = new McpServer({ name: 'weather', version: '1.0.0' });

  // #region tool
  mcp.registerTool(
    'get-weather',
    { description: 'The current weather in a city', inputSchema: z.object({ city: z.string() }), outputSchema: z.object({ temperature: z.number() }) },
    // The text content for older clients is added from structuredContent.
    ({ city }) => ({ structuredContent: { temperature: city.length * 3 } }),
  );
  // #endregion tool

  // #region template
  mcp.registerResourceTemplate(
    'note',
    'notes://{topic}',
    { mimeType: 'text/plain', complete: { topic: (value) => ['recipes', 'travel'].filter((t) => t.startsWith(value)) } },
    (uri, { topic }) => ({ contents: [{ uri, text: `Notes on ${topic}` }] }),
  );
  // #endregion template

  // #region ask-user
  // One handler for both eras: a real request in a 2025 session, a multi round-trip in 2026-07-28.
  mcp.registerTool('book', { inputSchema: z.object({ city: z.string() }) }, async ({ city }, context) => {
    const dates = await context.elicitForm(`When do you travel to ${city}?`, z.object({ from: z.string() }), { inputKey: 'dates' });
    if (dates.action !== 'accept') return { content: [{ type: 'text', text: 'Cancelled' }] };
    return { content: [{ type: 'text', text: `Booked from ${dates.content.from}` }] };
  });
  // #endregion ask-user

  // #region progress
  mcp.registerTool('count', { inputSchema: z.object({ to: z.number() }) }, async ({ to }, context) => {
    // A no-op when the client asked for no progress.
    for (let step = 1; step <= to; step++) await context.reportProgress(step, to);
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

// #region serve-http
// A Fetch API handler (Workers, Deno, Bun; `createMcpNodeServer` from mcpgen/node on Node):
// sessions for 2025 clients and stateless requests for 2026-07-28 ones on the same endpoint.
const mcp = createWeatherServer();
// The host names it is served under pass the DNS-rebinding check (loopback only by default).
const handler = createMcpHttpHandler({ server: () => mcp.createServer(), allowedHosts: ['weather.example.com'] });
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
