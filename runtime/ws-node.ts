/**
 * mcpgen's WebSocket server entry (`mcpgen/ws/node`), Node only: the endpoint that serves MCP
 * over WebSocket on a `node:http` server. Needs the `ws` package, an optional peer dependency.
 */
export {
  createMcpWebSocketServer,
  DEFAULT_WS_MAX_CONNECTIONS,
  DEFAULT_WS_MAX_PAYLOAD_BYTES,
  DEFAULT_WS_PING_INTERVAL_MS,
  DEFAULT_WS_SERVER_MAX_BUFFERED_BYTES,
  type McpWebSocketServer,
  type McpWebSocketServerOptions,
} from './transports/ws/node/server.js';
