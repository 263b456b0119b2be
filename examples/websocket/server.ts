/**
 * Story: MCP over WebSocket, the server side. The WebSocket endpoint shares a `node:http`
 * server with the Streamable HTTP endpoint: upgrades to the `mcp` subprotocol go to it, plain
 * requests to the HTTP handler. Each socket gets a Server of its own.
 *
 * Run it: `npx tsx examples/websocket/server.ts` (prints both URLs).
 */
// #region server
import { createServer as createHttpServer } from 'node:http';
import { createMcpHttpHandler, McpServer } from '../../runtime/index.js';
import { toNodeHandler } from '../../runtime/node.js';
import { createMcpWebSocketServer } from '../../runtime/ws-node.js';
import { z } from 'zod';
// #endregion server
import type { AddressInfo } from 'node:net';
import { isMain } from '../shared/harness.js';

// #region server

export function createServer(): McpServer {
  const mcp = new McpServer({ name: 'sockets', version: '1.0.0' });
  mcp.registerTool('whoami', { inputSchema: z.object({ name: z.string() }) }, ({ name }, context) => ({
    content: [{ type: 'text', text: `${name} speaks ${context.session.server.era} ${context.session.protocolVersion}` }],
  }));
  return mcp;
}

export function listen(mcp: McpServer, port = 0) {
  const http = createHttpServer(toNodeHandler(createMcpHttpHandler({ server: () => mcp.createServer(), path: '/mcp' })));
  // The same Host/Origin checks as the HTTP endpoint (loopback by default), at most 1000
  // sockets, 4 MiB per message: each has an option (allowedHosts, maxConnections, maxPayloadBytes).
  const sockets = createMcpWebSocketServer({ server: () => mcp.createServer(), path: '/mcp' });
  sockets.attach(http);
  return new Promise<{ url: string; close: () => Promise<void> }>((resolve) => {
    http.listen(port, '127.0.0.1', () => resolve({
      url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
      close: async () => {
        await sockets.close();
        http.closeAllConnections();
        await new Promise<void>((done) => http.close(() => done()));
      },
    }));
  });
}
// #endregion server

if (isMain(import.meta.url)) {
  const { url } = await listen(createServer(), 3000);
  console.log(`WebSocket: ${url}\nStreamable HTTP: ${url.replace(/^ws/, 'http')}`);
}
