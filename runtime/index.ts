/**
 * mcpgen's root entry: runtime-neutral (no `node:` imports), usable in Node, browsers,
 * Workers, Deno and Bun. Node-only transports live under `mcpgen/node`.
 */
import { installOAuthPlugin } from './features/auth/plugin.js';
export { Client, type ClientOptions, type ClientRequestHandler, type ClientNotificationHandler, type ListAllOptions, type ListenSubscription, type NegotiationMode, type PageItem, type PaginatedMethod } from './peers/client.js';
// The Client in the stateless era: era choice per server, multi round-trip requests, cacheable results.
export { InMemoryEraCache, defaultEraCache, type EraCache, type EraChoice } from './era/client-era.js';
export { ResponseCache, type ResponseCacheOptions } from './era/client-response-cache.js';
export { DEFAULT_MAX_INPUT_ROUNDS } from './era/client-mrtr.js';
export { Server, type ServerOptions, type ServerRequestHandler, type ServerNotificationHandler, type RestoredSessionState } from './peers/server.js';
export { Protocol, DEFAULT_REQUEST_TIMEOUT_MS, type ProtocolOptions } from './core/protocol.js';
export { ProtocolError, SdkError, type SdkErrorCode } from './core/errors.js';
export { InMemoryTransport, createLinkedPair, type LinkedPairOptions } from './core/in-memory.js';
export type { Transport, TransportSendOptions, MessageExtra } from './core/transport.js';
export { ParseFailure } from './core/wire-format.js';
export type { RequestContext, NotificationContext, RequestOptions, NotificationOptions, RequestHandler, NotificationHandler } from './core/request-context.js';
export type { Progress } from './core/pending-requests.js';
export type { JSONRPCMessage, JSONRPCRequest, JSONRPCNotification, JSONRPCResponse, JSONRPCResultResponse, JSONRPCErrorResponse, RequestId } from './core/jsonrpc.js';
export { hasCapability } from './core/capabilities.js';
export type { ProtocolTypesShape, RequestTypes, NotificationTypes, CapabilitiesOf } from './core/protocol-types.js';
export type { CustomRequestDefinition, CustomNotificationDefinition, CustomRequest, CustomNotification } from './core/custom-methods.js';
export { statefulRevisions } from './core/revisions.js';
export { revisions, releasedRevisions, latestRevision, eras, loaders, type Revision } from '../generated/index.js';
export type { RevisionModule, MethodInfo, Validator, ValidationIssue, Era } from '../generated/contract.js';
export { Stateful, Stateless, latestStatefulRevision, latestStatelessRevision } from '../generated/latest.js';
/** The newest released revision's types, one per schema definition. */
export type * from '../generated/latest.js';
export { SseParser, type ParsedSseEvent, type SseParserHandlers, type SseParserOptions } from './transports/http/sse-parser.js';
export { HttpTransportError, findHttpTransportError, type HttpTransportErrorDetails } from './transports/http/client-errors.js';
export type { FetchLike, HeadersSource, HttpClientOptions } from './transports/http/client-request.js';
export type { FetchWrapper, RequestGuard, RequestGuardOutcome } from './transports/http/auth-hooks.js';
export { DEFAULT_RECONNECT_POLICY, type ReconnectOptions, type ReconnectPolicy } from './transports/http/client-reconnect.js';
export {
  StreamableHttpClientTransport,
  SESSION_ID_HEADER,
  PROTOCOL_VERSION_HEADER,
  TRANSPORT_LOST_RESPONSE_CODE,
  type StreamableHttpClientTransportOptions,
  type SessionRenewal,
} from './transports/http/client-transport.js';
export { LegacySseClientTransport, DEFAULT_ENDPOINT_TIMEOUT_MS, type LegacySseClientTransportOptions } from './transports/http/legacy-sse-client.js';
export {
  FallbackHttpClientTransport,
  connectWithFallback,
  FALLBACK_STATUSES,
  type FallbackOptions,
  type HttpTransportKind,
  type Connectable,
} from './transports/http/fallback.js';
// HTTP server (Streamable HTTP and legacy HTTP+SSE), runtime-neutral over the Fetch API.
export { createMcpHttpHandler, DEFAULT_KEEP_ALIVE_MS, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_SESSIONS, DEFAULT_RETRY_MS, type HandlerStats, type McpHttpHandler, type McpHttpHandlerOptions } from './transports/http/handler.js';
export { InMemoryEventStore, type EventSender, type EventStore, type InMemoryEventStoreOptions } from './transports/http/event-store.js';
export { httpExtra, type HttpMessageExtra, type StandaloneChannel } from './transports/http/server-transport.js';
export type { LegacySseOptions } from './transports/http/legacy-sse-server.js';
export type { CorsOptions, SecurityOptions } from './transports/http/security.js';
export type { SessionDirectory, SessionInfo, SessionStore, SessionTransportKind, SharedSessionState, StandaloneChannelContext } from './transports/http/session.js';
export type { FetchRequestInfo } from './transports/http/fetch-adapter.js';
export type { BodyReply, BodyText, HttpReply, HttpRequestView, StreamReply, StreamSink } from './transports/http/http-types.js';
// High-level server: registrations with handles, typed handlers, derived capabilities.
export { McpServer, type McpServerOptions } from './features/mcp-server/mcp-server.js';
export { McpSession } from './features/mcp-server/session.js';
export {
  McpContext,
  type ContextRequestOptions,
  type FormElicitationOutcome,
  type UrlElicitationOutcome,
  type UrlElicitationParams,
} from './features/mcp-server/context.js';
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
export type { Completer, CompletionContext, CompletionValues } from './features/mcp-server/completion.js';
export type { RegisteredHandle } from './features/mcp-server/registry.js';
export type { ListChangedMode } from './features/mcp-server/list-changed.js';
// URI templates (RFC 6570) with linear-time matching.
export { UriTemplate, type UriTemplateVariableName, type UriVariables, type UriVariableValue } from './features/uri-template/uri-template.js';
// JSON Schema for schemas supplied at run time; Standard Schema interop.
export { InterpretingJsonSchemaValidator, type InterpretingValidatorOptions } from './core/json-schema/interpreter.js';
export type { FormatCheck } from './core/json-schema/formats.js';
export type { JsonSchema, JsonSchemaCheck, JsonSchemaObject, JsonSchemaResult, JsonSchemaValidator } from './core/json-schema/types.js';
export type { FromJsonSchema, InferSchemaInput, InferSchemaOutput } from './core/json-schema/infer.js';
export type { SchemaInput } from './core/json-schema/schema-input.js';
export type { StandardJsonSchemaV1, StandardProps, StandardIssue, StandardResult } from './core/json-schema/standard-schema.js';
// Client conveniences.
export { ListCache, type CachedListKind, type CachedLists, type ListCacheOptions } from './peers/client-helpers/list-cache.js';
export { getDisplayName, type Displayable } from './peers/client-helpers/display-name.js';
export { assertToolResult, checkToolResult, defaultJsonSchemaValidator } from './peers/client-helpers/tool-output.js';
export {
  applyElicitationDefaults,
  elicitationDefaults,
  withElicitationDefaults,
  type ElicitationValue,
  type RequestedSchema,
} from './peers/client-helpers/elicitation.js';
// The stateless era (2026-07-28 on): per-request metadata, multi round-trip requests, subscriptions.
export { statelessRevisions } from './core/revisions.js';
export { StatelessContext } from './era/stateless-request.js';
export { InputRequiredSignal, type InputRequest } from './era/input-broker.js';
export {
  RequestStateCodec,
  RequestStateError,
  digestArguments,
  type RequestStateBinding,
  type RequestStateKey,
  type RequestStateOptions,
  type RequestStatePayload,
} from './era/request-state.js';
export type { CacheHint } from './era/subscriptions.js';
export {
  CLIENT_CAPABILITIES_META,
  CLIENT_INFO_META,
  LOG_LEVEL_META,
  PROTOCOL_VERSION_META,
  SERVER_INFO_META,
  SUBSCRIPTION_ID_META,
} from './era/meta.js';
export { decodeHeaderValue, headerParameters, type HeaderParameter } from './era/mcp-headers.js';

// The HTTP transports' `authProvider` and `auth` options are OAuth (mcpgen/auth) from this entry on.
installOAuthPlugin();
