/**
 * Streamable HTTP in the stateless era (2026-07-28 on): every POST carries one JSON-RPC
 * message that stands alone. No session id, no GET stream, no resumption. The leg checks the
 * request metadata headers against the body (HeaderMismatch, 400), serves the message with a
 * fresh Server from the factory, and gives the reply the status the spec names for its error
 * (404 for an unknown method, 400 for version, capability and header errors). Closing the
 * response stream cancels the request: the Server is closed and its handler aborted.
 */
import { isJsonObject, type JSONRPCRequest } from '../../core/jsonrpc.js';
import { isThenable } from '../../core/thenable.js';
import type { ServedSession, SessionFactory } from '../../core/session.js';
import { CLIENT_CAPABILITIES_META, PROTOCOL_VERSION_META, requestMeta } from '../../era/meta.js';
import { INITIALIZE_REQUEST } from '../../core/special-methods.js';
import { pinnedFacts, statelessRevisions } from '../../core/revisions.js';
import type { BodyBudget, HttpReply, HttpRequestView } from './http-types.js';
import { emptyReply, errorReply, TRANSPORT_ERROR_CODES } from './replies.js';
import { readPostedMessages, type PostLimits } from './request-checks.js';
import { decodeHeaderValue, nameTarget, parameterHeaderMismatch } from '../../era/mcp-headers.js';
import { StreamableServerTransport, type HttpMessageExtra } from './server-transport.js';
import { sessionFacts } from './session.js';
import type { StreamSettings } from './sse-stream.js';
import { Method } from '../../../generated/methods.js';

/** What the leg needs from the handler. */
export interface StatelessLegOptions {
  readonly serverFactory: SessionFactory;
  /** Body size and batch length limits of a POST. */
  readonly limits: PostLimits;
  readonly settings: StreamSettings;
}

/** Error codes of the stateless era, from the newest stateless revision's generated table. */
function eraCodes(): Readonly<Record<string, number>> {
  const newest = statelessRevisions[statelessRevisions.length - 1];
  return newest === undefined ? {} : pinnedFacts(newest).errorCodes;
}

/** The HTTP status a JSON-RPC error gets on this leg. */
function statusOf(code: number, codes: Readonly<Record<string, number>>): number {
  if (code === codes.METHOD_NOT_FOUND) return 404;
  if (code === codes.HEADER_MISMATCH || code === codes.UNSUPPORTED_PROTOCOL_VERSION || code === codes.MISSING_REQUIRED_CLIENT_CAPABILITY) return 400;
  return 200;
}

/** Handles every stateless-era request routed to the MCP endpoint. */
export class StatelessHttpLeg {
  private readonly options: StatelessLegOptions;
  private readonly codes = eraCodes();
  /** The stream settings of every request: nothing is stored, since nothing can resume. */
  private readonly settings: StreamSettings;
  /** Requests served so far, numbering their stream prefixes. */
  private served = 0;
  /** Servers answering a request right now (a `subscriptions/listen` one lives as long as its stream). */
  private readonly active = new Set<ServedSession>();

  constructor(options: StatelessLegOptions) {
    this.options = options;
    this.settings = { ...options.settings, eventStore: undefined };
  }

  /** Number of requests being served. */
  get pendingRequests(): number {
    return this.active.size;
  }

  /** Answers one request; a POST's body is read against `budget` (its admission's). */
  handle(request: HttpRequestView, budget?: BodyBudget): Promise<HttpReply> | HttpReply {
    if (request.method !== 'POST') {
      return errorReply(405, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Method Not Allowed: this protocol version uses POST only', { allow: 'POST' });
    }
    return this.post(request, budget);
  }

  /** Ends every request in progress (open listen streams get their closing result). */
  async close(): Promise<void> {
    await Promise.all([...this.active].map((server) => server.close().catch(() => undefined)));
  }

  private async post(request: HttpRequestView, budget: BodyBudget | undefined): Promise<HttpReply> {
    const payload = await readPostedMessages(request, this.options.limits, budget);
    if (payload.kind !== 'messages') return payload;
    if (payload.batch) {
      return errorReply(400, TRANSPORT_ERROR_CODES.INVALID_REQUEST, 'Invalid Request: the body must be a single JSON-RPC message in this protocol version');
    }
    if (payload.requestIds.length === 0) {
      // Notifications (cancellation is the end of the response stream here) have no receiver.
      return emptyReply(202);
    }
    const message = payload.value as JSONRPCRequest;
    const refusal = this.checkEnvelope(request, message);
    if (refusal !== undefined) return refusal;
    const made = this.options.serverFactory();
    // A factory that builds its Server at once is not awaited: that would cost a turn per request.
    const server = isThenable(made) ? await made : made;
    const params = isJsonObject(message.params) ? message.params : {};
    const misnamed = server.protocol.handles(message.method) ? this.nameMismatch(request, params, server.protocol.requiresNameHeader?.(message.method) ?? true) : undefined;
    if (misnamed !== undefined) {
      void server.close().catch(() => undefined);
      return this.mismatch(message, misnamed);
    }
    const parameters = message.method === Method.ToolsCall && typeof params.name === 'string' ? server.toolHeaderParameters?.(params.name) : undefined;
    if (parameters !== undefined && params.arguments !== undefined) {
      const mismatch = parameterHeaderMismatch(parameters, params.arguments, (name) => request.header(name));
      if (mismatch !== undefined) {
        void server.close().catch(() => undefined);
        return this.mismatch(message, mismatch);
      }
    }
    return this.serve(request, server, message);
  }

  /** The refusal of a request whose envelope or headers are wrong, in the order the spec checks them. */
  private checkEnvelope(request: HttpRequestView, message: JSONRPCRequest): HttpReply | undefined {
    const id = message.id;
    const version = request.header('mcp-protocol-version')?.trim();
    if (version === undefined || version === '') {
      return this.mismatch(message, 'the MCP-Protocol-Version header is required');
    }
    const meta = requestMeta(message.params);
    const missing = [PROTOCOL_VERSION_META, CLIENT_CAPABILITIES_META].filter((key) => meta?.[key] === undefined);
    if (missing.length > 0) {
      return errorReply(400, this.codes.INVALID_PARAMS!, `Invalid params: params._meta lacks ${missing.join(' and ')}`, {}, id);
    }
    if (meta![PROTOCOL_VERSION_META] !== version) {
      return this.mismatch(message, `the MCP-Protocol-Version header ${JSON.stringify(version)} does not match params._meta["${PROTOCOL_VERSION_META}"]`);
    }
    if (message.method === INITIALIZE_REQUEST) {
      // The handshake does not exist in this era, whatever the server would do on another leg.
      return errorReply(404, this.codes.METHOD_NOT_FOUND!, `Method not found: ${INITIALIZE_REQUEST} (protocol ${version} has no handshake)`, {}, id);
    }
    const method = request.header('mcp-method');
    if (method === undefined) return this.mismatch(message, 'the Mcp-Method header is required');
    if (method.trim() !== message.method) {
      return this.mismatch(message, `the Mcp-Method header ${JSON.stringify(method.trim())} does not match the method ${JSON.stringify(message.method)}`);
    }
    return undefined;
  }

  /**
   * Why `Mcp-Name` disagrees with the name, URI or task id the body names, if it does. Checked
   * only for methods the server serves, so that an unknown method still gets its 404; a
   * missing header is a mismatch only for methods that require it (`required`).
   */
  private nameMismatch(request: HttpRequestView, params: Record<string, unknown>, required: boolean): string | undefined {
    const target = nameTarget(params);
    if (target === undefined) return undefined;
    const raw = request.header('mcp-name');
    if (raw === undefined) return required ? 'the Mcp-Name header is required for this method' : undefined;
    const name = decodeHeaderValue(raw);
    if (name === target) return undefined;
    return name === undefined ? 'the Mcp-Name header is not a valid header value' : `the Mcp-Name header ${JSON.stringify(name)} does not match the body value ${JSON.stringify(target)}`;
  }

  private mismatch(message: JSONRPCRequest, reason: string): HttpReply {
    return errorReply(400, this.codes.HEADER_MISMATCH!, `Header mismatch: ${reason}`, {}, message.id);
  }

  private async serve(request: HttpRequestView, server: ServedSession, message: JSONRPCRequest): Promise<HttpReply> {
    const transport = new StreamableServerTransport({
      sessionId: undefined,
      // Stream ids only tell resumption which streams are whose; without a session nothing resumes, so a counter is enough.
      streamPrefix: `r${this.served++}`,
      settings: this.settings,
      revision: () => sessionFacts(server),
    });
    this.active.add(server);
    const release = (): void => {
      if (!this.active.delete(server)) return;
      void server.close().catch(() => undefined);
    };
    transport.onstreamfinish = release;
    transport.onstreamdisconnect = release;
    try {
      await server.connect(transport);
    } catch (error) {
      release();
      throw error;
    }
    const extra: HttpMessageExtra = { requestHeaders: (name) => request.header(name), ...(request.authInfo !== undefined ? { authInfo: request.authInfo } : {}) };
    const reply = await transport.acceptRequests(message, [message.id], extra, request);
    if (reply.kind === 'body') {
      release();
      return this.withErrorStatus(reply);
    }
    return reply;
  }

  /** A JSON reply carrying one of the era's transport-relevant errors gets its HTTP status. */
  private withErrorStatus(reply: HttpReply & { kind: 'body' }): HttpReply {
    if (reply.status !== 200 || reply.body === undefined || !reply.body.includes('"error"')) return reply;
    try {
      const parsed = JSON.parse(reply.body) as { error?: { code?: unknown } };
      const code = parsed.error?.code;
      const status = typeof code === 'number' ? statusOf(code, this.codes) : 200;
      return status === 200 ? reply : { ...reply, status };
    } catch {
      return reply;
    }
  }
}
