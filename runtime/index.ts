/**
 * mcpgen's root entry: runtime-neutral (no `node:` imports), usable in Node, browsers,
 * Workers, Deno and Bun. Node-only transports live under `mcpgen/node`.
 */
export { Client, type ClientOptions, type ClientRequestHandler, type ClientNotificationHandler, type ListAllOptions, type ListenSubscription, type NegotiationMode, type PageItem, type PaginatedMethod } from './client.js';
// The Client in the stateless era: era choice per server, multi round-trip requests, cacheable results.
export { InMemoryEraCache, defaultEraCache, type EraCache, type EraChoice, type StatelessEra, type StatelessEraTransport } from './stateless/client-era.js';
export { ResponseCache, type ResponseCacheOptions } from './stateless/client-response-cache.js';
export { DEFAULT_MAX_INPUT_ROUNDS } from './stateless/client-mrtr.js';
export { Server, type ServerOptions, type ServerRequestHandler, type ServerNotificationHandler, type RestoredSessionState } from './server.js';
export { Protocol, DEFAULT_REQUEST_TIMEOUT_MS, type ProtocolOptions } from './protocol.js';
export { ProtocolError, SdkError, type SdkErrorCode } from './errors.js';
export { InMemoryTransport, createLinkedPair, type LinkedPairOptions } from './in-memory.js';
export type { Transport, TransportSendOptions, MessageExtra } from './transport.js';
export { ParseFailure } from './wire-format.js';
export type { RequestContext, NotificationContext, RequestOptions, NotificationOptions, RequestHandler, NotificationHandler } from './request-context.js';
export type { Progress } from './pending-requests.js';
export type { JSONRPCMessage, JSONRPCRequest, JSONRPCNotification, JSONRPCResponse, JSONRPCResultResponse, JSONRPCErrorResponse, RequestId } from './jsonrpc.js';
export { hasCapability } from './capabilities.js';
export type { ProtocolTypesShape, RequestTypes, NotificationTypes, CapabilitiesOf } from './protocol-types.js';
export type { CustomRequestDefinition, CustomNotificationDefinition, CustomRequest, CustomNotification } from './custom-methods.js';
export { statefulRevisions } from './revisions.js';
export { revisions, releasedRevisions, latestRevision, eras, loaders, type Revision } from '../generated/index.js';
export type { RevisionModule, MethodInfo, Validator, ValidationIssue, Era } from '../generated/contract.js';
export { Stateful, Stateless, latestStatefulRevision, latestStatelessRevision } from '../generated/latest.js';
/** The newest released revision's types, one per schema definition. */
export type * from '../generated/latest.js';
export { SseParser, type ParsedSseEvent, type SseParserHandlers, type SseParserOptions } from './http/sse-parser.js';
export { HttpTransportError, findHttpTransportError, type HttpTransportErrorDetails } from './http/client-errors.js';
export type { FetchLike, HeadersSource, HttpClientOptions } from './http/client-request.js';
export { DEFAULT_RECONNECT_POLICY, type ReconnectOptions, type ReconnectPolicy } from './http/client-reconnect.js';
export {
  StreamableHttpClientTransport,
  SESSION_ID_HEADER,
  PROTOCOL_VERSION_HEADER,
  TRANSPORT_LOST_RESPONSE_CODE,
  type StreamableHttpClientTransportOptions,
  type SessionRenewal,
} from './http/client-transport.js';
export { LegacySseClientTransport, DEFAULT_ENDPOINT_TIMEOUT_MS, type LegacySseClientTransportOptions } from './http/legacy-sse-client.js';
export {
  FallbackHttpClientTransport,
  connectWithFallback,
  FALLBACK_STATUSES,
  type FallbackOptions,
  type HttpTransportKind,
  type Connectable,
} from './http/fallback.js';
// HTTP server (Streamable HTTP and legacy HTTP+SSE), runtime-neutral over the Fetch API.
export { createMcpHttpHandler, DEFAULT_KEEP_ALIVE_MS, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_SESSIONS, DEFAULT_RETRY_MS, type HandlerStats, type McpHttpHandler, type McpHttpHandlerOptions } from './http/handler.js';
export { InMemoryEventStore, type EventSender, type EventStore, type InMemoryEventStoreOptions } from './http/event-store.js';
export { httpExtra, type HttpMessageExtra, type StandaloneChannel } from './http/server-transport.js';
export type { LegacySseOptions } from './http/legacy-sse-server.js';
export type { CorsOptions, SecurityOptions } from './http/security.js';
export type { SessionDirectory, SessionInfo, SessionStore, SessionTransportKind, SharedSessionState, StandaloneChannelContext } from './http/session.js';
export type { FetchRequestInfo } from './http/fetch-adapter.js';
export type { BodyReply, BodyText, HttpReply, HttpRequestView, StreamReply, StreamSink } from './http/http-types.js';
// High-level server: registrations with handles, typed handlers, derived capabilities.
export { McpServer, type McpServerOptions } from './mcp-server.js';
export { McpSession } from './mcp-server/session.js';
export {
  McpContext,
  type ContextRequestOptions,
  type FormElicitationOutcome,
  type UrlElicitationOutcome,
  type UrlElicitationParams,
} from './mcp-server/context.js';
export type { ToolArgs, ToolConfig, ToolHandler, ToolResultBase, ToolReturn, ToolUpdate, RegisteredTool } from './mcp-server/tools.js';
export type {
  ReadResourceCallback,
  ReadTemplateCallback,
  RegisteredResource,
  RegisteredResourceTemplate,
  ResourceConfig,
  ResourceTemplateConfig,
} from './mcp-server/resources.js';
export type { PromptArgs, PromptCallback, PromptConfig, RegisteredPrompt } from './mcp-server/prompts.js';
export type { Completer, CompletionContext, CompletionValues } from './mcp-server/completion.js';
export type { RegisteredHandle } from './mcp-server/registry.js';
export type { ListChangedMode } from './mcp-server/list-changed.js';
// URI templates (RFC 6570) with linear-time matching.
export { UriTemplate, type UriTemplateVariableName, type UriVariables, type UriVariableValue } from './uri-template.js';
// JSON Schema for schemas supplied at run time; Standard Schema interop.
export { InterpretingJsonSchemaValidator, type InterpretingValidatorOptions } from './json-schema/interpreter.js';
export type { FormatCheck } from './json-schema/formats.js';
export type { JsonSchema, JsonSchemaCheck, JsonSchemaObject, JsonSchemaResult, JsonSchemaValidator } from './json-schema/types.js';
export type { FromJsonSchema, InferSchemaInput, InferSchemaOutput } from './json-schema/infer.js';
export type { SchemaInput } from './json-schema/schema-input.js';
export type { StandardJsonSchemaV1, StandardProps, StandardIssue, StandardResult } from './json-schema/standard-schema.js';
// Client conveniences.
export { ListCache, type CachedListKind, type CachedLists, type ListCacheOptions } from './client-helpers/list-cache.js';
export { getDisplayName, type Displayable } from './client-helpers/display-name.js';
export { assertToolResult, checkToolResult, defaultJsonSchemaValidator } from './client-helpers/tool-output.js';
export {
  applyElicitationDefaults,
  elicitationDefaults,
  withElicitationDefaults,
  type ElicitationValue,
  type RequestedSchema,
} from './client-helpers/elicitation.js';
// The stateless era (2026-07-28 on): per-request metadata, multi round-trip requests, subscriptions.
export { statelessRevisions } from './revisions.js';
export { StatelessContext } from './stateless/stateless-request.js';
export { InputRequiredSignal, type InputRequest } from './stateless/input-broker.js';
export {
  RequestStateCodec,
  RequestStateError,
  digestArguments,
  type RequestStateBinding,
  type RequestStateKey,
  type RequestStateOptions,
  type RequestStatePayload,
} from './stateless/request-state.js';
export type { CacheHint } from './stateless/subscriptions.js';
export {
  CLIENT_CAPABILITIES_META,
  CLIENT_INFO_META,
  LOG_LEVEL_META,
  PROTOCOL_VERSION_META,
  SERVER_INFO_META,
  SUBSCRIPTION_ID_META,
} from './stateless/meta.js';
export { decodeHeaderValue, headerParameters, type HeaderParameter } from './http/mcp-headers.js';
