/**
 * The Streamable HTTP leg of the server (revisions 2025-03-26, 2025-06-18, 2025-11-25): one
 * endpoint answering POST (messages in; JSON or SSE out), GET (the standalone stream, or a
 * resumption with Last-Event-ID) and DELETE (end the session), with or without sessions.
 */
import { INITIALIZE_REQUEST } from '../special-methods.js';
import { statefulRevisions, revisionModule } from '../revisions.js';
import type { Server } from '../server.js';
import type { HttpReply, HttpRequestView } from './http-types.js';
import { discardReply, withHeaders } from './http-types.js';
import { emptyReply, errorReply, TRANSPORT_ERROR_CODES } from './replies.js';
import { acceptsAll, inspectPayload, isJsonContentType, type AcceptedPayload } from './request-checks.js';
import { StreamableServerTransport, type HttpMessageExtra } from './server-transport.js';
import { mintSessionId, randomHex, type HttpSession, type SessionRegistry } from './session.js';
import type { StreamSettings } from './sse-stream.js';

/** The revision a request without MCP-Protocol-Version header is assumed to speak (spec rule). */
export const DEFAULT_HEADERLESS_REVISION = '2025-03-26';

/** What the leg needs from the handler. */
export interface StreamableLegOptions {
  readonly serverFactory: () => Server | Promise<Server>;
  /** False: stateless mode, a fresh Server per POST and no Mcp-Session-Id. */
  readonly sessions: boolean;
  /** Whether GET opens a standalone stream (resumption with Last-Event-ID works regardless). */
  readonly standaloneStream: boolean;
  readonly maxBodyBytes: number;
  readonly maxSessions: number;
  readonly settings: StreamSettings;
  readonly registry: SessionRegistry;
}

/** The request id of the `initialize` a stateless POST is prefixed with; never seen by clients. */
const STATELESS_INIT_ID = 'mcpgen-stateless-initialize';

/** A Streamable HTTP session: its Server and the transport that routes its streams. */
class StreamableSession implements HttpSession {
  readonly kind = 'streamable-http' as const;
  readonly createdAt = Date.now();
  lastActivityAt = this.createdAt;

  constructor(
    readonly id: string,
    readonly server: Server,
    readonly transport: StreamableServerTransport,
  ) {}

  pendingRequests(): number {
    return this.transport.pendingRequests;
  }

  openStreams(): number {
    return this.transport.openConnections;
  }

  async close(): Promise<void> {
    try {
      await this.server.close();
    } finally {
      await this.transport.close();
    }
  }
}

/** Handles every request routed to the Streamable HTTP endpoint. */
export class StreamableHttpLeg {
  private readonly options: StreamableLegOptions;
  /** Sessions being initialised, counted against the session limit before they are registered. */
  private initializing = 0;

  constructor(options: StreamableLegOptions) {
    this.options = options;
  }

  /** Answers one request to the MCP endpoint. */
  handle(request: HttpRequestView): Promise<HttpReply> | HttpReply {
    switch (request.method) {
      case 'POST':
        return this.post(request);
      case 'GET':
        return this.options.sessions ? this.get(request) : this.methodNotAllowed();
      case 'DELETE':
        return this.options.sessions ? this.delete(request) : this.methodNotAllowed();
      default:
        return this.methodNotAllowed();
    }
  }

  private methodNotAllowed(): HttpReply {
    const allow = this.options.sessions ? 'GET, POST, DELETE' : 'POST';
    return errorReply(405, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Method Not Allowed', { allow });
  }

  private async post(request: HttpRequestView): Promise<HttpReply> {
    if (!acceptsAll(request.header('accept'), ['application/json', 'text/event-stream'])) {
      return errorReply(406, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Not Acceptable: the client must accept both application/json and text/event-stream');
    }
    if (!isJsonContentType(request.header('content-type'))) {
      return errorReply(415, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Unsupported Media Type: Content-Type must be application/json');
    }
    const body = await request.readBody(this.options.maxBodyBytes);
    if (!body.ok) {
      return body.reason === 'too-large'
        ? errorReply(413, TRANSPORT_ERROR_CODES.BAD_REQUEST, `Payload Too Large: the limit is ${this.options.maxBodyBytes} bytes`)
        : errorReply(400, TRANSPORT_ERROR_CODES.PARSE_ERROR, 'Parse error: the body is not valid UTF-8 text');
    }
    const payload = inspectPayload(body.text);
    if (payload.kind === 'refused') {
      return errorReply(payload.status, payload.code, payload.message, {}, payload.id);
    }
    if (!this.options.sessions) {
      return this.postStateless(request, payload);
    }
    if (payload.initialize && request.header('mcp-session-id') === undefined) {
      return this.initialize(request, payload);
    }
    const found = this.resolveSession(request);
    if (!(found instanceof StreamableSession)) {
      return found;
    }
    const { transport, server } = found;
    // The session's Server already holds its negotiated revision module; no second lookup.
    if (payload.batch && !server.protocol.revision?.batching) {
      return errorReply(400, TRANSPORT_ERROR_CODES.INVALID_REQUEST, `Invalid Request: revision ${server.protocolVersion} does not allow JSON-RPC batches`);
    }
    const reused = payload.requestIds.find((id) => transport.hasPendingRequest(id));
    if (reused !== undefined) {
      return errorReply(400, TRANSPORT_ERROR_CODES.INVALID_REQUEST, `Invalid Request: id ${JSON.stringify(reused)} is already in use`, {}, reused);
    }
    const extra = this.extraFor(request, transport);
    if (payload.requestIds.length === 0) {
      transport.accept(payload.value, extra);
      return emptyReply(202);
    }
    return transport.acceptRequests(payload.value, payload.requestIds, extra, request.signal);
  }

  private async initialize(request: HttpRequestView, payload: AcceptedPayload): Promise<HttpReply> {
    const header = request.header('mcp-protocol-version');
    if (header !== undefined && !statefulRevisions.includes(header)) {
      return unsupportedVersion(header);
    }
    if (this.options.registry.size + this.initializing >= this.options.maxSessions) {
      return errorReply(503, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Service Unavailable: too many sessions', { 'retry-after': '5' });
    }
    this.initializing++;
    try {
      const server = await this.options.serverFactory();
      const id = mintSessionId();
      const transport = new StreamableServerTransport({
        sessionId: id,
        streamPrefix: randomHex(8),
        settings: this.options.settings,
        revision: () => server.protocolVersion,
      });
      const session = new StreamableSession(id, server, transport);
      await server.connect(transport);
      transport.onended = () => this.options.registry.remove(id, session);
      const reply = await transport.acceptRequests(payload.value, payload.requestIds, this.extraFor(request, transport), request.signal);
      if (server.protocolVersion === undefined || request.signal?.aborted === true) {
        // A failed handshake (or a client that left) leaves no session behind.
        await session.close();
        return reply;
      }
      this.options.registry.add(session);
      return withHeaders(reply, { 'mcp-session-id': id });
    } finally {
      this.initializing--;
    }
  }

  /**
   * Stateless mode: a fresh Server per POST. Requests other than `initialize` reach a Server
   * that is first initialised with the revision from the MCP-Protocol-Version header; the
   * client's capabilities are unknown to it, so it cannot send the client requests.
   */
  private async postStateless(request: HttpRequestView, payload: AcceptedPayload): Promise<HttpReply> {
    const header = request.header('mcp-protocol-version');
    const version = header ?? DEFAULT_HEADERLESS_REVISION;
    if (!statefulRevisions.includes(version)) {
      return unsupportedVersion(version);
    }
    if (payload.requestIds.length === 0) {
      // Notifications and responses have nobody to go to without a session.
      return emptyReply(202);
    }
    if (payload.batch && !revisionModule(version).batching) {
      return errorReply(400, TRANSPORT_ERROR_CODES.INVALID_REQUEST, `Invalid Request: revision ${version} does not allow JSON-RPC batches`);
    }
    const server = await this.options.serverFactory();
    const transport = new StreamableServerTransport({
      sessionId: undefined,
      streamPrefix: randomHex(8),
      settings: { ...this.options.settings, eventStore: undefined },
      revision: () => server.protocolVersion,
    });
    await server.connect(transport);
    const extra = this.extraFor(request, transport);
    if (!payload.initialize) {
      const params = { protocolVersion: version, capabilities: {}, clientInfo: { name: 'stateless-http-client', version: '0.0.0' } };
      discardReply(await transport.acceptRequests({ jsonrpc: '2.0', id: STATELESS_INIT_ID, method: INITIALIZE_REQUEST, params }, [STATELESS_INIT_ID], extra));
      if (server.protocolVersion === undefined) {
        await server.close();
        return errorReply(500, TRANSPORT_ERROR_CODES.INTERNAL_ERROR, 'Internal error: the server refused to initialise');
      }
    }
    const release = (): void => {
      void server.close().catch(() => undefined);
    };
    transport.onstreamfinish = release;
    transport.onstreamdisconnect = release;
    return transport.acceptRequests(payload.value, payload.requestIds, extra, request.signal);
  }

  private async get(request: HttpRequestView): Promise<HttpReply> {
    if (!acceptsAll(request.header('accept'), ['text/event-stream'])) {
      return errorReply(406, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Not Acceptable: the client must accept text/event-stream');
    }
    const found = this.resolveSession(request);
    if (!(found instanceof StreamableSession)) {
      return found;
    }
    const lastEventId = request.header('last-event-id');
    if (lastEventId !== undefined && lastEventId !== '') {
      return found.transport.resume(lastEventId);
    }
    if (!this.options.standaloneStream) {
      return this.methodNotAllowed();
    }
    return found.transport.openStandalone();
  }

  private async delete(request: HttpRequestView): Promise<HttpReply> {
    const found = this.resolveSession(request);
    if (!(found instanceof StreamableSession)) {
      return found;
    }
    await this.options.registry.close(found.id);
    return emptyReply(204);
  }

  /** The session a request names, or the reply refusing it (400 without id, 404 unknown, 400 bad version). */
  private resolveSession(request: HttpRequestView): StreamableSession | HttpReply {
    const id = request.header('mcp-session-id');
    if (id === undefined || id === '') {
      return errorReply(400, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Bad Request: the Mcp-Session-Id header is required');
    }
    const session = this.options.registry.lookup(id, 'streamable-http');
    if (!(session instanceof StreamableSession) || session.transport.isClosed) {
      return errorReply(404, TRANSPORT_ERROR_CODES.SESSION_NOT_FOUND, 'Session not found');
    }
    const header = request.header('mcp-protocol-version');
    const negotiated = session.server.protocolVersion;
    if (header !== undefined && (!session.server.supportedRevisions.includes(header) || (negotiated !== undefined && header !== negotiated))) {
      return unsupportedVersion(header);
    }
    return session;
  }

  private extraFor(request: HttpRequestView, transport: StreamableServerTransport): HttpMessageExtra {
    const base: HttpMessageExtra = {
      requestHeaders: (name) => request.header(name),
      ...(request.authInfo !== undefined ? { authInfo: request.authInfo } : {}),
      closeStandaloneStream: () => transport.closeStandaloneStream(),
    };
    return transport.sessionId === undefined ? base : { ...base, sessionId: transport.sessionId };
  }
}

function unsupportedVersion(version: string): HttpReply {
  return errorReply(400, TRANSPORT_ERROR_CODES.BAD_REQUEST, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)}`);
}
