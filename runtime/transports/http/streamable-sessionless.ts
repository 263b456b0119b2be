/**
 * Streamable HTTP without sessions (the handler's `sessions: false`, stateful revisions): every
 * POST is served by a fresh session from the factory, with no Mcp-Session-Id and no GET
 * stream.
 */
import { INITIALIZE_REQUEST } from '../../core/special-methods.js';
import { isThenable } from '../../core/thenable.js';
import { statefulRevisions } from '../../core/revisions.js';
import type { SessionFactory } from '../../core/session.js';
import { discardReply, type HttpReply, type HttpRequestView } from './http-types.js';
import { emptyReply, errorReply, TRANSPORT_ERROR_CODES, unsupportedVersion } from './replies.js';
import type { AcceptedPayload } from './request-checks.js';
import { extraFor } from './server-extra.js';
import { StreamableServerTransport } from './server-transport.js';
import { randomHex, sessionFacts } from './session.js';
import type { StreamSettings } from './sse-stream.js';

/** The revision a request without MCP-Protocol-Version header is assumed to speak (spec rule). */
export const DEFAULT_HEADERLESS_REVISION = '2025-03-26';

/** The request id of the `initialize` a sessionless POST is prefixed with; never seen by clients. */
const STATELESS_INIT_ID = 'mcpgen-stateless-initialize';

/** What a sessionless POST needs from the leg. */
export interface SessionlessOptions {
  readonly serverFactory: SessionFactory;
  readonly settings: StreamSettings;
}

/**
 * Stateless mode: a fresh Server per POST. Requests other than `initialize` reach a Server
 * that is first initialised with the revision from the MCP-Protocol-Version header; the
 * client's capabilities are unknown to it, so it cannot send the client requests.
 */
export async function postWithoutSession(request: HttpRequestView, payload: AcceptedPayload, options: SessionlessOptions): Promise<HttpReply> {
  const header = request.header('mcp-protocol-version');
  const version = header ?? DEFAULT_HEADERLESS_REVISION;
  if (!statefulRevisions.includes(version)) {
    return unsupportedVersion(version);
  }
  if (payload.requestIds.length === 0) {
    // Notifications and responses have nobody to go to without a session.
    return emptyReply(202);
  }
  const made = options.serverFactory();
  // A factory that builds its Server at once is not awaited: that would cost a turn per request.
  const server = isThenable(made) ? await made : made;
  const transport = new StreamableServerTransport({
    sessionId: undefined,
    streamPrefix: randomHex(8),
    settings: { ...options.settings, eventStore: undefined },
    revision: () => sessionFacts(server),
  });
  await server.connect(transport);
  const extra = extraFor(request, transport);
  if (!payload.initialize) {
    const params = { protocolVersion: version, capabilities: {}, clientInfo: { name: 'stateless-http-client', version: '0.0.0' } };
    discardReply(await transport.acceptRequests({ jsonrpc: '2.0', id: STATELESS_INIT_ID, method: INITIALIZE_REQUEST, params }, [STATELESS_INIT_ID], extra));
    if (server.protocolVersion === undefined) {
      await server.close();
      return errorReply(500, TRANSPORT_ERROR_CODES.INTERNAL_ERROR, 'Internal error: the server refused to initialise');
    }
    // The session now holds the module of the header's revision, which says whether batches are allowed.
    if (payload.batch && sessionFacts(server)?.batching !== true) {
      await server.close();
      return errorReply(400, TRANSPORT_ERROR_CODES.INVALID_REQUEST, `Invalid Request: revision ${version} does not allow JSON-RPC batches`);
    }
  }
  const release = (): void => {
    void server.close().catch(() => undefined);
  };
  transport.onstreamfinish = release;
  transport.onstreamdisconnect = release;
  return transport.acceptRequests(payload.value, payload.requestIds, extra, request);
}
