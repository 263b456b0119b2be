/**
 * Builders for the non-streamed replies of the HTTP server: JSON bodies, JSON-RPC error bodies
 * (which carry `id: null` because the transport, not a request handler, refuses the message)
 * and empty status replies.
 */
import { JSONRPC_VERSION, type JSONRPCErrorResponse, type RequestId } from '../../core/jsonrpc.js';
import { IMPLEMENTATION_ERROR_CODES, JSONRPC_ERROR_CODES } from '../../core/jsonrpc-codes.js';
import type { BodyReply, HeaderMap } from './http-types.js';

/** JSON-RPC codes the transport answers with; -32000…-32099 are free for implementations. */
export const TRANSPORT_ERROR_CODES = {
  PARSE_ERROR: JSONRPC_ERROR_CODES.PARSE_ERROR,
  INVALID_REQUEST: JSONRPC_ERROR_CODES.INVALID_REQUEST,
  INTERNAL_ERROR: JSONRPC_ERROR_CODES.INTERNAL_ERROR,
  /** A transport-level refusal: bad headers, missing session, forbidden origin. */
  BAD_REQUEST: IMPLEMENTATION_ERROR_CODES.SERVER_ERROR,
  /** The session id is unknown or the session has ended. */
  SESSION_NOT_FOUND: IMPLEMENTATION_ERROR_CODES.SESSION_NOT_FOUND,
} as const;

/** Headers of every JSON body reply. */
const JSON_HEADERS: HeaderMap = { 'content-type': 'application/json' };

/** A 200-style reply with a JSON body. */
export function jsonReply(status: number, value: unknown, headers: HeaderMap = {}): BodyReply {
  return jsonTextReply(status, JSON.stringify(value), headers);
}

/** A reply whose body is JSON text encoded already. */
export function jsonTextReply(status: number, body: string, headers: HeaderMap = {}): BodyReply {
  return { kind: 'body', status, headers: { ...JSON_HEADERS, ...headers }, body };
}

/** A JSON-RPC error response object. */
export function errorResponse(id: RequestId | null, code: number, message: string): JSONRPCErrorResponse {
  return { jsonrpc: JSONRPC_VERSION, id, error: { code, message } };
}

/** An HTTP error whose body is a JSON-RPC error response, as the transport spec asks for. */
export function errorReply(status: number, code: number, message: string, headers: HeaderMap = {}, id: RequestId | null = null): BodyReply {
  return jsonReply(status, errorResponse(id, code, message), headers);
}

/** A reply without a body (202 Accepted, 204 No Content, 405 with an Allow header…). */
export function emptyReply(status: number, headers: HeaderMap = {}): BodyReply {
  return { kind: 'body', status, headers };
}

/** Headers that start a Server-Sent Events response and keep proxies from buffering it. */
export function sseHeaders(extra: HeaderMap = {}): HeaderMap {
  return {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    ...extra,
  };
}

/** The refusal of an MCP-Protocol-Version this endpoint does not serve. */
export function unsupportedVersion(version: string): BodyReply {
  return errorReply(400, TRANSPORT_ERROR_CODES.BAD_REQUEST, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)}`);
}
