/**
 * mcpgen's root entry: runtime-neutral (no `node:` imports), usable in Node, browsers,
 * Workers, Deno and Bun. Node-only transports live under `mcpgen/node`.
 */
export { Client, type ClientOptions, type ClientRequestHandler, type ClientNotificationHandler, type ListAllOptions, type PageItem, type PaginatedMethod } from './client.js';
export { Server, type ServerOptions, type ServerRequestHandler, type ServerNotificationHandler } from './server.js';
export { Protocol, DEFAULT_REQUEST_TIMEOUT_MS, type ProtocolOptions } from './protocol.js';
export { ProtocolError, SdkError, type SdkErrorCode } from './errors.js';
export { InMemoryTransport, createLinkedPair } from './in-memory.js';
export type { Transport, TransportSendOptions, MessageExtra } from './transport.js';
export { ParseFailure } from './wire-format.js';
export type { RequestContext, NotificationContext, RequestOptions, NotificationOptions, RequestHandler, NotificationHandler } from './request-context.js';
export type { Progress } from './pending-requests.js';
export type { JSONRPCMessage, JSONRPCRequest, JSONRPCNotification, JSONRPCResponse, JSONRPCResultResponse, JSONRPCErrorResponse, RequestId } from './jsonrpc.js';
export { hasCapability } from './capabilities.js';
export { statefulRevisions } from './revisions.js';
export { revisions, releasedRevisions, latestRevision, eras, loaders, type Revision } from '../generated/index.js';
export type { RevisionModule, MethodInfo, Validator, ValidationIssue, Era } from '../generated/contract.js';
export { Stateful, Stateless, latestStatefulRevision, latestStatelessRevision } from '../generated/latest.js';
/** The newest released revision's types, one per schema definition. */
export type * from '../generated/latest.js';
