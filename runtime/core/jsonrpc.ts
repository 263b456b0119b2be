/**
 * JSON-RPC 2.0 message shapes and their classification. Classification looks only at which
 * members a message has, never at MCP schemas: a message is routed first, and validated
 * against the revision's method table afterwards.
 */

/** The only `jsonrpc` member value this runtime speaks. */
export const JSONRPC_VERSION = '2.0';

/** A request id. MCP forbids `null` ids on requests, so only strings and numbers qualify. */
export type RequestId = string | number;

/** Structured `params`: MCP always uses objects, JSON-RPC also allows arrays. */
export type JSONRPCParams = { [key: string]: unknown } | unknown[];

/** A request: expects exactly one response carrying the same id. */
export interface JSONRPCRequest {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  method: string;
  params?: JSONRPCParams;
}

/** A notification: has no id and is never answered. */
export interface JSONRPCNotification {
  jsonrpc: typeof JSONRPC_VERSION;
  method: string;
  params?: JSONRPCParams;
}

/** A successful response to the request with the same id. */
export interface JSONRPCResultResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId;
  result: unknown;
}

/** The `error` member of an error response. */
export interface JSONRPCErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A failed response; the id is null when the request's id could not be determined. */
export interface JSONRPCErrorResponse {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId | null;
  error: JSONRPCErrorObject;
}

/** Either kind of response. */
export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;

/** Any single JSON-RPC message. */
export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResponse;

/** The outcome of {@link classifyMessage}. */
export type Classification =
  | { readonly kind: 'request'; readonly message: JSONRPCRequest }
  | { readonly kind: 'notification'; readonly message: JSONRPCNotification }
  | { readonly kind: 'response'; readonly message: JSONRPCResponse }
  | {
      readonly kind: 'invalid';
      /** The message's id when it is a usable request id, otherwise null (what the error reply carries). */
      readonly id: RequestId | null;
      /** Why the message is not valid JSON-RPC, phrased for an error reply. */
      readonly reason: string;
    };

/** True for values usable as a request id: strings and finite numbers. */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** True for plain JSON objects (not arrays, not null). */
export function isJsonObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sorts one decoded JSON value into request, notification, response or invalid, by
 * structure alone: `method` + `id` is a request, `method` alone a notification, `id` with
 * exactly one of `result`/`error` a response. Arrays are not handled here; batches are the
 * caller's concern.
 */
export function classifyMessage(value: unknown): Classification {
  if (!isJsonObject(value)) {
    return invalid(null, 'message must be a JSON object');
  }
  const hasId = 'id' in value;
  const usableId = hasId && isRequestId(value.id) ? value.id : null;
  if (value.jsonrpc !== JSONRPC_VERSION) {
    return invalid(usableId, 'jsonrpc must be "2.0"');
  }
  if ('method' in value) {
    if (typeof value.method !== 'string') {
      return invalid(usableId, 'method must be a string');
    }
    if ('params' in value && (typeof value.params !== 'object' || value.params === null)) {
      return invalid(usableId, 'params must be an object or an array');
    }
    if (!hasId) {
      return { kind: 'notification', message: value as unknown as JSONRPCNotification };
    }
    if (usableId === null) {
      return invalid(null, 'id must be a string or a number');
    }
    return { kind: 'request', message: value as unknown as JSONRPCRequest };
  }
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasId && (hasResult || hasError)) {
    return classifyResponse(value, usableId, hasResult, hasError);
  }
  return invalid(usableId, 'message is neither a request, a notification nor a response');
}

function classifyResponse(
  value: { [key: string]: unknown },
  usableId: RequestId | null,
  hasResult: boolean,
  hasError: boolean,
): Classification {
  if (hasResult && hasError) {
    return invalid(usableId, 'a response must not carry both result and error');
  }
  if (hasResult) {
    if (usableId === null) {
      return invalid(null, 'a result response needs a string or number id');
    }
    return { kind: 'response', message: value as unknown as JSONRPCResultResponse };
  }
  if (value.id !== null && usableId === null) {
    return invalid(null, 'id must be a string, a number or null');
  }
  const error = value.error;
  if (!isJsonObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
    return invalid(usableId, 'error must be an object with an integer code and a string message');
  }
  return { kind: 'response', message: value as unknown as JSONRPCErrorResponse };
}

function invalid(id: RequestId | null, reason: string): Classification {
  return { kind: 'invalid', id, reason };
}

/** True when `response` is an error response. */
export function isErrorResponse(response: JSONRPCResponse): response is JSONRPCErrorResponse {
  return 'error' in response;
}
