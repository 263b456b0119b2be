/** mcpgen's Node-only entry (`mcpgen/node`): transports that need `node:` modules. */
export { StdioServerTransport, type StdioServerTransportOptions } from './stdio-server.js';
export { StdioClientTransport, type StdioClientTransportOptions, type ExitStatus } from './stdio-client.js';
export { defaultEnvironment } from './default-environment.js';
export { createMcpNodeServer, toNodeHandler, type McpNodeServer, type McpNodeServerOptions, type NodeMcpListener } from './http.js';
export { AjvJsonSchemaValidator, type AjvJsonSchemaValidatorOptions } from './ajv-validator.js';
export { FileOAuthStore } from './auth/file-store.js';
export { DEFAULT_LOOPBACK_TIMEOUT_MS, openInBrowser, startLoopbackReceiver, type LoopbackReceiver, type LoopbackReceiverOptions } from './auth/loopback.js';
