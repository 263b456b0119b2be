// mcpgen's benchmark client: Client + callTool / listAll, over createLinkedPair or stdio.
import type { Client } from '../../../runtime/index.js';
import { loadMcpgen, loadMcpgenNode } from '../../lib/mcpgen-dist.js';
import { ECHO_TOOL, resultText } from '../../lib/tools.js';
import type { BenchClient, ClientSide } from '../../lib/types.js';
import { createServer } from './server.js';

async function newClient(): Promise<Client> {
  const { Client } = await loadMcpgen();
  return new Client({ name: 'bench-client', version: '1.0.0' });
}

/** Wraps a connected mcpgen client; exported for the HTTP adapter to reuse. */
export function benchClient(client: Client, serverPid?: number): BenchClient {
  return {
    serverPid,
    call: async (text) => resultText(await client.callTool({ name: ECHO_TOOL, arguments: { text } })),
    listTools: async () => (await client.listAll('tools/list')).length,
    close: () => client.close(),
  };
}

export const clientSide: ClientSide = {
  async inMemory(spec) {
    const { createLinkedPair } = await loadMcpgen();
    const [clientEnd, serverEnd] = createLinkedPair();
    const server = await createServer(spec);
    await server.connect(serverEnd);
    const client = await newClient();
    await client.connect(clientEnd);
    return benchClient(client);
  },
  async connectStdio(server) {
    const { StdioClientTransport } = await loadMcpgenNode();
    const transport = new StdioClientTransport({ command: server.command, args: server.args });
    const client = await newClient();
    await client.connect(transport);
    return benchClient(client, transport.pid);
  },
};
