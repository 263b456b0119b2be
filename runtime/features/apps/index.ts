/**
 * MCP Apps (io.modelcontextprotocol/ui, SEP-1865): tools whose results a host renders with an
 * interactive HTML View in a sandboxed iframe, which speaks JSON-RPC with the host over
 * postMessage. The wire types and validators are generated (`mcpgen/extensions/apps`); this
 * module is the runtime: server helpers, the host's bridge and renderer, the sandbox proxy and
 * the View's client. Runtime-neutral: nothing here imports a `node:` module.
 */
// Server: an app tool and its ui:// resource.
export { registerApp, registerAppResource, registerAppTool, type AppConfig, type AppHtml, type AppResourceConfig, type AppToolConfig, type RegisteredApp } from './server.js';
// Host: the bridge to one View, the frame it lives in, and what tool metadata says.
export { AppHost, MAX_QUEUED_NOTIFICATIONS, type AppHostContext, type AppHostHandlers, type AppHostOptions, type SandboxResource } from './app-host.js';
export { renderApp, type RenderAppOptions, type RenderedApp } from './render.js';
export { runSandboxProxy, type SandboxProxy, type SandboxProxyOptions } from './sandbox-proxy.js';
export { appCallable, appResourceUri, modelVisible, type ToolWithMeta } from './visibility.js';
export { appsHostExtension } from './host-extension.js';
export { APP_SANDBOX, PROXY_SANDBOX, contentSecurityPolicy, permissionsPolicy, withPolicy } from './csp.js';
// The View.
export { AppClient, type AppClientHandlers, type AppClientOptions, type MeasuredElement } from './app-client.js';
// The channel.
export {
  DEFAULT_MAX_MESSAGE_CHARS,
  PostMessageTransport,
  windowEndpoint,
  type MessageEndpoint,
  type MessageEventLike,
  type MessageListener,
  type MessageSourceLike,
  type PostMessageTransportOptions,
  type WindowLike,
} from './post-message-transport.js';
// Facts and types of the extension.
export {
  extensionId as APPS_EXTENSION_ID,
  resourceMimeType as APP_RESOURCE_MIME_TYPE,
  protocolVersion as APPS_PROTOCOL_VERSION,
  type McpUiHostCapabilities,
  type McpUiHostContext,
  type McpUiResourceCsp,
  type McpUiResourceMeta,
  type McpUiResourcePermissions,
  type McpUiToolMeta,
  type McpUiToolVisibility,
} from '../../../generated/extensions/apps/index.js';
