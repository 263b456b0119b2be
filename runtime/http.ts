/**
 * mcpgen's HTTP details entry (`mcpgen/http`), runtime-neutral like the root: the legacy
 * HTTP+SSE client, the fallback transport class, event stores, session stores, the SSE parser,
 * the stateless era's header codec, header names and tuning defaults. The everyday HTTP names
 * (`StreamableHttpClientTransport`, `connectWithFallback`, `createMcpHttpHandler`, `httpExtra`)
 * are in `mcpgen`.
 */
// Client side.
export { LegacySseClientTransport, DEFAULT_ENDPOINT_TIMEOUT_MS, type LegacySseClientTransportOptions } from './transports/http/legacy-sse-client.js';
export { FallbackHttpClientTransport, FALLBACK_STATUSES } from './transports/http/fallback.js';
export { DEFAULT_RECONNECT_POLICY } from './transports/http/client-reconnect.js';
export { DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_RESPONSE_BYTES } from './transports/http/client-limits.js';
export type { ClientBody, ClientBodyReader, ClientResponse, HttpClient, HttpClientRequest } from './transports/http/client-response.js';
export { SESSION_ID_HEADER, PROTOCOL_VERSION_HEADER, TRANSPORT_LOST_RESPONSE_CODE } from './transports/http/client-transport.js';
// Server side: defaults of createMcpHttpHandler's options, resumability and shared sessions.
export { DEFAULT_KEEP_ALIVE_MS, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_SESSIONS, DEFAULT_RETRY_MS } from './transports/http/handler.js';
export { InMemoryEventStore, type EventSender, type InMemoryEventStoreOptions } from './transports/http/event-store.js';
export type { SessionDirectory, SessionInfo, SessionStore, SessionTransportKind, SharedSessionState, StandaloneChannelContext } from './transports/http/session.js';
export type { BodyReply, BodyText, HttpReply, HttpRequestView, StreamReply, StreamSink } from './transports/http/http-types.js';
// Wire pieces: Server-Sent Events and the stateless era's `Mcp-Param-*` headers.
export { SseParser, SseEventTooLarge, type ParsedSseEvent, type SseParserHandlers, type SseParserOptions } from './transports/http/sse-parser.js';
export { decodeHeaderValue, headerParameters, type HeaderParameter } from './era/mcp-headers.js';
