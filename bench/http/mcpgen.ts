// mcpgen over Streamable HTTP: createMcpNodeServer (createMcpHttpHandler on node:http, loopback,
// sessions unless stateless) and StreamableHttpClientTransport on nodeHttpClient (the documented
// Node path), from dist/ like the rest of mcpgen.
import { benchClient } from '../impl/mcpgen/client.js';
import { createServer } from '../impl/mcpgen/server.js';
import { MCP_PATH } from '../lib/http-util.js';
import { loadMcpgen, loadMcpgenNode, loadMcpgenRevision } from '../lib/mcpgen-dist.js';
import type { HttpAdapter } from '../lib/types.js';

export const httpAdapter: HttpAdapter = {
  async serve(mode, spec) {
    const { createMcpNodeServer } = await loadMcpgenNode();
    const server = createMcpNodeServer({ server: () => createServer(spec), sessions: mode === 'stateful', path: MCP_PATH });
    return Number((await server.listen(0)).port);
  },

  async connect(url, _mode, options) {
    const { Client, StreamableHttpClientTransport } = await loadMcpgen();
    const { nodeHttpClient } = await loadMcpgenNode();
    // A session needs a stateful revision: 2025-11-25, named by its generated module.
    const pin = options?.session === true ? { protocolVersion: (await loadMcpgenRevision()).revision } : {};
    const client = new Client({ name: 'bench-client', version: '1.0.0' }, pin);
    await client.connect(new StreamableHttpClientTransport(url, { httpClient: nodeHttpClient() }));
    return benchClient(client);
  },
};
