/**
 * Checks of a Streamable HTTP request before anything reaches a session: the Accept and
 * Content-Type headers, and the shape of the POSTed JSON. Whatever the engine would answer
 * with an id-less error is refused here instead, with an HTTP status, because such a reply
 * could not be routed to the POST it came from.
 */
import { classifyMessage, type RequestId } from '../../core/jsonrpc.js';
import { INITIALIZE_REQUEST } from '../../core/special-methods.js';
import { decodeMessage, ParseFailure } from '../../core/wire-format.js';
import type { BodyBudget, HttpReply, HttpRequestView } from './http-types.js';
import { bytesInFlightRefusal } from './admission.js';
import { errorReply, TRANSPORT_ERROR_CODES } from './replies.js';

/** A POST body that may go to a session. */
export interface AcceptedPayload {
  readonly kind: 'messages';
  /** The decoded body, passed to the engine as is (a message or a batch). */
  readonly value: unknown;
  /** True when the body is a JSON array. */
  readonly batch: boolean;
  /** Ids of the requests in the body, in order. */
  readonly requestIds: readonly RequestId[];
  /** True when the body is an `initialize` request. */
  readonly initialize: boolean;
}

/** A POST body refused before it reaches a session. */
export interface RefusedPayload {
  readonly kind: 'refused';
  readonly status: number;
  readonly code: number;
  readonly message: string;
  readonly id: RequestId | null;
}

/** The outcome of {@link inspectPayload}. */
export type Payload = AcceptedPayload | RefusedPayload;

/**
 * True when the Accept header admits every one of `types`. Wildcards count, and a media range
 * with `q=0` excludes. A missing header admits nothing, because MCP clients must send one.
 */
export function acceptsAll(header: string | undefined, types: readonly string[]): boolean {
  if (header === undefined) {
    return false;
  }
  // Clients send the same Accept on every request: the last answer per type list is kept.
  const last = lastAccept.get(types);
  if (last !== undefined && last.header === header) return last.result;
  const result = acceptsAllOf(header, types);
  lastAccept.set(types, { header, result });
  return result;
}

/**
 * The last Accept value decided per type list (keyed by the list itself, so call sites pass
 * module constants); a WeakMap, bounded by the lists alive, one entry each.
 */
const lastAccept = new WeakMap<readonly string[], { readonly header: string; readonly result: boolean }>();

function acceptsAllOf(header: string, types: readonly string[]): boolean {
  const ranges = header.split(',').map(parseRange).filter((range) => range.type !== '');
  return types.every((type) => {
    const [major] = type.split('/');
    const match = ranges
      .filter((range) => range.type === type || range.type === `${major}/*` || range.type === '*/*')
      .sort((a, b) => specificity(b.type) - specificity(a.type))[0];
    return match !== undefined && match.q > 0;
  });
}

/** What the Accept of a request for an SSE stream (a GET) must admit; pass this list to {@link acceptsAll}. */
export const SSE_ACCEPTS: readonly string[] = ['text/event-stream'];

/** What a POST's Accept must admit. */
const POST_ACCEPTS: readonly string[] = ['application/json', 'text/event-stream'];

function parseRange(part: string): { type: string; q: number } {
  const [type = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
  const qParam = params.find((param) => param.startsWith('q='));
  const q = qParam === undefined ? 1 : Number(qParam.slice(2));
  return { type, q: Number.isFinite(q) ? q : 1 };
}

function specificity(type: string): number {
  return type === '*/*' ? 0 : type.endsWith('/*') ? 1 : 2;
}

/** True when a Content-Type header names `application/json` (parameters allowed). */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === 'application/json') return true; // What clients send, checked without allocating.
  return header !== undefined && header.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** Limits a POST body is read and inspected within. */
export interface PostLimits {
  /** Largest body in bytes. */
  readonly maxBodyBytes: number;
  /** Most messages in one JSON-RPC batch. */
  readonly maxBatchLength: number;
}

/** The refusal of a batch longer than `maxBatchLength`, or undefined when it is within it. */
export function batchLengthRefusal(value: unknown, maxBatchLength: number): string | undefined {
  return Array.isArray(value) && value.length > maxBatchLength
    ? `Invalid Request: the batch has ${value.length} messages; the limit is ${maxBatchLength}`
    : undefined;
}

/**
 * Decodes and classifies a POST body. A batch over `maxBatchLength` is refused as a whole
 * before any member is looked at, so its length costs nothing but the parse.
 */
export function inspectPayload(text: string, maxBatchLength = Number.POSITIVE_INFINITY): Payload {
  const value = decodeMessage(text);
  if (value instanceof ParseFailure) {
    return refused(TRANSPORT_ERROR_CODES.PARSE_ERROR, `Parse error: ${value.detail}`, null);
  }
  const batch = Array.isArray(value);
  const items: unknown[] = batch ? value : [value];
  if (items.length === 0) {
    return refused(TRANSPORT_ERROR_CODES.INVALID_REQUEST, 'Invalid Request: empty batch', null);
  }
  const tooLong = batchLengthRefusal(value, maxBatchLength);
  if (tooLong !== undefined) {
    return refused(TRANSPORT_ERROR_CODES.INVALID_REQUEST, tooLong, null);
  }
  const requestIds: RequestId[] = [];
  let initialize = false;
  for (const item of items) {
    const classified = classifyMessage(item);
    if (classified.kind === 'invalid') {
      return refused(TRANSPORT_ERROR_CODES.INVALID_REQUEST, `Invalid Request: ${classified.reason}`, classified.id);
    }
    if (classified.kind === 'request') {
      const { id, method } = classified.message;
      if (requestIds.includes(id)) {
        return refused(TRANSPORT_ERROR_CODES.INVALID_REQUEST, `Invalid Request: id ${JSON.stringify(id)} appears twice in the batch`, id);
      }
      requestIds.push(id);
      initialize ||= method === INITIALIZE_REQUEST;
    }
  }
  if (initialize && batch) {
    return refused(TRANSPORT_ERROR_CODES.INVALID_REQUEST, `Invalid Request: ${INITIALIZE_REQUEST} must not be part of a batch`, null);
  }
  return { kind: 'messages', value, batch, requestIds, initialize };
}

function refused(code: number, message: string, id: RequestId | null): RefusedPayload {
  return { kind: 'refused', status: 400, code, message, id };
}

/**
 * The checks every Streamable HTTP POST passes before its messages go anywhere: Accept,
 * Content-Type, the body within `maxBodyBytes` and as UTF-8, and its JSON-RPC shape with a
 * batch within `maxBatchLength`. The body is read against `budget`, the POST's admission. Resolves with the accepted payload, or with the reply
 * refusing the request.
 */
export async function readPostedMessages(request: HttpRequestView, limits: PostLimits, budget?: BodyBudget): Promise<AcceptedPayload | HttpReply> {
  const { maxBodyBytes } = limits;
  if (!acceptsAll(request.header('accept'), POST_ACCEPTS)) {
    return errorReply(406, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Not Acceptable: the client must accept both application/json and text/event-stream');
  }
  if (!isJsonContentType(request.header('content-type'))) {
    return errorReply(415, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const body = await request.readBody(maxBodyBytes, budget);
  if (!body.ok) {
    if (body.reason === 'busy') return bytesInFlightRefusal();
    return body.reason === 'too-large'
      ? errorReply(413, TRANSPORT_ERROR_CODES.BAD_REQUEST, `Payload Too Large: the limit is ${maxBodyBytes} bytes`)
      : errorReply(400, TRANSPORT_ERROR_CODES.PARSE_ERROR, 'Parse error: the body is not valid UTF-8 text');
  }
  const payload = inspectPayload(body.text, limits.maxBatchLength);
  return payload.kind === 'refused' ? errorReply(payload.status, payload.code, payload.message, {}, payload.id) : payload;
}
