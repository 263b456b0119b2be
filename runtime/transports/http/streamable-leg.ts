/**
 * The Streamable HTTP leg of the server (revisions 2025-03-26, 2025-06-18, 2025-11-25): one
 * endpoint answering POST (messages in; JSON or SSE out), GET (the standalone stream, or a
 * resumption with Last-Event-ID) and DELETE (end the session), with or without sessions.
 */
import { INITIALIZE_REQUEST } from '../../core/special-methods.js';
import { pinnedFacts } from '../../core/revisions.js';
import type { RevisionFacts } from '../../core/revision-facts.js';
import { statefulRevisions } from '../../core/revisions.js';
import type { ServedSession, SessionFactory } from '../../core/session.js';
import type { BodyBudget, HttpReply, HttpRequestView } from './http-types.js';
import { discardReply, withHeaders } from './http-types.js';
import { emptyReply, errorReply, TRANSPORT_ERROR_CODES, unsupportedVersion } from './replies.js';
import { acceptsAll, SSE_ACCEPTS, readPostedMessages, type AcceptedPayload, type PostLimits } from './request-checks.js';
import { extraFor } from './server-extra.js';
import { StreamableServerTransport } from './server-transport.js';
import { postWithoutSession } from './streamable-sessionless.js';
import { asError } from '../../core/errors.js';
import { isJsonObject } from '../../core/jsonrpc.js';
import { ownsSession, sessionOwnerOf } from './session-owner.js';
import { mintSessionId, randomHex, sessionFacts, type HttpSession, type SessionRegistry, type SessionStore, type SharedSessionState } from './session.js';
import type { StreamSettings } from './sse-stream.js';
import { Method } from '../../../generated/methods.js';

export { DEFAULT_HEADERLESS_REVISION } from './streamable-sessionless.js';

/** What the leg needs from the handler. */
export interface StreamableLegOptions {
  readonly serverFactory: SessionFactory;
  /** False: stateless mode, a fresh Server per POST and no Mcp-Session-Id. */
  readonly sessions: boolean;
  /** Whether GET opens a standalone stream (resumption with Last-Event-ID works regardless). */
  readonly standaloneStream: boolean;
  /** Body size and batch length limits of a POST. */
  readonly limits: PostLimits;
  readonly maxSessions: number;
  readonly settings: StreamSettings;
  readonly registry: SessionRegistry;
  /** Shared sessions across replicas (default: none, sessions live in this process only). */
  readonly sessionStore?: SessionStore | undefined;
}

/** A Streamable HTTP session: its Server and the transport that routes its streams. */
class StreamableSession implements HttpSession {
  readonly kind = 'streamable-http' as const;
  readonly createdAt = Date.now();
  lastActivityAt = this.createdAt;
  lastUse = 0;

  constructor(
    readonly id: string,
    readonly server: ServedSession,
    readonly transport: StreamableServerTransport,
    readonly owner: string | undefined,
    /** With a session store: the shared state as this copy last saw or wrote it. */
    public shared?: SharedSessionState,
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
  /** Sessions being restored from the session store, so concurrent requests share one copy. */
  private readonly restoring = new Map<string, Promise<StreamableSession | HttpReply>>();

  constructor(options: StreamableLegOptions) {
    this.options = options;
  }

  /** Answers one request to the MCP endpoint; a POST's body is read against `budget` (its admission's). */
  handle(request: HttpRequestView, budget?: BodyBudget): Promise<HttpReply> | HttpReply {
    switch (request.method) {
      case 'POST':
        return this.post(request, budget);
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

  private async post(request: HttpRequestView, budget: BodyBudget | undefined): Promise<HttpReply> {
    const payload = await readPostedMessages(request, this.options.limits, budget);
    if (payload.kind !== 'messages') return payload;
    if (!this.options.sessions) {
      return postWithoutSession(request, payload, this.options);
    }
    if (payload.initialize && request.header('mcp-session-id') === undefined) {
      return this.initialize(request, payload);
    }
    const found = await this.resolveSession(request);
    if (!(found instanceof StreamableSession)) {
      return found;
    }
    const { transport, server } = found;
    // The session's Server already holds its negotiated revision module; no second lookup.
    if (payload.batch && sessionFacts(server)?.batching !== true) {
      return errorReply(400, TRANSPORT_ERROR_CODES.INVALID_REQUEST, `Invalid Request: revision ${server.protocolVersion} does not allow JSON-RPC batches`);
    }
    const reused = payload.requestIds.find((id) => transport.hasPendingRequest(id));
    if (reused !== undefined) {
      return errorReply(400, TRANSPORT_ERROR_CODES.INVALID_REQUEST, `Invalid Request: id ${JSON.stringify(reused)} is already in use`, {}, reused);
    }
    const extra = extraFor(request, transport);
    if (payload.requestIds.length === 0) {
      if (found.shared !== undefined && !found.shared.initialized && hasInitializedNotification(payload.value)) {
        // Acknowledged only once every replica will know: a restored copy must not refuse requests.
        const failed = await this.saveShared(found, { initialized: true, loggingLevel: found.shared.loggingLevel });
        if (failed !== undefined) return failed;
      }
      try {
        // A response to a request another replica sent is relayed there before the 202.
        await transport.accept(payload.value, extra);
      } catch (error) {
        return this.storeUnavailable(error);
      }
      return emptyReply(202);
    }
    const reply = await transport.acceptRequests(payload.value, payload.requestIds, extra, request);
    if (found.shared !== undefined && server.loggingLevel !== found.shared.loggingLevel) {
      // logging/setLevel changed the session: saved before the answer goes out, so no replica filters by the old level.
      const failed = await this.saveShared(found, { initialized: found.shared.initialized, loggingLevel: server.loggingLevel });
      if (failed !== undefined) {
        discardReply(reply);
        return failed;
      }
    }
    return reply;
  }

  /** Writes a change of the shared state; the 503 reply when the store cannot be reached. */
  private async saveShared(session: StreamableSession, changes: Pick<SharedSessionState, 'initialized' | 'loggingLevel'>): Promise<HttpReply | undefined> {
    try {
      await this.options.sessionStore!.update(session.id, changes);
      session.shared = { ...session.shared!, ...changes };
      return undefined;
    } catch (error) {
      return this.storeUnavailable(error);
    }
  }

  private storeUnavailable(error: unknown): HttpReply {
    const cause = asError(error);
    this.options.settings.report(cause);
    return errorReply(503, TRANSPORT_ERROR_CODES.INTERNAL_ERROR, `Service Unavailable: the shared session store cannot be reached (${cause.message})`, { 'retry-after': '1' });
  }

  private async initialize(request: HttpRequestView, payload: AcceptedPayload): Promise<HttpReply> {
    const header = request.header('mcp-protocol-version');
    if (header !== undefined && !statefulRevisions.includes(header)) {
      return unsupportedVersion(header);
    }
    if (!this.hasRoom()) {
      return errorReply(503, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Service Unavailable: too many sessions', { 'retry-after': '5' });
    }
    this.initializing++;
    try {
      const server = await this.options.serverFactory();
      const id = mintSessionId();
      const prefix = randomHex(8);
      const session = await this.connectSession(id, server, prefix, sessionOwnerOf(request.authInfo));
      const { transport } = session;
      const reply = await transport.acceptRequests(payload.value, payload.requestIds, extraFor(request, transport), request);
      if (server.protocolVersion === undefined || request.signal?.aborted === true) {
        // A failed handshake (or a client that left) leaves no session behind.
        await session.close();
        return reply;
      }
      const store = this.options.sessionStore;
      if (store !== undefined) {
        const state = sharedStateOf(server, prefix, session.owner);
        try {
          await store.create(id, state);
        } catch (error) {
          discardReply(reply);
          await session.close();
          return this.storeUnavailable(error);
        }
        session.shared = state;
      }
      this.options.registry.add(session);
      return withHeaders(reply, { 'mcp-session-id': id });
    } finally {
      this.initializing--;
    }
  }

  /**
   * A session's Server connected to a new transport. With a session store every local copy gets
   * stream ids of its own under the session's prefix and the shared standalone stream.
   */
  private async connectSession(id: string, server: ServedSession, prefix: string, owner: string | undefined): Promise<StreamableSession> {
    const store = this.options.sessionStore;
    const { settings } = this.options;
    const revision = (): RevisionFacts | undefined => sessionFacts(server);
    const transport = new StreamableServerTransport(store === undefined
      ? { sessionId: id, streamPrefix: prefix, settings, revision }
      : {
        sessionId: id,
        streamPrefix: `${prefix}.${randomHex(4)}`,
        resumePrefix: prefix,
        settings,
        revision,
        standalone: store.standalone(id, {
          keepAliveMs: settings.keepAliveMs,
          retryMs: settings.retryMs,
          counts: settings.counts,
          revision: () => server.protocolVersion,
          primesStreams: () => revision()?.primesStreams === true,
          report: settings.report,
        }),
      });
    const session = new StreamableSession(id, server, transport, owner);
    await server.connect(transport);
    const onended = (): void => this.options.registry.remove(id, session);
    transport.onended = onended;
    return session;
  }

  private async get(request: HttpRequestView): Promise<HttpReply> {
    if (!acceptsAll(request.header('accept'), SSE_ACCEPTS)) {
      return errorReply(406, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Not Acceptable: the client must accept text/event-stream');
    }
    const found = await this.resolveSession(request);
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
    const found = await this.resolveSession(request);
    if (!(found instanceof StreamableSession)) {
      return found;
    }
    if (this.options.sessionStore !== undefined) {
      try {
        await this.options.sessionStore.delete(found.id);
      } catch (error) {
        return this.storeUnavailable(error);
      }
    }
    await this.options.registry.close(found.id);
    return emptyReply(204);
  }

  /** The session a request names, or the reply refusing it (400 without id, 404 unknown or another identity's, 400 bad version). */
  private async resolveSession(request: HttpRequestView): Promise<StreamableSession | HttpReply> {
    const id = request.header('mcp-session-id');
    if (id === undefined || id === '') {
      return errorReply(400, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Bad Request: the Mcp-Session-Id header is required');
    }
    const session = this.options.sessionStore === undefined ? this.options.registry.lookup(id, 'streamable-http') : await this.resolveShared(id);
    if (session !== undefined && isReply(session)) {
      return session; // the store's refusal (503 or too many sessions)
    }
    // Another identity's session is answered as if it did not exist.
    if (!(session instanceof StreamableSession) || session.transport.isClosed || !ownsSession(session.owner, request.authInfo)) {
      return errorReply(404, TRANSPORT_ERROR_CODES.SESSION_NOT_FOUND, 'Session not found');
    }
    const header = request.header('mcp-protocol-version');
    const negotiated = session.server.protocolVersion;
    if (header !== undefined && (!session.server.supportedRevisions.includes(header) || (negotiated !== undefined && header !== negotiated))) {
      return unsupportedVersion(header);
    }
    return session;
  }

  /**
   * With a session store: every request reads the shared state (one store round trip, which
   * also extends the session's expiry), so a session ended or changed on another replica is
   * seen here; a session this replica has no copy of is restored from it.
   */
  private async resolveShared(id: string): Promise<StreamableSession | HttpReply | undefined> {
    let state: SharedSessionState | undefined;
    try {
      state = await this.options.sessionStore!.load(id);
    } catch (error) {
      return this.storeUnavailable(error);
    }
    const local = this.options.registry.lookup(id, 'streamable-http');
    if (state === undefined) {
      if (local !== undefined) void this.options.registry.close(id).catch((error: unknown) => this.options.settings.report(asError(error)));
      return undefined;
    }
    if (local instanceof StreamableSession && !local.transport.isClosed) {
      if (local.shared?.initialized !== state.initialized || local.shared?.loggingLevel !== state.loggingLevel) local.server.restoreSession(state);
      local.shared = state;
      return local;
    }
    let pending = this.restoring.get(id);
    if (pending === undefined) {
      pending = this.restore(id, state).finally(() => this.restoring.delete(id));
      this.restoring.set(id, pending);
    }
    return pending;
  }

  /** Whether one more session fits, after evicting the least recently used idle one if needed. */
  private hasRoom(): boolean {
    const { registry, maxSessions } = this.options;
    return registry.size + this.initializing < maxSessions || (registry.size > 0 && registry.evictIdle());
  }

  /** A local copy of a session created on another replica (or before a restart). */
  private async restore(id: string, state: SharedSessionState): Promise<StreamableSession | HttpReply> {
    if (!this.hasRoom()) {
      return errorReply(503, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Service Unavailable: too many sessions', { 'retry-after': '5' });
    }
    this.initializing++;
    try {
      const server = await this.options.serverFactory();
      await server.restoreSession(state);
      const session = await this.connectSession(id, server, state.streamPrefix, state.owner);
      session.shared = state;
      this.options.registry.add(session);
      return session;
    } finally {
      this.initializing--;
    }
  }
}

/** The state a session store keeps of a session that just completed its handshake. */
function sharedStateOf(server: ServedSession, streamPrefix: string, owner: string | undefined): SharedSessionState {
  return {
    ...(owner === undefined ? {} : { owner }),
    protocolVersion: server.protocolVersion!,
    clientCapabilities: server.clientCapabilities ?? {},
    clientInfo: server.clientInfo ?? { name: 'unknown', version: '0' },
    initialized: server.isInitialized,
    loggingLevel: server.loggingLevel,
    streamPrefix,
  };
}

function hasInitializedNotification(value: unknown): boolean {
  return (Array.isArray(value) ? value : [value]).some((item) => isJsonObject(item) && item.method === Method.NotificationsInitialized && !('id' in item));
}

function isReply(value: HttpSession | HttpReply): value is HttpReply {
  return 'status' in value;
}
