// A scriptable HTTP server on 127.0.0.1 for the client transport tests: each test decides
// what every request gets, and every request is recorded for assertions.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake server received. */
export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or undefined when empty or not JSON. */
  readonly body: unknown;
  /** When it arrived (Date.now()). */
  readonly at: number;
}

/** Decides what one request gets. */
export type Route = (request: FakeRequest, res: ServerResponse) => void | Promise<void>;

/** A fake HTTP server; replace `route` at any time. */
export class FakeHttpServer {
  readonly requests: FakeRequest[] = [];
  route: Route;
  private readonly server: Server;
  private readonly port: number;

  private constructor(server: Server, route: Route) {
    this.server = server;
    this.route = route;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Listens on an ephemeral port of 127.0.0.1. */
  static async start(route: Route): Promise<FakeHttpServer> {
    let fake: FakeHttpServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          body = undefined;
        }
        const request: FakeRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, at: Date.now() };
        fake!.requests.push(request);
        Promise.resolve(fake!.route(request, res)).catch((error: unknown) => {
          res.destroy(error as Error);
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new FakeHttpServer(server, route);
    return fake;
  }

  /** The URL of `path` on this server. */
  url(path = '/mcp'): URL {
    return new URL(`http://127.0.0.1:${this.port}${path}`);
  }

  /** Requests with the given method (and JSON-RPC method, when given). */
  find(method: string, rpcMethod?: string): FakeRequest[] {
    return this.requests.filter((request) => request.method === method && (rpcMethod === undefined || rpcMethodOf(request.body) === rpcMethod));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The JSON-RPC method of a body, if it is a request or notification. */
export function rpcMethodOf(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null && 'method' in body ? String((body as { method: unknown }).method) : undefined;
}

/** The JSON-RPC id of a body. */
export function rpcIdOf(body: unknown): string | number {
  return (body as { id: string | number }).id;
}

/** Answers with a JSON body. */
export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

/** Answers with an empty body. */
export function sendStatus(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, headers);
  res.end();
}

/** Writes SSE frames to a response. */
export interface SseWriter {
  /** Writes raw text (for malformed or truncated frames). */
  raw(text: string): void;
  /** Writes one message event, with an id when given. */
  message(value: unknown, id?: string): void;
  /** Ends the response normally. */
  end(): void;
  /** Cuts the connection. */
  destroy(): void;
}

/** Starts an event stream response. */
export function openSse(res: ServerResponse, headers: Record<string, string> = {}): SseWriter {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
  res.flushHeaders();
  return {
    raw: (text) => void res.write(text),
    message: (value, id) => void res.write(`${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(value)}\n\n`),
    end: () => res.end(),
    destroy: () => res.destroy(),
  };
}

/** A JSON-RPC result response. */
export function result(id: string | number, value: unknown): unknown {
  return { jsonrpc: '2.0', id, result: value };
}

/** The result of `initialize` for the given request body. */
export function initializeResult(body: unknown, name = 'fake'): unknown {
  const params = (body as { params: { protocolVersion: string } }).params;
  return result(rpcIdOf(body), { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name, version: '1.0.0' } });
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Bytes of filler {@link flood} writes per chunk. */
const FLOOD_CHUNK_BYTES = 64 * 1024;

/**
 * Writes `prefix`, then `filler` (repeated up to 64 KiB a chunk) until `max` bytes are written
 * or the client goes away, then `suffix`, honouring backpressure. Resolves with the bytes
 * written once the response is closed, so a test can tell how much the client let through.
 */
export function flood(res: ServerResponse, prefix: string, suffix: string, max: number, filler = 'a'): Promise<number> {
  const chunk = Buffer.from(filler.repeat(Math.max(1, Math.floor(FLOOD_CHUNK_BYTES / filler.length))));
  let written = 0;
  let gone = false;
  return new Promise((resolve) => {
    res.on('close', () => {
      gone = true;
      resolve(written);
    });
    const write = (data: string | Buffer): boolean => {
      written += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
      return res.write(data);
    };
    const pump = (): void => {
      while (!gone && written < max) {
        if (!write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!gone) {
        write(suffix);
        res.end();
      }
    };
    write(prefix);
    pump();
  });
}
