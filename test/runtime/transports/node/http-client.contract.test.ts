// The transport contract over Streamable HTTP on the Node path: the client transport sending
// through nodeHttpClient to createMcpNodeServer on a real loopback socket.
import { StreamableHttpClientTransport, type Server } from '../../../../runtime/index.js';
import { createMcpNodeServer, nodeHttpClient } from '../../../../runtime/node.js';
import { transportContract } from '../contract.case.js';

for (const [era, clientOptions] of [['stateless era', {}], ['stateful era', { protocolVersion: '2025-11-25' }]] as const) {
  transportContract(`Streamable HTTP on nodeHttpClient, ${era}`, {
    clientOptions,
    async connect(client, makeServer) {
      let resolveClosed: () => void = () => undefined;
      const serverClosed = new Promise<void>((resolve) => {
        resolveClosed = resolve;
      });
      const node = createMcpNodeServer({
        path: '/mcp',
        server: () => {
          const server: Server = makeServer();
          server.onclose = resolveClosed;
          return server;
        },
      });
      const url = await node.listen(0);
      const httpClient = nodeHttpClient();
      await client.connect(new StreamableHttpClientTransport(url, { httpClient }));
      return {
        serverClosed,
        cleanup: async () => {
          httpClient.close();
          await node.close();
        },
      };
    },
  });
}
