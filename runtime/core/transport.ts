import type { JSONRPCMessage, RequestId } from './jsonrpc.js';
import type { RevisionFacts } from './revision-facts.js';

/** Re-exported so transport authors find the failure marker next to the contract. */
export { ParseFailure, type ParseFailureKind } from './wire-format.js';

/** Per-send hints a transport may use for routing. */
export interface TransportSendOptions {
  /**
   * The incoming request this message belongs to (a response, or a notification/request sent
   * while handling it). Stream-based HTTP transports route on it; stdio ignores it.
   */
  readonly relatedRequestId?: RequestId | undefined;
  /**
   * The revision the engine speaks as it sends this message, with the facts that decide how
   * it travels (era, batching, stream priming); undefined while no revision is bound. A
   * transport whose wire differs by era (Streamable HTTP) reads it here, per message.
   */
  readonly revision?: RevisionFacts | undefined;
  /**
   * The input schema of a tool the sending peer has listed (undefined for one not seen yet),
   * for transports that mirror annotated tool parameters into headers (Streamable HTTP in
   * the stateless era).
   */
  readonly toolInputSchema?: ((name: string) => unknown) | undefined;
}

/** Facts a transport knows about an inbound message beyond its content. */
export interface MessageExtra {
  /** The transport session the message arrived on, where the transport has sessions. */
  readonly sessionId?: string;
  /** Credentials the transport verified for this message (HTTP transports); absent on stdio. */
  readonly authInfo?: unknown;
}

/**
 * The promise a transport's `send()` returns when it handed the message over at once and
 * nothing about it can fail later (the in-memory pair). The engine compares against it and
 * then attaches no failure handler and runs what follows the send without waiting a
 * microtask: one promise, one closure and one reaction fewer on each side of every request.
 * Any other promise is waited on as usual.
 */
export const DELIVERED: Promise<void> = /* @__PURE__ */ Promise.resolve();

/**
 * The one contract every transport implements; the protocol engine depends on nothing else.
 *
 * Lifecycle: the owner sets the callbacks, then calls `start()` once. `send()` may be called
 * after `start()` resolves and until the transport closes; afterwards it rejects with an
 * SdkError('NOT_CONNECTED'). `close()` is idempotent. `onclose` fires exactly once, whether the
 * connection ended through `close()` or from the other side (peer closed, child exited, EOF).
 *
 * Inbound data: `onmessage` receives each decoded JSON value (a single message or an array for
 * a batch) without any JSON-RPC checks, because classification and error replies belong to
 * the engine. A frame that cannot be decoded arrives as a `ParseFailure` instance instead of a
 * value, so that the engine alone decides how to answer it (-32700 / -32600 with id null).
 * Text transports decode with `decodeMessage` from wire-format.ts, the single parsing point.
 *
 * Errors: `onerror` reports problems that do not end the connection by themselves (a failed
 * write, a stream error); it is informational and never replaces `onclose`.
 */
export interface Transport {
  /** Begins receiving; rejects when the underlying channel cannot be opened. */
  start(): Promise<void>;
  /** Sends one message or one batch; resolves once it is handed to the channel. */
  send(message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions): Promise<void>;
  /** Ends the connection and releases its resources; fires `onclose`. */
  close(): Promise<void>;
  /** Receives each decoded inbound value, or a ParseFailure for an undecodable frame. */
  onmessage?: (message: unknown, extra?: MessageExtra) => void;
  /** Fires once when the connection has ended. */
  onclose?: () => void;
  /** Reports non-fatal transport problems. */
  onerror?: (error: Error) => void;
  /** The session id, for transports that have sessions. */
  readonly sessionId?: string;
  /**
   * What carries the bytes underneath, in OpenTelemetry's `network.transport` terms: `pipe`
   * for stdio, `tcp` for HTTP. Telemetry reads it; undefined where the transport does not say.
   */
  readonly networkTransport?: string | undefined;
  /**
   * True when the transport mirrors `x-mcp-header` tool parameters into headers, in which
   * case a Client drops tools with invalid annotations from `tools/list` results, as the spec
   * requires.
   */
  readonly mirrorsToolParameters?: boolean | undefined;
  /**
   * Why the connection ended when it ended from the other side (e.g. the child process exited
   * with a code and stderr output). The engine puts it into the errors it rejects pending
   * requests with. Undefined after a local `close()`.
   */
  readonly closeReason?: Error | undefined;
}
