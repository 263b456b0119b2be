/**
 * Story: pinning a protocol revision. Both servers here are given the 2025-06-18 module only:
 * they negotiate nothing else, and the low-level one's handlers are typed from that
 * revision's schema.
 *
 * Run it: `npx tsx examples/pinned-revision/server.ts` (stdio) or `… --http`.
 */
// #region server
import { McpServer, Server } from '../../runtime/index.js';
import { revisionModule, type ProtocolTypes, type Tool } from '../../generated/2025-06-18/index.js';
// #endregion server
import { isMain, serveFromArgs } from '../shared/harness.js';

// #region server

/** The high-level server, pinned: `revisions` lists the modules it may negotiate. */
export function createServer(): McpServer {
  const mcp = new McpServer({ name: 'pinned', version: '1.0.0' }, { revisions: [revisionModule] });
  mcp.registerTool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return mcp;
}

/** The low-level Server, pinned and typed: `params` and results are the 2025-06-18 types. */
export function createLowLevelServer(): Server<ProtocolTypes> {
  const server = new Server<ProtocolTypes>({ name: 'pinned-low-level', version: '1.0.0' }, { revisions: [revisionModule], capabilities: { tools: {} } });
  const echo: Tool = { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };
  server.setRequestHandler('tools/list', () => ({ tools: [echo] }));
  server.setRequestHandler('tools/call', (params) => ({ content: [{ type: 'text', text: String(params.arguments?.text) }] }));
  return server;
}
// #endregion server

if (isMain(import.meta.url)) await serveFromArgs(createServer());
