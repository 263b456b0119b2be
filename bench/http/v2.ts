// Official SDK v2 over Streamable HTTP on node:http, through the SDK's Node adapter
// (@modelcontextprotocol/node, a bench-only dependency: bench/package.json), as its README and
// the serving guides show:
// - stateful: one NodeStreamableHTTPServerTransport per session (sessionIdGenerator set), found
//   by the Mcp-Session-Id header ("Sessions, state, and scaling");
// - stateless: createMcpHandler(factory), a fresh McpServer per request, mounted with
//   toNodeHandler ("Serve over HTTP"); the default client still opens with `initialize`,
//   which the handler serves statelessly.
// Both put the adapter's localhost Host/Origin guards in front, as the README's node:http example does.
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, type McpHttpHandler, type Transport, type WebStandardStreamableHTTPServerTransportOptions } from '@modelcontextprotocol/server';
import { benchClient } from '../impl/v2/client.js';
import { createServer } from '../impl/v2/server.js';
import { listenLoopback } from '../lib/http-util.js';
import type { HttpAdapter, ServerSpec } from '../lib/types.js';

/** The part of @modelcontextprotocol/node the benchmark uses (typed here: it is not a root dependency). */
interface NodeTransport extends Transport {
  readonly sessionId?: string | undefined;
  handleRequest(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void>;
}
type Guard = (req: IncomingMessage, res: ServerResponse) => boolean;
interface NodeAdapter {
  NodeStreamableHTTPServerTransport: new (options?: WebStandardStreamableHTTPServerTransportOptions) => NodeTransport;
  toNodeHandler(handler: Pick<McpHttpHandler, 'fetch'>): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  localhostHostValidation(): Guard;
  localhostOriginValidation(): Guard;
}

const NODE_ADAPTER = '@modelcontextprotocol/node';

async function loadNodeAdapter(): Promise<NodeAdapter> {
  try {
    return (await import(NODE_ADAPTER)) as NodeAdapter;
  } catch (error) {
    throw new Error(`${NODE_ADAPTER} is not installed; run \`npm ci --prefix bench\` (${(error as Error).message})`);
  }
}

function statefulListener(adapter: NodeAdapter, spec: ServerSpec): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const transports = new Map<string, NodeTransport>();
  return async (req, res) => {
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (existing !== undefined) {
      await existing.handleRequest(req, res);
      return;
    }
    if (sessionId !== undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    // No session yet: a new transport answers the initialize request (and refuses anything else).
    const transport = new adapter.NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
    };
    await createServer(spec).connect(transport);
    await transport.handleRequest(req, res);
  };
}

export const httpAdapter: HttpAdapter = {
  async serve(mode, spec) {
    const adapter = await loadNodeAdapter();
    const validateHost = adapter.localhostHostValidation();
    const validateOrigin = adapter.localhostOriginValidation();
    const handle = mode === 'stateful' ? statefulListener(adapter, spec) : adapter.toNodeHandler(createMcpHandler(() => createServer(spec)));
    const server = createHttpServer((req, res) => {
      if (!validateHost(req, res) || !validateOrigin(req, res)) return;
      handle(req, res).catch((error: unknown) => {
        process.stderr.write(`v2 http: ${(error as Error).message}\n`);
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    return listenLoopback(server);
  },

  async connect(url) {
    const client = new Client({ name: 'bench-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    return benchClient(client);
  },
};
