/**
 * The deprecated HTTP+SSE transport of revision 2024-11-05, for older clients: a GET opens an
 * SSE stream whose first event (`endpoint`) names the URL to POST messages to; every POST is
 * answered 202 and every server message, responses included, travels over that one stream.
 * The session lives exactly as long as the SSE connection.
 */
import { SdkError } from '../../core/errors.js';
import type { JSONRPCMessage } from '../../core/jsonrpc.js';
import type { ServedSession, SessionFactory } from '../../core/session.js';
import type { MessageExtra, Transport, TransportSendOptions } from '../../core/transport.js';
import { decodeMessage, ParseFailure } from '../../core/wire-format.js';
import type { BodyBudget, HttpReply, HttpRequestView, ResourceCounts } from './http-types.js';
import { bytesInFlightRefusal } from './admission.js';
import { emptyReply, errorReply, TRANSPORT_ERROR_CODES } from './replies.js';
import { acceptsAll, SSE_ACCEPTS, batchLengthRefusal, isJsonContentType } from './request-checks.js';
import type { HttpMessageExtra } from './server-extra.js';
import { ownsSession, sessionOwnerOf } from './session-owner.js';
import { mintSessionId, type HttpSession, type SessionRegistry } from './session.js';
import { streamReply } from './sse-stream.js';
import { formatSseEvent, SseConnection } from './sse-writer.js';

/** Where the legacy transport lives. */
export interface LegacySseOptions {
  /** The path a GET opens the SSE stream on (default `/sse`). */
  readonly ssePath?: string | undefined;
  /** The path messages are POSTed to, with a `sessionId` query parameter (default `/messages`). */
  readonly messagePath?: string | undefined;
  /**
   * The message URL announced in the `endpoint` event, when clients reach the server under a
   * different path than it sees (behind a proxy or a mounted router). Default: `messagePath`.
   */
  readonly publicMessagePath?: string | undefined;
}

/** Settings the legacy leg needs from the handler. */
export interface LegacyLegOptions {
  readonly serverFactory: SessionFactory;
  readonly ssePath: string;
  readonly messagePath: string;
  readonly publicMessagePath: string;
  readonly maxBodyBytes: number;
  /** Most messages in one JSON-RPC batch. */
  readonly maxBatchLength: number;
  readonly maxSessions: number;
  readonly keepAliveMs: number;
  readonly counts: ResourceCounts;
  readonly registry: SessionRegistry;
}

/** The server side of the HTTP+SSE transport for one client: writes every message to its stream. */
export class LegacySseServerTransport implements Transport {
  /** HTTP: `tcp` in telemetry's terms. */
  readonly networkTransport = 'tcp';
  onmessage?: (message: unknown, extra?: MessageExtra) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Internal: fires once after `onclose`, for the session registry. */
  onended?: (() => void) | undefined;

  readonly sessionId: string;

  private readonly connection: SseConnection;
  private started = false;
  private closed = false;

  constructor(sessionId: string, connection: SseConnection) {
    this.sessionId = sessionId;
    this.connection = connection;
    // The client closing its EventSource ends the session.
    const onclose = (): void => void this.close();
    connection.onclose = onclose;
  }

  /** True once the stream ended. */
  get isClosed(): boolean {
    return this.closed;
  }

  async start(): Promise<void> {
    if (this.started) {
      throw new SdkError('ALREADY_CONNECTED', 'LegacySseServerTransport already started');
    }
    this.started = true;
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[], _options?: TransportSendOptions): Promise<void> {
    if (this.closed) {
      throw new SdkError('NOT_CONNECTED', 'The SSE stream is closed');
    }
    this.connection.write(formatSseEvent({ event: 'message', data: JSON.stringify(message) }));
  }

  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.connection.end();
    this.onclose?.();
    const ended = this.onended;
    this.onended = undefined;
    ended?.();
  }

  /** Hands a POSTed value to the engine. */
  deliver(value: unknown, extra: HttpMessageExtra): void {
    if (!this.closed) {
      this.onmessage?.(value, extra);
    }
  }
}

class LegacySession implements HttpSession {
  readonly kind = 'sse' as const;
  readonly createdAt = Date.now();
  lastActivityAt = this.createdAt;
  lastUse = 0;

  constructor(
    readonly id: string,
    readonly server: ServedSession,
    readonly transport: LegacySseServerTransport,
    readonly owner: string | undefined,
  ) {}

  pendingRequests(): number {
    return 0;
  }

  openStreams(): number {
    return this.transport.isClosed ? 0 : 1;
  }

  async close(): Promise<void> {
    try {
      await this.server.close();
    } finally {
      await this.transport.close();
    }
  }
}

/** Handles the two endpoints of the legacy transport. */
export class LegacySseLeg {
  private readonly options: LegacyLegOptions;

  constructor(options: LegacyLegOptions) {
    this.options = options;
  }

  /** GET on the SSE path: opens a session and announces its message endpoint. */
  async openStream(request: HttpRequestView): Promise<HttpReply> {
    if (!acceptsAll(request.header('accept'), SSE_ACCEPTS)) {
      return errorReply(406, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Not Acceptable: the client must accept text/event-stream');
    }
    if (this.options.registry.size >= this.options.maxSessions && !this.options.registry.evictIdle()) {
      return errorReply(503, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Service Unavailable: too many sessions', { 'retry-after': '5' });
    }
    const server = await this.options.serverFactory();
    const id = mintSessionId();
    const connection = new SseConnection({ keepAliveMs: this.options.keepAliveMs, counts: this.options.counts });
    const endpoint = `${this.options.publicMessagePath}?sessionId=${encodeURIComponent(id)}`;
    connection.write(formatSseEvent({ event: 'endpoint', data: endpoint }));
    const transport = new LegacySseServerTransport(id, connection);
    const session = new LegacySession(id, server, transport, sessionOwnerOf(request.authInfo));
    try {
      await server.connect(transport);
    } catch (error) {
      connection.dispose();
      throw error;
    }
    this.options.registry.add(session);
    const onended = (): void => this.options.registry.remove(id, session);
    transport.onended = onended;
    return streamReply(connection);
  }

  /** POST on the message path: hands the message to the session; its answer goes over SSE. The body is read against `budget` (its admission's). */
  async postMessage(request: HttpRequestView, budget?: BodyBudget): Promise<HttpReply> {
    const id = request.query.get('sessionId');
    if (id === null || id === '') {
      return errorReply(400, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Bad Request: the sessionId query parameter is required');
    }
    const session = this.options.registry.lookup(id, 'sse');
    // Another identity's session is answered as if it did not exist.
    if (!(session instanceof LegacySession) || session.transport.isClosed || !ownsSession(session.owner, request.authInfo)) {
      return errorReply(404, TRANSPORT_ERROR_CODES.SESSION_NOT_FOUND, 'Session not found');
    }
    if (!isJsonContentType(request.header('content-type'))) {
      return errorReply(415, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Unsupported Media Type: Content-Type must be application/json');
    }
    const header = request.header('mcp-protocol-version');
    const negotiated = session.server.protocolVersion;
    if (header !== undefined && (!session.server.supportedRevisions.includes(header) || (negotiated !== undefined && header !== negotiated))) {
      return errorReply(400, TRANSPORT_ERROR_CODES.BAD_REQUEST, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(header)}`);
    }
    const body = await request.readBody(this.options.maxBodyBytes, budget);
    if (!body.ok) {
      if (body.reason === 'busy') return bytesInFlightRefusal();
    return body.reason === 'too-large'
        ? errorReply(413, TRANSPORT_ERROR_CODES.BAD_REQUEST, `Payload Too Large: the limit is ${this.options.maxBodyBytes} bytes`)
        : errorReply(400, TRANSPORT_ERROR_CODES.PARSE_ERROR, 'Parse error: the body is not valid UTF-8 text');
    }
    const value = decodeMessage(body.text);
    if (value instanceof ParseFailure) {
      return errorReply(400, TRANSPORT_ERROR_CODES.PARSE_ERROR, `Parse error: ${value.detail}`);
    }
    const tooLong = batchLengthRefusal(value, this.options.maxBatchLength);
    if (tooLong !== undefined) {
      return errorReply(400, TRANSPORT_ERROR_CODES.INVALID_REQUEST, tooLong);
    }
    session.transport.deliver(value, { sessionId: id, requestHeaders: (name) => request.header(name), ...(request.authInfo !== undefined ? { authInfo: request.authInfo } : {}) });
    return emptyReply(202);
  }
}
