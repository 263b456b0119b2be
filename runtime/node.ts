/** mcpgen's Node-only entry (`mcpgen/node`): transports that need `node:` modules. */
export { StdioServerTransport, type StdioServerTransportOptions } from './transports/node/stdio-server.js';
export { StdioClientTransport, type StdioClientTransportOptions, type ExitStatus } from './transports/node/stdio-client.js';
export { defaultEnvironment } from './transports/node/default-environment.js';
export { DEFAULT_MAX_REDIRECTS, DEFAULT_MAX_SOCKETS_PER_ORIGIN, nodeHttpClient, type NodeHttpClient, type NodeHttpClientOptions } from './transports/node/http-client.js';
export { createMcpNodeServer, toNodeHandler, toNodeListener, type HttpCoreHandler, type McpNodeServer, type McpNodeServerOptions, type NodeMcpListener } from './transports/node/http.js';
export { AjvJsonSchemaValidator, type AjvJsonSchemaValidatorOptions } from './features/ajv/ajv-validator.js';
export { FileOAuthStore, type FileOAuthStoreOptions } from './features/auth/node/file-store.js';
export { resolvingAuthUrlPolicy, type HostLookup, type ResolvingAuthUrlPolicyOptions } from './features/auth/node/resolving-policy.js';
export { DEFAULT_LOOPBACK_TIMEOUT_MS, openInBrowser, startLoopbackReceiver, type LoopbackReceiver, type LoopbackReceiverOptions } from './features/auth/node/loopback.js';
