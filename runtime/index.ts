/**
 * mcpgen's root entry: runtime-neutral (no `node:` imports), usable in Node, browsers,
 * Workers, Deno and Bun. It holds what a server or client needs day to day; `mcpgen/http`
 * has the HTTP transports' details, `mcpgen/advanced` the engine and the stateless era's
 * machinery, and Node-only transports live under `mcpgen/node`. test/runtime/index.test.ts
 * pins the list of values, so that growing it is a reviewed change.
 */
// Peers: the high-level server, and the Client and Server it builds on.
export { McpServer, type McpServerOptions } from './features/mcp-server/mcp-server.js';
export type { McpSession } from './features/mcp-server/session.js';
export type { McpContext, ContextRequestOptions, FormElicitationOutcome, UrlElicitationOutcome, UrlElicitationParams } from './features/mcp-server/context.js';
export type { ToolArgs, ToolConfig, ToolHandler, ToolResultBase, ToolReturn, ToolUpdate, RegisteredTool } from './features/mcp-server/tools.js';
export type {
  ReadResourceCallback,
  ReadTemplateCallback,
  RegisteredResource,
  RegisteredResourceTemplate,
  ResourceConfig,
  ResourceTemplateConfig,
} from './features/mcp-server/resources.js';
export type { PromptArgs, PromptCallback, PromptConfig, RegisteredPrompt } from './features/mcp-server/prompts.js';
export type { McpServerHooks, PromptGetInfo, ResourceReadInfo, ToolCallInfo } from './features/mcp-server/hooks.js';
export type { Completer, CompletionContext, CompletionValues } from './features/mcp-server/completion.js';
export type { ListKind, RegisteredHandle } from './features/mcp-server/registry.js';
export type { ListChangedMode } from './features/mcp-server/list-changed.js';
export { Client, type ClientOptions, type ClientRequestHandler, type ClientNotificationHandler, type ListAllOptions, type ListenSubscription, type NegotiationMode, type PageItem, type PaginatedMethod } from './peers/client.js';
// What a Client offers by the protocol types it is typed with (both eras by default).
export type { BothEras, ClientParams, ClientResult, ClientSenders, EitherRevision, HandledRequests, ListenFilter } from './peers/client-types.js';
export type { MethodUnavailable } from './peers/senders.js';
export { Server, type ServerOptions, type ServerRequestHandler, type ServerNotificationHandler, type RestoredSessionState } from './peers/server.js';
export type { ServerSenders } from './peers/server-types.js';
export type { RequestContext, NotificationContext, RequestOptions, NotificationOptions, RequestHandler, NotificationHandler } from './core/request-context.js';
// Middleware around every request and notification, on both sides and in both eras.
export type { CallFacts, HandlerFailure, IncomingNotification, IncomingRequest, Middleware, Next, NotifyNext, OutgoingNotification, OutgoingRequest, SendNext } from './core/middleware.js';
export { isCallOf, type RequestParamsOf } from './peers/middleware-calls.js';
export type { Progress } from './core/pending-requests.js';
export type { ProtocolTypesShape, RequestTypes, NotificationTypes, CapabilitiesOf } from './peers/protocol-types.js';
export type { CustomRequestDefinition, CustomNotificationDefinition, CustomRequest, CustomNotification } from './peers/custom-methods.js';
// Errors: ProtocolError travels on the wire (codes by name in ErrorCodes, generated from every pinned revision), SdkError is local.
export { ErrorCodes } from '../generated/protocol/error-codes.js';
export { ProtocolError, SdkError, type SdkErrorCode, type SdkErrorOptions } from './core/errors.js';
// The stateless era: a handler that catches errors lets this one through.
export { InputRequiredSignal, type InputRequest } from './era/input-broker.js';
export type { RequestStateKey, RequestStateOptions } from './era/request-state.js';
export type { CacheHint } from './era/subscriptions.js';
export type { ResponseCache, ResponseCacheOptions } from './era/client-response-cache.js';
// Transports: the contract, the in-memory pair, the Streamable HTTP client and the Fetch API handler.
export type { Transport, TransportSendOptions, MessageExtra } from './core/transport.js';
export { createLinkedPair, type InMemoryTransport, type LinkedPairOptions } from './core/in-memory.js';
export { StreamableHttpClientTransport, type StreamableHttpClientTransportOptions, type SessionRenewal } from './transports/http/client-transport.js';
export { connectWithFallback, type Connectable, type FallbackHttpClientTransport, type FallbackOptions, type HttpTransportKind } from './transports/http/fallback.js';
export { HttpTransportError, findHttpTransportError, type HttpTransportErrorDetails } from './transports/http/client-errors.js';
export type { FetchLike, HeadersSource, HttpClientOptions } from './transports/http/client-request.js';
export type { ReconnectOptions, ReconnectPolicy } from './transports/http/client-reconnect.js';
export { createMcpHttpHandler, type HandlerStats, type McpHttpHandler, type McpHttpHandlerOptions } from './transports/http/handler.js';
export { httpExtra, type HttpMessageExtra, type StandaloneChannel } from './transports/http/server-transport.js';
export type { EventStore } from './transports/http/event-store.js';
export type { LegacySseOptions } from './transports/http/legacy-sse-server.js';
export type { CorsOptions, SecurityOptions } from './transports/http/security.js';
export type { FetchRequestInfo } from './transports/http/fetch-adapter.js';
// Client conveniences.
export { ListCache, type CachedListKind, type CachedLists, type ListCacheOptions } from './peers/client-helpers/list-cache.js';
export { getDisplayName, type Displayable } from './peers/client-helpers/display-name.js';
export { assertToolResult, checkToolResult } from './peers/client-helpers/tool-output.js';
export {
  applyElicitationDefaults,
  elicitationDefaults,
  withElicitationDefaults,
  type ElicitationValue,
  type RequestedSchema,
} from './peers/client-helpers/elicitation.js';
// URI templates (RFC 6570) with linear-time matching.
export { UriTemplate, type UriTemplateVariableName, type UriVariables, type UriVariableValue } from './features/uri-template/uri-template.js';
// Schemas: JSON Schema literals and Standard Schema objects, both typing handlers.
export type { JsonSchema, JsonSchemaCheck, JsonSchemaObject, JsonSchemaResult, JsonSchemaValidator } from './json-schema/types.js';
export type { FromJsonSchema, InferSchemaInput, InferSchemaOutput } from './json-schema/infer.js';
export type { RawShape, SchemaInput, ToJsonSchema } from './json-schema/schema-input.js';
export type { StandardJsonSchemaV1, StandardProps, StandardIssue, StandardResult } from './json-schema/standard-schema.js';
// Revisions: the pinned list, the newest of each era, and each era's newest module (types, validators, ErrorCode).
export { revisions, releasedRevisions, latestRevision, latestStatefulRevision, latestStatelessRevision, type Revision } from '../generated/index.js';
export { statefulRevisions, statelessRevisions } from './core/revisions.js';
// Types only: the root entry loads no revision module (`mcpgen/<revision>` has each one's values).
export type { Stateful, Stateless } from '../generated/latest.js';
export type { RevisionLoader } from './core/revision-set.js';
export type { RevisionModule, MethodInfo, Validator, ValidationIssue, Era } from '../generated/contract.js';
export type { JSONRPCMessage, JSONRPCRequest, JSONRPCNotification, JSONRPCResponse, JSONRPCResultResponse, JSONRPCErrorResponse, RequestId } from './core/jsonrpc.js';
/** The newest released revision's types, one per schema definition. */
export type * from '../generated/latest.js';
