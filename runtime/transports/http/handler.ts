/**
 * The HTTP server core: {@link createMcpHttpHandler} serves MCP sessions over Streamable HTTP
 * (and, opted in, the legacy HTTP+SSE transport) through a runtime-neutral request handler.
 */
import { asError } from '../../core/errors.js';
import { Admission, guardedView } from './admission.js';
import type { ServedSession, SessionFactory } from '../../core/session.js';
import { guardOf, type HandlerAuth, type RequestGuard } from './auth-hooks.js';
import type { EventStore } from './event-store.js';
import { fetchResponseOf, viewOfFetchRequest, type FetchRequestInfo } from './fetch-adapter.js';
import { withHeaders, type BodyBudget, type HttpReply, type HttpRequestView, type ResourceCounts } from './http-types.js';
import { LegacySseLeg, type LegacySseOptions } from './legacy-sse-server.js';
import { emptyReply, errorReply, TRANSPORT_ERROR_CODES } from './replies.js';
import { selectLeg, type RouteTable } from './router.js';
import { HoldClock } from './hold-clock.js';
import { SecurityPolicy, type SecurityOptions } from './security.js';
import { SessionRegistry, type SessionDirectory, type SessionStore } from './session.js';
import { StatelessHttpLeg } from './stateless-leg.js';
import { StreamableHttpLeg } from './streamable-leg.js';

/** Default request body limit: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Default idle time before an SSE keep-alive comment: 15 s. */
export const DEFAULT_KEEP_ALIVE_MS = 15_000;
/** Default SSE `retry` value: 1 s. */
export const DEFAULT_RETRY_MS = 1_000;
/** Default limit on concurrent sessions. */
export const DEFAULT_MAX_SESSIONS = 10_000;
/** Default idle time after which a session with nothing pending and no open stream ends: 30 min. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;
/** Default limit on request-body bytes being read or handled at once, handler-wide: 32 MiB. */
export const DEFAULT_MAX_BYTES_IN_FLIGHT = 32 * 1024 * 1024;
/** Default limit on request-body bytes being read or handled at once for one session: 16 MiB. */
export const DEFAULT_MAX_BYTES_IN_FLIGHT_PER_SESSION = 16 * 1024 * 1024;
/** Default limit on POSTs in progress at once, handler-wide. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 2_000;
/** Default limit on POSTs in progress at once in one session. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS_PER_SESSION = 200;
/** Default limit on the messages of one JSON-RPC batch (2025-03-26). */
export const DEFAULT_MAX_BATCH_LENGTH = 100;

/** Options of {@link createMcpHttpHandler}. */
export interface McpHttpHandlerOptions extends SecurityOptions {
  /** Creates the Server (any {@link ServedSession}) of a new session (stateless mode: of each request). */
  readonly server: SessionFactory;
  /**
   * Session mode (default true): `initialize` mints an Mcp-Session-Id that later requests must
   * carry. False is stateless mode: a fresh Server per POST, no session id, no GET stream.
   */
  readonly sessions?: boolean | undefined;
  /** The MCP endpoint's path (default: every path not taken by the legacy transport). */
  readonly path?: string | undefined;
  /** Enables resumability: streamed messages are stored and replayed after Last-Event-ID. */
  readonly eventStore?: EventStore | undefined;
  /**
   * Shares stateful sessions between replicas behind a load balancer without sticky sessions
   * (e.g. `RedisSessionStore` from `mcpgen/redis`, together with its event store). Default: none,
   * sessions live in this process. Every request then reads the session from the store; local
   * copies are closed by `close()` and the idle sweep without ending the session.
   */
  readonly sessionStore?: SessionStore | undefined;
  /** Largest accepted request body in bytes (default 4 MiB); larger ones get 413. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Most request-body bytes being read or handled at once, across all POSTs (default 32 MiB).
   * A POST holds its bytes until its reply is complete; one that would exceed the bound gets
   * 503 with Retry-After before its body is read, and its connection is closed.
   */
  readonly maxBytesInFlight?: number | undefined;
  /**
   * Most request-body bytes being read or handled at once for one `Mcp-Session-Id` (or legacy
   * `sessionId`; default 16 MiB, at least `maxBodyBytes`), so one session cannot take the whole
   * `maxBytesInFlight`. Held and refused like it, but the refusal is 429 with Retry-After.
   */
  readonly maxBytesInFlightPerSession?: number | undefined;
  /**
   * Most POSTs in progress at once, handler-wide (default 2,000), from arrival until the reply
   * is complete (a streamed reply: until its stream ends); beyond it, 503 with Retry-After.
   */
  readonly maxConcurrentRequests?: number | undefined;
  /**
   * Most POSTs in progress at once with one `Mcp-Session-Id` (or legacy `sessionId`; default
   * 200); beyond it, 429 with Retry-After.
   */
  readonly maxConcurrentRequestsPerSession?: number | undefined;
  /**
   * Most messages in one JSON-RPC batch (2025-03-26 sessions and the legacy transport; default
   * 100). A longer batch is refused as a whole with 400 and -32600 before any member runs.
   */
  readonly maxBatchLength?: number | undefined;
  /**
   * Idle time before an SSE keep-alive comment (default 15 s; 0 disables). A POST whose
   * handler sent nothing for this long is switched to an SSE response so keep-alives can flow.
   */
  readonly keepAliveMs?: number | undefined;
  /** The SSE `retry` value sent with priming events and before closing a stream (default 1 s). */
  readonly retryMs?: number | undefined;
  /**
   * Most concurrent sessions (default 10,000). When the table is full, a new session ends the
   * least recently used one with nothing pending and no open stream; only when every session
   * is busy does `initialize` (or a legacy SSE GET) get 503.
   */
  readonly maxSessions?: number | undefined;
  /**
   * Ends sessions idle this long with nothing pending and no open stream (default 30 min; 0
   * keeps them until DELETE). Clients that abandon sessions without DELETE are common.
   */
  readonly sessionIdleTimeoutMs?: number | undefined;
  /** Whether GET opens a standalone stream for server-initiated messages (default true; false → 405). */
  readonly standaloneStream?: boolean | undefined;
  /** Serves the 2024-11-05 HTTP+SSE transport too (default off; `true` uses `/sse` and `/messages`). */
  readonly legacySse?: boolean | LegacySseOptions | undefined;
  /** Receives failures nobody else can act on (a failing event store, a crashing server factory). */
  readonly onerror?: ((error: Error) => void) | undefined;
  /**
   * Protects the endpoint with OAuth bearer tokens (see `mcpgen/auth`): serves the Protected
   * Resource Metadata, refuses requests without a valid token (401/403 with `WWW-Authenticate`),
   * and hands the verified credentials to handlers as `context.extra.authInfo`.
   */
  readonly auth?: HandlerAuth | undefined;
  /**
   * Checks every request (but CORS preflights) before it reaches the MCP endpoint: answers it
   * (a refusal, a metadata document) or lets it go on, e.g. with verified `authInfo`. The
   * generic form of `auth` (mcpgen/auth's `bearerRequestGuard` makes the same guard); when both
   * are given, `auth` checks first.
   */
  readonly guard?: RequestGuard | undefined;
}

/** Counts of what a handler holds, for introspection and leak checks. */
export interface HandlerStats {
  readonly sessions: number;
  /** Open SSE responses. */
  readonly connections: number;
  /** Armed timers of streams and requests (keep-alives, reply holds); the idle sweep is not counted. */
  readonly timers: number;
  /** Requests received by live sessions and not answered yet. */
  readonly pendingRequests: number;
}

/** An MCP HTTP endpoint, independent of the HTTP server that feeds it. */
export interface McpHttpHandler {
  /** Answers a Fetch API request. */
  fetch(request: Request, info?: FetchRequestInfo): Promise<Response>;
  /** Answers a request in the core's own representation (what platform adapters call). */
  handle(request: HttpRequestView): Promise<HttpReply>;
  /** The live sessions. */
  readonly sessions: SessionDirectory;
  /** Counts of live resources. */
  stats(): HandlerStats;
  /** Ends every session and refuses further requests with 503. */
  close(): Promise<void>;
}

/**
 * Creates an MCP HTTP endpoint.
 *
 * @example
 * ```ts
 * import { createMcpHttpHandler, McpServer } from 'mcpgen';
 * import { InMemoryEventStore } from 'mcpgen/http';
 *
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * const mcp = createMcpHttpHandler({ server: () => server.createServer(), eventStore: new InMemoryEventStore() });
 * export default { fetch: (request: Request) => mcp.fetch(request) };
 * ```
 */
export function createMcpHttpHandler(options: McpHttpHandlerOptions): McpHttpHandler {
  const counts: ResourceCounts = { connections: 0, timers: 0 };
  const report = (error: Error): void => {
    try {
      options.onerror?.(error);
    } catch {
      // A failing error hook must not break request handling.
    }
  };
  const registry = new SessionRegistry({ idleTimeoutMs: Math.max(0, options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS), report });
  const keepAliveMs = Math.max(0, options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxBatchLength = Math.max(1, options.maxBatchLength ?? DEFAULT_MAX_BATCH_LENGTH);
  const limits = { maxBodyBytes, maxBatchLength };
  const security = new SecurityPolicy(options);
  const legacyOptions = options.legacySse === true ? {} : options.legacySse === false ? undefined : options.legacySse;
  const legacyPaths = legacyOptions === undefined
    ? undefined
    : { ssePath: legacyOptions.ssePath ?? '/sse', messagePath: legacyOptions.messagePath ?? '/messages' };
  const admission = new Admission({
    maxBytesInFlight: Math.max(maxBodyBytes, options.maxBytesInFlight ?? DEFAULT_MAX_BYTES_IN_FLIGHT),
    maxBytesInFlightPerSession: Math.max(maxBodyBytes, options.maxBytesInFlightPerSession ?? DEFAULT_MAX_BYTES_IN_FLIGHT_PER_SESSION),
    maxConcurrentRequests: Math.max(1, options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS),
    maxConcurrentRequestsPerSession: Math.max(1, options.maxConcurrentRequestsPerSession ?? DEFAULT_MAX_CONCURRENT_REQUESTS_PER_SESSION),
  }, { sessionQuery: legacyPaths !== undefined });
  const routes: RouteTable = { path: options.path, legacy: legacyPaths };
  const holds = new HoldClock(keepAliveMs);
  const streamable = new StreamableHttpLeg({
    serverFactory: options.server,
    sessions: options.sessions ?? true,
    standaloneStream: options.standaloneStream ?? true,
    limits,
    maxSessions,
    registry,
    sessionStore: options.sessionStore,
    settings: { keepAliveMs, holds, retryMs: options.retryMs ?? DEFAULT_RETRY_MS, eventStore: options.eventStore, counts, report },
  });
  const stateless = new StatelessHttpLeg({
    serverFactory: options.server,
    limits,
    settings: { keepAliveMs, holds, retryMs: options.retryMs ?? DEFAULT_RETRY_MS, eventStore: undefined, counts, report },
  });
  const legacy = legacyPaths === undefined
    ? undefined
    : new LegacySseLeg({
      serverFactory: options.server,
      ssePath: legacyPaths.ssePath,
      messagePath: legacyPaths.messagePath,
      publicMessagePath: legacyOptions?.publicMessagePath ?? legacyPaths.messagePath,
      maxBodyBytes,
      maxBatchLength,
      maxSessions,
      keepAliveMs,
      counts,
      registry,
    });
  const guards = [guardOf(options.auth), options.guard].filter((guard): guard is RequestGuard => guard !== undefined);
  let closed = false;

  /** Serves `request`; a POST's body is read against `budget`, its admission ticket's. */
  const route = async (request: HttpRequestView, budget: BodyBudget | undefined): Promise<HttpReply> => {
    const refusal = security.check(request);
    if (refusal !== undefined) {
      return errorReply(refusal.status, TRANSPORT_ERROR_CODES.BAD_REQUEST, refusal.message);
    }
    if (request.method !== 'OPTIONS' && guards.length > 0) {
      // Guards (bearer tokens from mcpgen/auth, say) answer metadata and refusals here; the rest goes on with its authInfo.
      request = guardedView(request, budget);
      for (const guard of guards) {
        const outcome = await guard(request);
        if ('reply' in outcome) return outcome.reply;
        request = outcome.request;
      }
    }
    switch (selectLeg(request, routes)) {
      case 'preflight':
        return security.corsEnabled
          ? emptyReply(204, security.preflightHeaders(request))
          : emptyReply(405, { allow: 'GET, POST, DELETE' });
      case 'legacy-stream':
        return legacy!.openStream(request);
      case 'legacy-message':
        return legacy!.postMessage(request, budget);
      case 'streamable':
        return streamable.handle(request, budget);
      case 'stateless':
        return stateless.handle(request, budget);
      case 'not-found':
        return errorReply(404, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Not Found');
    }
  };

  const handle = async (request: HttpRequestView): Promise<HttpReply> => {
    if (closed) {
      return errorReply(503, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Service Unavailable: the MCP endpoint is closed');
    }
    const ticket = request.method === 'POST' ? admission.admit(request) : undefined;
    if (ticket !== undefined && 'status' in ticket) {
      return withHeaders(ticket, security.responseHeaders(request));
    }
    try {
      const reply = await route(request, ticket?.budget);
      const settled = ticket === undefined ? reply : ticket.settle(reply);
      return request.method === 'OPTIONS' ? settled : withHeaders(settled, security.responseHeaders(request));
    } catch (error) {
      ticket?.release();
      report(asError(error));
      return errorReply(500, TRANSPORT_ERROR_CODES.INTERNAL_ERROR, 'Internal error');
    }
  };

  return {
    handle,
    fetch: async (request, info) => fetchResponseOf(await handle(viewOfFetchRequest(request, info))),
    sessions: registry,
    stats: () => ({
      sessions: registry.size,
      connections: counts.connections,
      // Reply holds share one timer; each counts as the timer it would be on its own.
      timers: counts.timers + holds.size,
      pendingRequests: registry.ids().reduce((sum, id) => sum + (registry.get(id)?.pendingRequests ?? 0), stateless.pendingRequests),
    }),
    close: async () => {
      closed = true;
      await Promise.all([registry.closeAll(), stateless.close()]);
    },
  };
}
