/**
 * The one place that decides which protocol leg answers a request. Legs are chosen from the
 * method, the path and the headers alone, before any body is read, so that adding a leg (the
 * stateless transport of 2026-07-28, selected by its MCP-Protocol-Version) touches only this
 * decision and the leg itself.
 */
import { statefulRevisions } from '../../core/revisions.js';
import type { HttpRequestView } from './http-types.js';

/** The protocol legs of the HTTP server. */
export type Leg =
  /** A CORS preflight (OPTIONS). */
  | 'preflight'
  /** Streamable HTTP, revisions 2025-03-26 to 2025-11-25. */
  | 'streamable'
  /** Streamable HTTP of the stateless era (2026-07-28 on): no session, one message per POST. */
  | 'stateless'
  /** HTTP+SSE (2024-11-05): the GET that opens the stream. */
  | 'legacy-stream'
  /** HTTP+SSE (2024-11-05): a POSTed message. */
  | 'legacy-message'
  /** Nothing is served at this path. */
  | 'not-found';

/** Where each leg is mounted. */
export interface RouteTable {
  /** The MCP endpoint's path; undefined serves it on every path the legacy legs leave. */
  readonly path: string | undefined;
  /** The legacy transport's paths, when it is enabled. */
  readonly legacy: { readonly ssePath: string; readonly messagePath: string } | undefined;
}

/** Picks the leg for `request`. */
export function selectLeg(request: HttpRequestView, routes: RouteTable): Leg {
  if (request.method === 'OPTIONS') {
    return 'preflight';
  }
  const legacy = routes.legacy;
  if (legacy !== undefined) {
    // A session or resumption header marks a Streamable HTTP client, even on a shared path.
    const streamableGet = request.header('mcp-session-id') !== undefined || request.header('last-event-id') !== undefined;
    if (request.method === 'GET' && request.path === legacy.ssePath && !streamableGet) {
      return 'legacy-stream';
    }
    // The sessionId parameter tells a legacy POST apart where both transports share a path.
    const legacyPost = request.query.has('sessionId') || request.path !== routes.path;
    if (request.method === 'POST' && request.path === legacy.messagePath && legacyPost) {
      return 'legacy-message';
    }
  }
  if (routes.path === undefined || request.path === routes.path) {
    // Stateless-era clients name their version on every request and never hold a session; any
    // version that is not one of the handshake revisions is theirs to be answered (or refused).
    const version = request.header('mcp-protocol-version')?.trim();
    const stateless = version !== undefined && version !== '' && request.header('mcp-session-id') === undefined && !statefulRevisions.includes(version);
    return stateless ? 'stateless' : 'streamable';
  }
  return 'not-found';
}
