/**
 * A small MCP server over stdio: two tools and a resource. Run it through the demo client
 * (`make demo`) or any MCP client: `npx tsx examples/stdio-server.ts`.
 */
import { ProtocolError, Server, Stateful } from '../runtime/index.js';
import { StdioServerTransport } from '../runtime/node/index.js';

const server = new Server({ name: 'mcpgen-demo', version: '0.1.0' }, { capabilities: { tools: {}, resources: {} } });

const tools: Stateful.Tool[] = [
  {
    name: 'echo',
    description: 'Echoes the text back.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  },
];

server.setRequestHandler('tools/list', () => ({ tools }));
server.setRequestHandler('tools/call', (params) => {
  const args = params.arguments ?? {};
  if (params.name === 'echo') return { content: [{ type: 'text', text: String(args.text) }] };
  if (params.name === 'add') return { content: [{ type: 'text', text: String(Number(args.a) + Number(args.b)) }] };
  return { content: [{ type: 'text', text: `Unknown tool ${params.name}` }], isError: true };
});
server.setRequestHandler('resources/list', () => ({ resources: [{ uri: 'demo://readme', name: 'readme', mimeType: 'text/plain' }] }));
server.setRequestHandler('resources/read', (params) => {
  if (params.uri !== 'demo://readme') throw new ProtocolError(Stateful.ErrorCode.RESOURCE_NOT_FOUND, `Resource ${params.uri} not found`);
  return { contents: [{ uri: params.uri, mimeType: 'text/plain', text: 'mcpgen demo server' }] };
});

await server.connect(new StdioServerTransport());
