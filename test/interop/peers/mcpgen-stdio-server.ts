// Interop peer: the same surface as the official-SDK peer servers (v1-stdio-server.ts,
// v2-stdio-server.ts), built with mcpgen's McpServer and StdioServerTransport, so that the
// official clients can be pointed at it.
//
// Run: node --import tsx test/interop/peers/mcpgen-stdio-server.ts
//
// One deliberate difference from the official peers: `elicit` is listed only when the
// negotiated revision has elicitation/create (2025-06-18 and later). mcpgen refuses to send a
// method the negotiated revision lacks, so on older revisions the tool could never work. Like
// the official peers, `sample`, `elicit` and `roots` answer with an isError result when the
// client did not declare the capability their request needs.
//
// Nothing is written to stdout except protocol messages; diagnostics go to stderr.
import { InputRequiredSignal, McpServer, type Stateful } from '../../../runtime/index.js';
import { StdioServerTransport } from '../../../runtime/node.js';
import { waitWithTicks } from './wait-with-ticks.js';

const text = (value: string): Stateful.CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** Runs a tool body; a failure (a missing client capability, say) becomes a tool error naming the tool, as in the peers. */
async function named(tool: string, body: () => Promise<Stateful.CallToolResult>): Promise<Stateful.CallToolResult> {
  try {
    return await body();
  } catch (error) {
    // A question for a stateless-era client ends the round with input_required; it is no failure.
    if (error instanceof InputRequiredSignal) throw error;
    return { content: [{ type: 'text', text: `${tool}: ${(error as Error).message}` }], isError: true };
  }
}

const mcp = new McpServer(
  { name: 'mcpgen-stdio-server', version: '1.0.0' },
  { onerror: (error) => process.stderr.write(`mcpgen-stdio-server: ${error.message}\n`) },
);

mcp.registerTool(
  'echo',
  { description: 'Echoes the given text back', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
  async (args, context) => {
    await context.log('info', `echo called with ${args.text}`, 'peer');
    return text(`echo: ${args.text}`);
  },
);

mcp.registerTool(
  'add',
  {
    description: 'Adds two numbers',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  },
  ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
);

mcp.registerTool(
  'slow',
  { description: 'Waits ms milliseconds, reporting progress every 50 ms', inputSchema: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] } },
  async ({ ms }, context) => {
    await waitWithTicks(ms, context.signal, (elapsed) => context.reportProgress(elapsed, ms));
    return text('done');
  },
);

mcp.registerTool('sample', { description: 'Asks the client to sample a message' }, (_args, context) =>
  named('sample', async () => {
    const result = await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say something.' } }], maxTokens: 32 });
    const first = Array.isArray(result.content) ? result.content[0] : result.content;
    return text(first === undefined ? '' : first.type === 'text' ? first.text : `[${first.type}]`);
  }),
);

mcp.registerTool(
  'elicit',
  { description: 'Asks the client for a name and an age', available: (session) => session.supports('elicitation/create') },
  (_args, context) =>
    named('elicit', async () => {
      const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' } }, required: ['name', 'age'] } as const;
      const result = await context.elicitForm('Who are you?', schema);
      return text(JSON.stringify({ action: result.action, content: result.action === 'accept' ? result.content : undefined }));
    }),
);

mcp.registerTool('roots', { description: "Lists the client's roots" }, (_args, context) =>
  named('roots', async () => text(JSON.stringify((await context.listRoots()).map((root) => root.uri)))),
);

for (let i = 0; i < 30; i++) {
  const name = `t${String(i).padStart(2, '0')}`;
  mcp.registerTool(name, { description: `Filler tool ${name}`, inputSchema: { type: 'object' } }, () => text(name));
}

mcp.registerResource('hello', 'mem://hello', { description: 'A fixed greeting', mimeType: 'text/plain' }, (uri) => ({
  contents: [{ uri, mimeType: 'text/plain', text: 'hello' }],
}));

mcp.registerResourceTemplate('item', 'mem://items/{id}', { description: 'An item by id', mimeType: 'text/plain' }, (uri, { id }) => ({
  contents: [{ uri, mimeType: 'text/plain', text: `item ${id}` }],
}));

mcp.registerPrompt(
  'greet',
  { description: 'Greets someone by name', argsSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
  ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }] }),
);

await mcp.connect(new StdioServerTransport());
