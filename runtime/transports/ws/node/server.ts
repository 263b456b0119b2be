/**
 * The server side of MCP over WebSocket on Node, with the `ws` package: upgrades on a
 * `node:http` server (beside a Streamable HTTP endpoint, say) or on a server of its own. Each
 * connection is served by a session of its own, so a stateful client negotiates per connection
 * and a 2026-07-28 client sends stateless requests over the socket; the session is the same.
 */
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { asError, messageOf } from '../../../core/errors.js';
import type { SessionFactory } from '../../../core/session.js';
import { guardOf, type HandlerAuth, type RequestGuard } from '../../http/auth-hooks.js';
import type { BodyReply, BodyText, HttpRequestView } from '../../http/http-types.js';
import { errorReply, TRANSPORT_ERROR_CODES } from '../../http/replies.js';
import { SecurityPolicy, type SecurityOptions } from '../../http/security.js';
import { MCP_SUBPROTOCOL } from '../client-options.js';
import { WebSocketConnectionTransport } from './connection.js';

/** Default cap on one inbound message: 4 MiB, as the HTTP handler's bodies. */
export const DEFAULT_WS_MAX_PAYLOAD_BYTES = 4 * 1024 * 1024;
/** Default cap on open connections: 1000. */
export const DEFAULT_WS_MAX_CONNECTIONS = 1_000;
/** Default cap on the bytes a connection may leave unread before it is ended: 16 MiB. */
export const DEFAULT_WS_SERVER_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Default interval of the pings that find clients gone without a word: 30 s. */
export const DEFAULT_WS_PING_INTERVAL_MS = 30_000;

/** Options of {@link createMcpWebSocketServer}. */
export interface McpWebSocketServerOptions extends Omit<SecurityOptions, 'cors'> {
  /** Creates the session (a Server) of each connection. */
  readonly server: SessionFactory;
  /** The path upgrades are accepted on (default: every path); others get 404. */
  readonly path?: string | undefined;
  /**
   * Largest inbound message in bytes (default {@link DEFAULT_WS_MAX_PAYLOAD_BYTES}). ws refuses a
   * larger frame from its header, before buffering it, and closes the connection with 1009.
   */
  readonly maxPayloadBytes?: number | undefined;
  /** Open connections at most (default {@link DEFAULT_WS_MAX_CONNECTIONS}); further upgrades get 503. */
  readonly maxConnections?: number | undefined;
  /** Unread bytes a connection may hold before it is ended (default {@link DEFAULT_WS_SERVER_MAX_BUFFERED_BYTES}). */
  readonly maxBufferedBytes?: number | undefined;
  /**
   * Every this many milliseconds each socket is pinged, and one that did not answer the last
   * ping is ended, so that a client that vanished (no close frame, no FIN) does not keep its
   * session (default {@link DEFAULT_WS_PING_INTERVAL_MS}; 0 turns pings off).
   */
  readonly pingIntervalMs?: number | undefined;
  /** Checks each upgrade request as `createMcpHttpHandler`'s guard does; its `authInfo` reaches every message of the connection. */
  readonly guard?: RequestGuard | undefined;
  /** The `auth` shorthand of `createMcpHttpHandler` (bearer tokens with mcpgen/auth). */
  readonly auth?: HandlerAuth | undefined;
  /** Reports failures that concern no message (a session factory that threw, a socket error). */
  readonly onerror?: ((error: Error) => void) | undefined;
}

/** A running WebSocket endpoint. */
export interface McpWebSocketServer {
  /** Handles one `upgrade` event of a `node:http` server. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Serves the upgrades of `server`; returns the function that stops it. */
  attach(server: HttpServer): () => void;
  /** Listens on a `node:http` server of its own (answering 426 to plain requests); resolves with its address. */
  listen(port?: number, host?: string): Promise<AddressInfo>;
  /** The connections open now. */
  readonly connectionCount: number;
  /** Closes every connection (normal closure, sessions ended) and the own server, if listening. */
  close(): Promise<void>;
}

/**
 * Creates a WebSocket endpoint (subprotocol `mcp`). Upgrades pass the HTTP server's Host and
 * Origin checks (loopback names by default), the `mcp` subprotocol check (400 without it), the
 * connection cap (503) and the guard, in that order.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { createMcpWebSocketServer } from 'mcpgen/ws/node';
 *
 * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
 * mcp.registerTool('ping', {}, () => ({ content: [{ type: 'text', text: 'pong' }] }));
 * const endpoint = createMcpWebSocketServer({ server: () => mcp.createServer(), path: '/mcp' });
 * const { port } = await endpoint.listen(0, '127.0.0.1');
 * console.log(`ws://127.0.0.1:${port}/mcp`);
 * ```
 */
export function createMcpWebSocketServer(options: McpWebSocketServerOptions): McpWebSocketServer {
  const security = new SecurityPolicy(options);
  const guard = options.guard ?? guardOf(options.auth);
  const maxConnections = Math.max(1, options.maxConnections ?? DEFAULT_WS_MAX_CONNECTIONS);
  const maxBuffered = options.maxBufferedBytes ?? DEFAULT_WS_SERVER_MAX_BUFFERED_BYTES;
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayloadBytes ?? DEFAULT_WS_MAX_PAYLOAD_BYTES,
    handleProtocols: (offered) => (offered.has(MCP_SUBPROTOCOL) ? MCP_SUBPROTOCOL : false),
  });
  const sessions = new Set<{ close(): Promise<void> }>();
  /** Upgrades admitted and not closed yet (the guard may still be running), for the cap. */
  let admitted = 0;
  let own: HttpServer | undefined;
  let closed = false;
  /** Sockets that answered the last ping (or are new since). */
  const alive = new WeakSet<WebSocket>();
  const pingInterval = options.pingIntervalMs ?? DEFAULT_WS_PING_INTERVAL_MS;
  let pinger: ReturnType<typeof setInterval> | undefined;
  const ping = () => {
    for (const ws of sockets.clients) {
      if (!alive.has(ws)) {
        ws.terminate();
        continue;
      }
      alive.delete(ws);
      ws.ping();
    }
  };
  const report = (error: unknown) => options.onerror?.(asError(error));

  async function admit(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const view = new UpgradeView(request);
    if (closed) return refuse(socket, errorReply(503, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Service Unavailable: the endpoint is closing'));
    if (options.path !== undefined && view.path !== options.path) return refuse(socket, errorReply(404, TRANSPORT_ERROR_CODES.BAD_REQUEST, `Not Found: no MCP endpoint at ${view.path}`));
    const refusal = security.check(view);
    if (refusal !== undefined) return refuse(socket, errorReply(refusal.status, TRANSPORT_ERROR_CODES.BAD_REQUEST, refusal.message));
    const protocols = (view.header('sec-websocket-protocol') ?? '').split(',').map((name) => name.trim());
    if (!protocols.includes(MCP_SUBPROTOCOL)) return refuse(socket, errorReply(400, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'Bad Request: the WebSocket subprotocol "mcp" is required (Sec-WebSocket-Protocol: mcp)'));
    if (admitted >= maxConnections) return refuse(socket, errorReply(503, TRANSPORT_ERROR_CODES.BAD_REQUEST, `Service Unavailable: ${maxConnections} connections are open`));
    admitted++;
    let counted = true;
    const release = () => {
      if (counted) admitted--;
      counted = false;
    };
    socket.once('close', release);
    let authInfo: unknown;
    if (guard !== undefined) {
      const outcome = await guard(view);
      if ('reply' in outcome) {
        release();
        return refuse(socket, outcome.reply.kind === 'body' ? outcome.reply : errorReply(500, TRANSPORT_ERROR_CODES.BAD_REQUEST, 'the guard answered with a stream'));
      }
      authInfo = outcome.request.authInfo;
    }
    if (socket.destroyed) return;
    sockets.handleUpgrade(request, socket, head, (ws) => {
      // Frames that arrive before the session is connected wait in the socket (see connection.ts).
      ws.pause();
      void serve(ws, authInfo).catch((error: unknown) => {
        report(error);
        ws.close(1011, 'the session could not be started');
      });
    });
  }

  async function serve(ws: WebSocket, authInfo: unknown): Promise<void> {
    ws.on('error', report);
    alive.add(ws);
    ws.on('pong', () => alive.add(ws));
    if (pingInterval > 0 && pinger === undefined && !closed) {
      pinger = setInterval(ping, pingInterval);
      // The pings alone never keep the process running.
      pinger.unref?.();
    }
    const transport = new WebSocketConnectionTransport(ws, randomUUID(), authInfo, maxBuffered);
    const session = await options.server();
    // The client may have gone while the factory ran: its close event has passed already.
    if (ws.readyState !== ws.OPEN) {
      await session.close();
      return;
    }
    sessions.add(session);
    ws.once('close', () => sessions.delete(session));
    await session.connect(transport);
  }

  const handleUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', report);
    admit(request, socket, head).catch((error: unknown) => {
      report(error);
      refuse(socket, errorReply(500, TRANSPORT_ERROR_CODES.BAD_REQUEST, `Internal Server Error: ${messageOf(error)}`));
    });
  };

  return {
    handleUpgrade,
    attach(server) {
      server.on('upgrade', handleUpgrade);
      return () => server.off('upgrade', handleUpgrade);
    },
    async listen(port = 0, host = '127.0.0.1') {
      own = createServer((_request, response) => {
        response.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket', connection: 'Upgrade' }).end('This endpoint speaks MCP over WebSocket (subprotocol mcp)\n');
      });
      own.on('upgrade', handleUpgrade);
      const server = own;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      return server.address() as AddressInfo;
    },
    get connectionCount() {
      return sockets.clients.size;
    },
    async close() {
      closed = true;
      if (pinger !== undefined) clearInterval(pinger);
      await Promise.all([...sessions].map((session) => session.close().catch(report)));
      for (const ws of sockets.clients) ws.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      const server = own;
      if (server !== undefined) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

/** Writes an HTTP refusal on the raw socket of an upgrade request, then ends it. */
function refuse(socket: Duplex, reply: BodyReply): void {
  if (socket.destroyed) return;
  const body = reply.body ?? '';
  const headers = { ...reply.headers, connection: 'close', 'content-length': String(Buffer.byteLength(body)) };
  const head = [`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/** An upgrade request as the security policy and the guard see it; it has no body. */
class UpgradeView implements HttpRequestView {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly localAddress: string | undefined;
  private readonly request: IncomingMessage;

  constructor(request: IncomingMessage) {
    this.request = request;
    this.method = (request.method ?? 'GET').toUpperCase();
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://localhost');
    } catch {
      url = new URL('http://localhost/');
    }
    this.path = url.pathname;
    this.query = url.searchParams;
    this.localAddress = request.socket.localAddress;
  }

  header(name: string): string | undefined {
    const value = this.request.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  readBody(): Promise<BodyText> {
    return Promise.resolve({ ok: true, text: '' });
  }
}
