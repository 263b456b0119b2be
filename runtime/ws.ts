/**
 * mcpgen's WebSocket client entry (`mcpgen/ws`), runtime-neutral: MCP over WebSocket
 * (subprotocol `mcp`) with the runtime's `WebSocket` class, or the `ws` package's on Node 20.
 */
export { WebSocketClientTransport, type WebSocketClientTransportOptions, type WebSocketConstructor } from './transports/ws/client-transport.js';
export {
  DEFAULT_WS_CONNECT_TIMEOUT_MS,
  DEFAULT_WS_MAX_BUFFERED_BYTES,
  DEFAULT_WS_MAX_MESSAGE_BYTES,
  DEFAULT_WS_MAX_QUEUED_MESSAGES,
  MCP_SUBPROTOCOL,
} from './transports/ws/client-options.js';
