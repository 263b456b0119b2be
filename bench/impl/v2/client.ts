// Official SDK v2 (@modelcontextprotocol/client): Client + callTool / listTools, over
// InMemoryTransport.createLinkedPair() or StdioClientTransport.
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ECHO_TOOL, resultText } from '../../lib/tools.js';
import type { BenchClient, ClientSide } from '../../lib/types.js';
import { createServer } from './server.js';

export function benchClient(client: Client, serverPid?: number): BenchClient {
  return {
    serverPid,
    call: async (text) => resultText(await client.callTool({ name: ECHO_TOOL, arguments: { text } })),
    // Without a cursor, listTools() walks every page itself.
    listTools: async () => (await client.listTools()).tools.length,
    close: () => client.close(),
  };
}

function newClient(): Client {
  return new Client({ name: 'bench-client', version: '1.0.0' });
}

export const clientSide: ClientSide = {
  async inMemory(spec) {
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await createServer(spec).connect(serverEnd);
    const client = newClient();
    await client.connect(clientEnd);
    return benchClient(client);
  },
  async connectStdio(server) {
    const transport = new StdioClientTransport({ command: server.command, args: [...server.args], stderr: 'inherit' });
    const client = newClient();
    await client.connect(transport);
    return benchClient(client, transport.pid ?? undefined);
  },
};
