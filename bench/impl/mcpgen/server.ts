// mcpgen's benchmark server: the README's low-level Server with a tools/list and a tools/call handler.
import type { Server } from '../../../runtime/index.js';
import { loadMcpgen, loadMcpgenNode } from '../../lib/mcpgen-dist.js';
import { ioWait, jsonTools } from '../../lib/tools.js';
import type { ServerSide, ServerSpec } from '../../lib/types.js';

export async function createServer(spec: ServerSpec): Promise<Server> {
  const { Server } = await loadMcpgen();
  const server = new Server({ name: 'bench-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  const tools = jsonTools(spec.toolCount);
  server.setRequestHandler('tools/list', () => ({ tools }));
  const delay = spec.ioDelayMs;
  if (delay === undefined) {
    server.setRequestHandler('tools/call', (params) => ({
      content: [{ type: 'text', text: String(params.arguments?.text ?? '') }],
    }));
  } else {
    server.setRequestHandler('tools/call', async (params) => {
      await ioWait(delay);
      return { content: [{ type: 'text', text: String(params.arguments?.text ?? '') }] };
    });
  }
  return server;
}

export const serverSide: ServerSide = {
  async serveStdio(spec) {
    const { StdioServerTransport } = await loadMcpgenNode();
    const server = await createServer(spec);
    await server.connect(new StdioServerTransport());
  },
};
