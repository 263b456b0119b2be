/**
 * Migration guide, mcpgen column of "Connecting over WebSocket": the client (both eras,
 * reconnecting, headers with the `ws` class) and the Node endpoint v1 does not have.
 * Type-checked like the other columns; examples/websocket runs the same calls for real.
 */
// #region websocket
import { Client, McpServer } from '../../runtime/index.js';
import { WebSocketClientTransport } from '../../runtime/ws.js';
import { createMcpWebSocketServer } from '../../runtime/ws-node.js';
import WebSocket from 'ws';
// #endregion websocket

export async function connectOverWebSocket(mcp: McpServer): Promise<void> {
  // #region websocket
  // Server: upgrades to the `mcp` subprotocol, a Server per socket (v1 has no counterpart).
  const endpoint = createMcpWebSocketServer({ server: () => mcp.createServer(), path: '/mcp' });
  await endpoint.listen(3000, '127.0.0.1');

  // Client: `WebSocket` may be left out where the runtime has one (browsers, Deno, Bun, Node 22).
  const client = new Client({ name: 'weather-client', version: '1.0.0' });
  await client.connect(new WebSocketClientTransport('ws://127.0.0.1:3000/mcp', { WebSocket, headers: { authorization: 'Bearer …' } }));
  const result = await client.callTool({ name: 'get-weather', arguments: { city: 'Lisbon' } });
  // #endregion websocket
  console.log(result.content);
  await client.close();
  await endpoint.close();
}
