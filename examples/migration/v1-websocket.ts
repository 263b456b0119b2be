/**
 * Migration guide, v1 column of "Connecting over WebSocket": `@modelcontextprotocol/sdk` 1.x's
 * WebSocket client. v1 has no WebSocket server, and its client uses the runtime's `WebSocket`
 * class with no headers. Type-checked, not run.
 */
// #region websocket
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
// #endregion websocket

export async function connectOverWebSocket(): Promise<void> {
  // #region websocket
  const client = new Client({ name: 'weather-client', version: '1.0.0' });
  await client.connect(new WebSocketClientTransport(new URL('ws://127.0.0.1:3000/mcp')));
  const result = await client.callTool({ name: 'get-weather', arguments: { city: 'Lisbon' } });
  // #endregion websocket
  console.log(result.content);
}
