// Interop peer: an MCP server over stdio built with the official v2 SDK
// (@modelcontextprotocol/server). It uses `serveStdio` with a server factory, the
// v2 stdio entry, so one definition serves both eras: a 2025-era `initialize`
// opening and a 2026-07-28 `server/discover` opening.
//
// `sample`, `elicit` and `roots` are written in the v2 multi-round-trip style
// (`inputRequired(...)`): on a 2026-07-28 connection the client fulfils the embedded
// request and retries; on a 2025-era connection the SDK's legacy shim turns it into
// real sampling/createMessage, elicitation/create and roots/list requests.
//
// Run: node --import tsx test/interop/peers/v2-stdio-server.ts
//
// Nothing is written to stdout except protocol messages; diagnostics go to stderr.
import {
  inputRequired,
  inputResponse,
  McpServer,
  ResourceTemplate,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { waitWithTicks } from './wait-with-ticks.js';

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

const identitySchema = z.object({ name: z.string(), age: z.number() });

function createServer(): McpServer {
  const mcp = new McpServer(
    { name: 'peer-v2-stdio-server', version: '1.0.0' },
    { capabilities: { logging: {} } },
  );

  mcp.registerTool(
    'echo',
    { description: 'Echoes the given text back', inputSchema: z.object({ text: z.string() }) },
    async ({ text: value }, ctx) => {
      await ctx.mcpReq.log('info', `echo called with ${value}`, 'peer');
      return text(`echo: ${value}`);
    },
  );

  mcp.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    async ({ a, b }) => {
      const sum = a + b;
      return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
    },
  );

  mcp.registerTool(
    'slow',
    {
      description: 'Waits ms milliseconds, reporting progress every 50 ms',
      inputSchema: z.object({ ms: z.number() }),
    },
    async ({ ms }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      await waitWithTicks(ms, ctx.mcpReq.signal, async (elapsed) => {
        if (progressToken === undefined) return;
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken, progress: elapsed, total: ms },
        });
      });
      return text('done');
    },
  );

  mcp.registerTool('sample', { description: 'Asks the client to sample a message' }, async (ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'sample');
    if (answer.kind !== 'sampling') {
      return inputRequired({
        inputRequests: {
          sample: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Say something.' } }],
            maxTokens: 32,
          }),
        },
      });
    }
    const blocks = Array.isArray(answer.result.content) ? answer.result.content : [answer.result.content];
    const first = blocks[0];
    return text(first === undefined ? '' : first.type === 'text' ? first.text : `[${first.type}]`);
  });

  mcp.registerTool('elicit', { description: 'Asks the client for a name and an age' }, async (ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'identity');
    if (answer.kind !== 'elicit') {
      return inputRequired({
        inputRequests: {
          identity: inputRequired.elicit({
            mode: 'form',
            message: 'Who are you?',
            requestedSchema: identitySchema,
          }),
        },
      });
    }
    return text(JSON.stringify({ action: answer.action, content: answer.content }));
  });

  mcp.registerTool('roots', { description: "Lists the client's roots" }, async (ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
    if (answer.kind !== 'roots') {
      return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    }
    return text(JSON.stringify(answer.roots.map((root) => root.uri)));
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
    { description: 'Greets someone by name', argsSchema: z.object({ name: z.string() }) },
    ({ name }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }],
    }),
  );

  return mcp;
}

serveStdio(() => createServer(), {
  onerror: (error) => process.stderr.write(`peer-v2-stdio-server: ${error.message}\n`),
});
