// Official SDK v1 (@modelcontextprotocol/sdk): Client + callTool / listTools, over
// InMemoryTransport.createLinkedPair() or StdioClientTransport.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ECHO_TOOL, resultText } from '../../lib/tools.js';
import type { BenchClient, ClientSide } from '../../lib/types.js';
import { createServer } from './server.js';

export function benchClient(client: Client, serverPid?: number): BenchClient {
  return {
    serverPid,
    call: async (text) => resultText(await client.callTool({ name: ECHO_TOOL, arguments: { text } })),
    listTools: async () => {
      let count = 0;
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        count += page.tools.length;
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return count;
    },
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
