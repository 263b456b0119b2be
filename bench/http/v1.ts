// Official SDK v1 over Streamable HTTP, wired as its examples do (simpleStreamableHttp /
// simpleStatelessStreamableHttp): createMcpExpressApp, StreamableHTTPServerTransport, and on the
// client StreamableHTTPClientTransport. Stateful keeps one transport per session, found by the
// Mcp-Session-Id header; stateless builds a server and a transport for every request.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { benchClient } from '../impl/v1/client.js';
import { createServer } from '../impl/v1/server.js';
import { MCP_PATH } from '../lib/http-util.js';
import type { HttpAdapter, ServerSpec } from '../lib/types.js';

/** An Express request after express.json(): Node's request plus the parsed body. */
type ExpressRequest = IncomingMessage & { body?: unknown };

function jsonError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

interface ExpressLikeApp {
  post(path: string, handler: (req: ExpressRequest, res: ServerResponse) => Promise<void>): void;
  get(path: string, handler: (req: ExpressRequest, res: ServerResponse) => Promise<void>): void;
  delete(path: string, handler: (req: ExpressRequest, res: ServerResponse) => Promise<void>): void;
  listen(port: number, host: string, callback: (error?: Error) => void): Server;
}

function listen(app: ExpressLikeApp): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', (error) => {
      if (error !== undefined) reject(error);
      else resolve((server.address() as { port: number }).port);
    });
  });
}

function serveStateful(app: ExpressLikeApp, spec: ServerSpec): void {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  app.post(MCP_PATH, async (req, res) => {
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (transport === undefined) {
      if (sessionId !== undefined || !isInitializeRequest(req.body)) {
        jsonError(res, 400, 'Bad Request: No valid session ID provided');
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId !== undefined) transports.delete(created.sessionId);
      };
      await createServer(spec).connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, req.body);
  });
  const existingSession = async (req: ExpressRequest, res: ServerResponse): Promise<void> => {
    const sessionId = req.headers['mcp-session-id'];
    const transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (transport === undefined) {
      jsonError(res, 400, 'Invalid or missing session ID');
      return;
    }
    await transport.handleRequest(req, res);
  };
  app.get(MCP_PATH, existingSession);
  app.delete(MCP_PATH, existingSession);
}

function serveStateless(app: ExpressLikeApp, spec: ServerSpec): void {
  app.post(MCP_PATH, async (req, res) => {
    const server = createServer(spec);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  const notAllowed = async (_req: ExpressRequest, res: ServerResponse): Promise<void> => jsonError(res, 405, 'Method not allowed.');
  app.get(MCP_PATH, notAllowed);
  app.delete(MCP_PATH, notAllowed);
}

export const httpAdapter: HttpAdapter = {
  async serve(mode, spec) {
    const app = createMcpExpressApp() as unknown as ExpressLikeApp;
    if (mode === 'stateful') serveStateful(app, spec);
    else serveStateless(app, spec);
    return listen(app);
  },

  async connect(url) {
    const client = new Client({ name: 'bench-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    return benchClient(client);
  },
};
