// The transport contract over WebSocket: mcpgen's client transport (with the `ws` package's
// class, as on Node 20) and the Node endpoint, over a real socket on 127.0.0.1, in both eras.
import { afterAll, beforeAll } from 'vitest';
import WebSocket from 'ws';
import type { Server } from '../../../../runtime/index.js';
import { WebSocketClientTransport } from '../../../../runtime/ws.js';
import { createMcpWebSocketServer, type McpWebSocketServer } from '../../../../runtime/ws-node.js';
import { transportContract } from '../contract.case.js';

/** The factory of the connection being set up; each case connects one client at a time. */
let nextFactory: () => Server = () => {
  throw new Error('no server factory set');
};
let endpoint: McpWebSocketServer;
let url: string;

beforeAll(async () => {
  endpoint = createMcpWebSocketServer({ server: () => nextFactory(), path: '/mcp' });
  const { port } = await endpoint.listen(0, '127.0.0.1');
  url = `ws://127.0.0.1:${port}/mcp`;
});

afterAll(async () => {
  await endpoint.close();
});

for (const [era, clientOptions] of [['stateless era', {}], ['stateful era', { protocolVersion: '2025-11-25' }]] as const) {
  transportContract(`WebSocket, ${era}`, {
    clientOptions,
    async connect(client, makeServer) {
      let resolveClosed: () => void = () => undefined;
      const serverClosed = new Promise<void>((resolve) => {
        resolveClosed = resolve;
      });
      nextFactory = () => {
        const server = makeServer();
        server.onclose = resolveClosed;
        return server;
      };
      await client.connect(new WebSocketClientTransport(url, { WebSocket }));
      return { serverClosed, cleanup: async () => undefined };
    },
    async injectInvalidJson(makeServer) {
      nextFactory = makeServer;
      const socket = new WebSocket(url, 'mcp');
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      const answer = new Promise<string>((resolve) => socket.once('message', (data: Buffer) => resolve(data.toString('utf8'))));
      socket.send('{"jsonrpc": "2.0", "id": 1, "method": ');
      const code = (JSON.parse(await answer) as { error: { code: number } }).error.code;
      socket.close();
      return code;
    },
  });
}
