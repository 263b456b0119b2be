// mcpgen's benchmark client: Client + callTool / listAll, over createLinkedPair or stdio.
import type { Client } from '../../../runtime/index.js';
import { loadMcpgen, loadMcpgenNode, loadMcpgenRevision } from '../../lib/mcpgen-dist.js';
import { ECHO_TOOL, resultText } from '../../lib/tools.js';
import type { BenchClient, ClientEra, ClientSide } from '../../lib/types.js';
import { createServer } from './server.js';

async function newClient(era: ClientEra = 'default'): Promise<Client> {
  const { Client } = await loadMcpgen();
  // The pinned era names its revision through the generated module, as a user would.
  const pin = era === '2025-11-25' ? { protocolVersion: (await loadMcpgenRevision()).revision } : {};
  return new Client({ name: 'bench-client', version: '1.0.0' }, pin);
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
  async inMemory(spec, era) {
    const { createLinkedPair } = await loadMcpgen();
    const [clientEnd, serverEnd] = createLinkedPair();
    const server = await createServer(spec);
    await server.connect(serverEnd);
    const client = await newClient(era);
    await client.connect(clientEnd);
    return benchClient(client);
  },
  async connectStdio(server, era) {
    const { StdioClientTransport } = await loadMcpgenNode();
    const transport = new StdioClientTransport({ command: server.command, args: server.args });
    const client = await newClient(era);
    await client.connect(transport);
    return benchClient(client, transport.pid);
  },
};
