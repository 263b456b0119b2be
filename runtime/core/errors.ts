import { isJsonObject, type JSONRPCErrorObject } from './jsonrpc.js';

/**
 * An error that travels on the wire as a JSON-RPC error object. Handlers throw it to answer
 * with a specific code; callers receive it when the peer answers a request with an error.
 *
 * @example
 * ```ts
 * import { ErrorCodes, McpServer, ProtocolError } from 'mcpgen';
 *
 * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
 * mcp.registerResourceTemplate('note', 'notes://{id}', {}, (uri, { id }) => {
 *   if (id !== 'welcome') throw new ProtocolError(ErrorCodes.RESOURCE_NOT_FOUND, 'Resource not found', { uri });
 *   return { contents: [{ uri, text: 'Hello' }] };
 * });
 * ```
 */
export class ProtocolError extends Error {
  /** The JSON-RPC error code (reserved codes come from the revision's `errorCodes`). */
  readonly code: number;
  /** The optional `data` member, passed through untouched. */
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
    if (data !== undefined) {
      this.data = data;
    }
  }

  /** The JSON-RPC error object for this error; `data` is present only when set. */
  toJSON(): JSONRPCErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /**
   * Builds a ProtocolError from a received JSON-RPC error object. Fields of the wrong type are
   * replaced rather than trusted, because the object comes from the peer.
   */
  static fromError(error: unknown): ProtocolError {
    if (!isJsonObject(error)) {
      return new ProtocolError(0, 'Malformed error object');
    }
    const code = Number.isInteger(error.code) ? (error.code as number) : 0;
    const message = typeof error.message === 'string' ? error.message : 'Unknown error';
    return new ProtocolError(code, message, error.data);
  }
}

/** Why the SDK itself failed an operation (as opposed to the peer answering with an error). */
export type SdkErrorCode =
  | 'REQUEST_TIMEOUT'
  | 'REQUEST_CANCELLED'
  | 'CONNECTION_CLOSED'
  | 'CAPABILITY_MISSING'
  | 'NOT_CONNECTED'
  | 'ALREADY_CONNECTED'
  | 'INVALID_RESULT'
  | 'INVALID_PARAMS'
  | 'INVALID_NOTIFICATION'
  | 'UNKNOWN_METHOD'
  | 'WRONG_DIRECTION'
  | 'UNEXPECTED_RESPONSE'
  | 'UNSUPPORTED_VERSION'
  | 'SEND_FAILED'
  | 'SPAWN_FAILED'
  /** Processes of a stdio server ignored SIGINT and SIGTERM and were killed (data `{ pids }`). */
  | 'PROCESS_KILLED'
  | 'PAGE_LIMIT'
  /** An inbound frame exceeded a size limit; the request it answered fails with this code. */
  | 'MESSAGE_TOO_LARGE'
  /** A multi round-trip request still asked for input after the Client's round limit. */
  | 'INPUT_ROUNDS_EXCEEDED'
  /** A local API was called or configured with a value it cannot accept (a too-short key, a bad option). */
  | 'INVALID_ARGUMENT'
  /** A request or notification handler threw something other than a ProtocolError (reported to onerror, data `{ method, requestId, tool?, resource?, prompt? }`). */
  | 'HANDLER_FAILED'
  /** OAuth authorization could not obtain a usable access token (discovery, consent, token endpoint). */
  | 'AUTHORIZATION_FAILED'
  /** Content did not match what the peer described it as (a skill file's size, digest or frontmatter). */
  | 'VERIFICATION_FAILED';

/** Optional extras of an {@link SdkError}. */
export interface SdkErrorOptions {
  /** The underlying error, if any. */
  readonly cause?: unknown;
  /** Structured details, e.g. validation issues. */
  readonly data?: unknown;
}

/** A local failure raised by the SDK; never sent on the wire as such. */
export class SdkError extends Error {
  /** Machine-readable reason. */
  readonly code: SdkErrorCode;
  /** Structured details, e.g. `{ issues }` for validation failures. */
  readonly data?: unknown;

  constructor(code: SdkErrorCode, message: string, options: SdkErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SdkError';
    this.code = code;
    if (options.data !== undefined) {
      this.data = options.data;
    }
  }
}

/** The message of any thrown value, for error replies and reports. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) {
    return error.message;
  }
  return typeof error === 'string' ? error : String(error);
}

/** The thrown value itself when it is an Error, otherwise an Error carrying its message. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(messageOf(error));
}

/** Construction details of a {@link TransportError}. */
export interface TransportErrorDetails {
  /** The status the transport's channel reported (an HTTP status), when it reported one. */
  readonly status?: number | undefined;
  /** The JSON-RPC error object the failed exchange carried, if it carried one. */
  readonly rpcError?: JSONRPCErrorObject | undefined;
  /** The underlying failure. */
  readonly cause?: unknown;
}

/**
 * A transport failed to carry a message, and says what its channel answered: the status (HTTP
 * transports) and the JSON-RPC error the answer carried. Peers read these facts to tell an
 * older server from a refusal without knowing which transport they run on; transports
 * subclass it (HttpTransportError).
 */
export class TransportError extends Error {
  /** The channel's status (an HTTP status), or undefined when there was no answer. */
  readonly status: number | undefined;
  /** The JSON-RPC error object of the answer, when the other side answered with one. */
  readonly rpcError: JSONRPCErrorObject | undefined;

  constructor(message: string, details: TransportErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'TransportError';
    this.status = details.status;
    this.rpcError = details.rpcError;
  }
}

/** Finds a TransportError in an error or its `cause` chain (SdkError wraps it as its cause). */
export function findTransportError(error: unknown): TransportError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (current instanceof TransportError) return current;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}
