/** The McpServer that the framework examples mount: one tool, as in the quickstart. */
import { McpServer } from '../../runtime/index.js';

export function createGreeter(): McpServer {
  const greeter = new McpServer({ name: 'greeter', version: '1.0.0' });
  greeter.registerTool(
    'greet',
    { description: 'Greets someone by name', inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${String(name)}!` }] }),
  );
  return greeter;
}
