/**
 * What the HTTP client transports need to know about the messages they carry. They look at
 * messages only to route them (which requests await answers, which exchange is the handshake),
 * never to validate them: that is the engine's job.
 */
import { messageOf, SdkError } from '../../core/errors.js';
import { isJsonObject, type JSONRPCMessage, type RequestId } from '../../core/jsonrpc.js';
import { INITIALIZE_REQUEST } from '../../core/special-methods.js';
import { encodeMessage } from '../../core/wire-format.js';

/** True for a single `initialize` request. */
export function isInitializeRequest(message: JSONRPCMessage | JSONRPCMessage[]): boolean {
  return !Array.isArray(message) && 'method' in message && message.method === INITIALIZE_REQUEST && 'id' in message;
}

/** True for a single notification of `method`. */
export function isNotificationOf(message: JSONRPCMessage | JSONRPCMessage[], method: string): boolean {
  return !Array.isArray(message) && 'method' in message && message.method === method && !('id' in message);
}

/** Ids of the requests in a message or batch (responses and notifications owe no answer). */
export function requestIdsOf(message: JSONRPCMessage | JSONRPCMessage[]): RequestId[] {
  const ids: RequestId[] = [];
  for (const item of Array.isArray(message) ? message : [message]) {
    if ('method' in item && 'id' in item) ids.push(item.id);
  }
  return ids;
}

/** The id of an inbound response, or undefined for anything else (including a null id). */
export function responseIdOf(value: unknown): RequestId | undefined {
  if (!isJsonObject(value) || 'method' in value || !('result' in value || 'error' in value)) return undefined;
  const id = value.id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** The `requestId` a `notifications/cancelled` names, when it is a usable id. */
export function cancelledIdOf(message: JSONRPCMessage): RequestId | undefined {
  const params = (message as { params?: unknown }).params;
  const id = isJsonObject(params) ? params.requestId : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** The `protocolVersion` of an `initialize` result response, if it is one. */
export function protocolVersionOf(response: unknown): string | undefined {
  const result = isJsonObject(response) ? response.result : undefined;
  return isJsonObject(result) && typeof result.protocolVersion === 'string' ? result.protocolVersion : undefined;
}

/**
 * The JSON text of an outgoing message or batch. A value JSON cannot encode (a BigInt, a
 * cycle, a throwing `toJSON`, nesting past the stack) throws SdkError('INVALID_ARGUMENT')
 * naming the message, before anything is sent or awaited, so that its request fails at once.
 */
export function encodeOutgoing(message: JSONRPCMessage | JSONRPCMessage[]): string {
  try {
    return encodeMessage(message);
  } catch (error) {
    throw new SdkError('INVALID_ARGUMENT', `${describe(message)} cannot be encoded as JSON: ${messageOf(error)}`, { cause: error });
  }
}

function describe(message: JSONRPCMessage | JSONRPCMessage[]): string {
  if (Array.isArray(message)) return `A batch of ${message.length} messages`;
  if ('method' in message) return 'id' in message ? `The ${message.method} request ${JSON.stringify(message.id)}` : `The ${message.method} notification`;
  return `The response to request ${JSON.stringify((message as { id?: unknown }).id ?? null)}`;
}
