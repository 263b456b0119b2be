/**
 * Story: a dual-era HTTP server. One McpServer and one endpoint serve clients of both eras:
 * an `initialize` request opens a 2025-11-25 session (Mcp-Session-Id), while a request that
 * carries a 2026-07-28 `MCP-Protocol-Version` header and no session is answered statelessly
 * by a fresh Server from the same factory. Nothing in the registrations is era-specific.
 *
 * Run it: `npx tsx examples/dual-era-http/server.ts --http 3000`.
 */
// #region server
import { createMcpHttpHandler, McpServer } from '../../runtime/index.js';
import { createMcpNodeServer } from '../../runtime/node.js';
import { z } from 'zod';
// #endregion server
import { isMain, serveFromArgs } from '../shared/harness.js';

// #region server

export function createServer(): McpServer {
  const mcp = new McpServer({ name: 'dual-era', version: '1.0.0' });
  mcp.registerTool('whoami', { inputSchema: z.object({ name: z.string() }) }, ({ name }, context) => ({
    // The era shows in the low-level Server of the request; handlers rarely need to know.
    content: [{ type: 'text', text: `${name} speaks ${context.session.server.era} ${context.session.protocolVersion}` }],
  }));
  return mcp;
}
// #endregion server

/** The same endpoint as a Fetch API handler (Deno, Bun, Workers) and as a `node:http` server. */
export function endpoints(mcp: McpServer) {
  // #region endpoints
  // Fetch runtimes: `fetch(request) → Response`. Only loopback Host names pass the DNS-rebinding
  // check by default; a deployment lists its public names: `allowedHosts: ['mcp.example.com']`.
  const handler = createMcpHttpHandler({ server: () => mcp.createServer() });
  // Node: a `node:http` server bound to 127.0.0.1 by default (DNS-rebinding checks on).
  const node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
  // #endregion endpoints
  return { handler, node };
}

if (isMain(import.meta.url)) await serveFromArgs(createServer());
