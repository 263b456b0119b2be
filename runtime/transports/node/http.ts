/**
 * The Node adapter of the HTTP server core: `node:http` requests go to the core as
 * HttpRequestViews and replies are written straight to the ServerResponse, with no Web-stream
 * round trip.
 */
import { createServer, type IncomingMessage, type Server as NodeHttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHttpHandler, type McpHttpHandler, type McpHttpHandlerOptions } from '../http/handler.js';
import { decodeUtf8 } from '../http/fetch-adapter.js';
import { MAX_BUFFERED_SSE_BYTES, type BodyBudget, type BodyText, type HttpReply, type HttpRequestView, type StreamSink } from '../http/http-types.js';
import { errorReply, TRANSPORT_ERROR_CODES } from '../http/replies.js';

/** A `node:http` request listener serving an MCP endpoint. */
export type NodeMcpListener = ((request: IncomingMessage, response: ServerResponse) => void) & {
  /** The core handler behind the listener (sessions, stats, close). */
  readonly mcp: McpHttpHandler;
};

/**
 * Adapts a core handler to `node:http` (and frameworks that pass Node's request and response,
 * such as Express or Fastify's raw mode). A body a framework already parsed (`request.body`)
 * is used instead of reading the stream.
 */
export function toNodeHandler(handler: McpHttpHandler): NodeMcpListener {
  return Object.assign(toNodeListener(handler), { mcp: handler });
}

/** Anything that answers the HTTP core's request views: an MCP handler, an authorization server. */
export interface HttpCoreHandler {
  handle(request: HttpRequestView): Promise<HttpReply>;
}

/**
 * Adapts any core handler to a `node:http` request listener, e.g. the authorization server of
 * `mcpgen/auth-server` served on its own.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createAuthorizationServer, LocalAuthorizationProvider } from 'mcpgen/auth-server';
 * import { toNodeListener } from 'mcpgen/node';
 *
 * const authorizationServer = createAuthorizationServer({
 *   issuer: 'http://127.0.0.1:9000',
 *   resources: ['http://127.0.0.1:3000/mcp'],
 *   provider: new LocalAuthorizationProvider({ decide: () => ({ approve: { subject: 'demo-user' } }) }),
 * });
 * createServer(toNodeListener(authorizationServer)).listen(9000, '127.0.0.1');
 * ```
 */
export function toNodeListener(handler: HttpCoreHandler): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const view = new NodeRequestView(request, response);
    handler.handle(view).then(
      (reply) => writeReply(response, reply, view.closeAfterReply || (reply.kind === 'body' && reply.closeConnection === true)),
      () => writeReply(response, errorReply(500, TRANSPORT_ERROR_CODES.INTERNAL_ERROR, 'Internal error'), false),
    );
  };
}

/** Default time a client has to send a request's headers: 10 s. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Default time a client has to send a whole request, headers and body: 30 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Default time an idle keep-alive connection stays open between requests: 5 s. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** Options of {@link createMcpNodeServer}. */
export interface McpNodeServerOptions extends McpHttpHandlerOptions {
  /** The address `listen()` binds by default (default `127.0.0.1`, loopback only). */
  readonly host?: string | undefined;
  /**
   * Time a client has to send a request's headers (default 10 s, at most `requestTimeoutMs`);
   * a connection still sending them then gets 408 and is closed.
   */
  readonly headersTimeoutMs?: number | undefined;
  /**
   * Time a client has to send a whole request, body included (default 30 s); a slower upload
   * gets 408 and is closed. Responses, SSE streams included, are not bounded by it.
   */
  readonly requestTimeoutMs?: number | undefined;
  /** Time an idle keep-alive connection stays open waiting for the next request (default 5 s). */
  readonly keepAliveTimeoutMs?: number | undefined;
}

/** A `node:http` server wired to an MCP endpoint. */
export interface McpNodeServer {
  readonly httpServer: NodeHttpServer;
  readonly mcp: McpHttpHandler;
  /** Starts listening (port 0 picks a free one); resolves with the endpoint URL. */
  listen(port?: number, host?: string): Promise<URL>;
  /** Ends every session, then stops the HTTP server and drops its connections. */
  close(): Promise<void>;
}

/**
 * Creates a `node:http` server serving one MCP endpoint. It binds to loopback by default, where
 * DNS-rebinding protection is on unless configured otherwise.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { createMcpNodeServer } from 'mcpgen/node';
 *
 * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
 * const node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
 * const url = await node.listen(3000); // http://127.0.0.1:3000/mcp
 * ```
 */
export function createMcpNodeServer(options: McpNodeServerOptions): McpNodeServer {
  const mcp = createMcpHttpHandler(options);
  const requestTimeout = Math.max(1, options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  const headersTimeout = Math.min(requestTimeout, Math.max(1, options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS));
  const httpServer = createServer({
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: Math.max(1, options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS),
    // Node checks the two timeouts on this period (30 s by default), which would let a slow
    // client stay connected for up to that long beyond them.
    connectionsCheckingInterval: Math.min(1_000, Math.max(10, Math.floor(headersTimeout / 4))),
  }, toNodeHandler(mcp));
  return {
    httpServer,
    mcp,
    listen: (port = 0, host = options.host ?? '127.0.0.1') =>
      new Promise<URL>((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          httpServer.off('error', reject);
          const address = httpServer.address() as AddressInfo;
          const name = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve(new URL(options.path ?? '/', `http://${name}:${address.port}`));
        });
      }),
    close: async () => {
      await mcp.close();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}

/** An IncomingMessage as the core sees it. */
class NodeRequestView implements HttpRequestView {
  readonly method: string;
  readonly path: string;
  readonly localAddress: string | undefined;
  /** Set when the body was refused unread: the connection must not be reused. */
  closeAfterReply = false;

  private readonly request: IncomingMessage;
  private readonly response: ServerResponse;
  /** The query string after `?`, parsed on first use; undefined once parsed or when the target has none. */
  private search: string | undefined;
  private parsedQuery: URLSearchParams | undefined;
  private controller: AbortController | undefined;

  constructor(request: IncomingMessage, response: ServerResponse) {
    this.request = request;
    this.response = response;
    const method = request.method ?? 'GET';
    this.method = method === 'POST' || method === 'GET' || method === 'DELETE' || method === 'OPTIONS' ? method : method.toUpperCase();
    const target = request.url ?? '/';
    if (PLAIN_TARGET.test(target)) {
      // A target with nothing URL parsing would normalise (dot segments, escapes, backslashes).
      const mark = target.indexOf('?');
      this.path = mark < 0 ? target : target.slice(0, mark);
      this.search = mark < 0 ? undefined : target.slice(mark + 1);
    } else {
      const url = parseTarget(target);
      this.path = url.pathname;
      this.parsedQuery = url.searchParams;
    }
    this.localAddress = request.socket.localAddress;
  }

  get query(): URLSearchParams {
    this.parsedQuery ??= new URLSearchParams(this.search ?? '');
    return this.parsedQuery;
  }

  /** Built on first use: most requests never ask, and the response's close event serves `whenGone`. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = new AbortController();
      this.controller = controller;
      this.whenGone(() => controller.abort());
    }
    return this.controller.signal;
  }

  whenGone(listener: () => void): void {
    const response = this.response;
    // 'close' before the response finished means the client went away.
    if (response.closed) {
      if (!response.writableFinished) listener();
      return;
    }
    response.once('close', () => {
      if (!response.writableFinished) listener();
    });
  }

  header(name: string): string | undefined {
    const value = this.request.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** Refuses a body without reading (the rest of) it, so the connection must not be reused. */
  private refuseUnread(reason: 'too-large' | 'busy'): Promise<BodyText> {
    this.closeAfterReply = true;
    return Promise.resolve({ ok: false, reason });
  }

  readBody(maxBytes: number, budget?: BodyBudget): Promise<BodyText> {
    const parsed = (this.request as { body?: unknown }).body;
    if (parsed !== undefined) {
      return Promise.resolve(fromParsedBody(parsed, maxBytes));
    }
    const declared = Number(this.request.headers['content-length'] ?? Number.NaN);
    if (Number.isFinite(declared) && declared > maxBytes) return this.refuseUnread('too-large');
    const reserved = Number.isFinite(declared);
    if (reserved && budget !== undefined && !budget.take(declared)) return this.refuseUnread('busy');
    const request = this.request;
    if (request.complete && request.readableFlowing !== true) {
      // The parser has pushed the whole body already (a small POST arrives with its headers,
      // and the core asks after a turn): taken at once, without four listeners and a promise.
      const total = request.readableLength;
      if (total > maxBytes) return this.refuseUnread('too-large');
      if (!reserved && budget !== undefined && !budget.take(total)) return this.refuseUnread('busy');
      const buffered = request.read() as Buffer | null;
      return Promise.resolve(decodeUtf8(buffered === null ? [] : [buffered], buffered === null ? 0 : buffered.byteLength));
    }
    return new Promise<BodyText>((resolve) => {
      const chunks: Uint8Array[] = [];
      let total = 0;
      const done = (result: BodyText): void => {
        this.request.off('data', onData);
        this.request.off('end', onEnd);
        this.request.off('error', onError);
        this.request.off('close', onError);
        resolve(result);
      };
      const onData = (chunk: Buffer): void => {
        total += chunk.byteLength;
        if (total > maxBytes) {
          this.closeAfterReply = true;
          this.request.pause();
          done({ ok: false, reason: 'too-large' });
          return;
        }
        if (!reserved && budget !== undefined && !budget.take(chunk.byteLength)) {
          this.closeAfterReply = true;
          this.request.pause();
          done({ ok: false, reason: 'busy' });
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = (): void => done(decodeUtf8(chunks, total));
      const onError = (): void => done({ ok: false, reason: 'unreadable' });
      this.request.on('data', onData);
      this.request.on('end', onEnd);
      this.request.on('error', onError);
      this.request.on('close', onError);
    });
  }
}

/** A request target whose path and query need no URL parsing: no dot segments, escapes, backslashes or a leading `//`. */
const PLAIN_TARGET = /^\/(?!\/)(?:[A-Za-z0-9_~!$&'()*+,;=:@/-]|\.(?![./?]|$))*(?:\?[A-Za-z0-9_~!$&'()*+,;=:@/?.-]*)?$/;

function parseTarget(target: string): URL {
  try {
    return new URL(target, 'http://localhost');
  } catch {
    return new URL('http://localhost/');
  }
}

function fromParsedBody(parsed: unknown, maxBytes: number): BodyText {
  const text = typeof parsed === 'string' ? parsed : Buffer.isBuffer(parsed) ? parsed.toString('utf8') : JSON.stringify(parsed);
  if (text === undefined) {
    return { ok: true, text: '' };
  }
  return Buffer.byteLength(text) > maxBytes ? { ok: false, reason: 'too-large' } : { ok: true, text };
}

/** Writes a core reply to a ServerResponse; a streamed reply is always opened, so it is always released. */
function writeReply(response: ServerResponse, reply: HttpReply, closeConnection: boolean): void {
  let gone = response.destroyed || response.writableEnded || response.headersSent;
  try {
    if (!gone) {
      if (reply.kind === 'body') {
        // One write: status line, headers and body together, with Content-Length instead of chunking.
        const body = reply.body;
        // Assigned, not spread: V8 builds a literal with members after a spread on a slow path.
        const headers: Record<string, string> = Object.assign({}, reply.headers);
        headers['content-length'] = body === undefined ? '0' : String(Buffer.byteLength(body));
        if (closeConnection) headers.connection = 'close';
        if (NO_BODY_STATUS.has(reply.status)) delete headers['content-length'];
        response.writeHead(reply.status, headers);
        response.end(body);
      } else {
        response.writeHead(reply.status, closeConnection ? Object.assign({}, reply.headers, { connection: 'close' }) : reply.headers);
        response.flushHeaders();
      }
    }
  } catch {
    // Headers Node refuses to write: nothing sensible can be sent on this response anymore.
    gone = true;
    response.destroy();
  }
  if (reply.kind === 'stream') {
    reply.open(nodeSink(response, gone));
  }
}

/** Statuses that carry no body, where Node refuses a Content-Length. */
const NO_BODY_STATUS = new Set([204, 304]);

/** A sink over a ServerResponse; reports a close that happened before it was attached, too. */
function nodeSink(response: ServerResponse, alreadyGone: boolean): StreamSink {
  let closed = alreadyGone;
  let listener: (() => void) | undefined;
  const finish = (): void => {
    closed = true;
    const notify = listener;
    listener = undefined;
    notify?.();
  };
  response.once('close', finish);
  response.on('error', () => undefined);
  return {
    write(chunk) {
      if (closed || response.writableEnded) return;
      response.write(chunk);
      if (response.writableLength > MAX_BUFFERED_SSE_BYTES) {
        // The client stopped reading; cutting the response releases what it would pile up.
        response.destroy();
      }
    },
    end() {
      if (!response.writableEnded) response.end();
    },
    onclose(callback) {
      listener = callback;
      if (closed) queueMicrotask(finish);
    },
  };
}
