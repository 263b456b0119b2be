/**
 * An MCP endpoint inside an Express 5 app: `toNodeHandler` adapts the Fetch handler to Node's
 * request and response, which Express passes through. Run it: `npx tsx examples/frameworks/express.ts`.
 */
import type { AddressInfo } from 'node:net';
// #region express
import express from 'express';
import { createMcpHttpHandler } from '../../runtime/index.js';
import { toNodeHandler } from '../../runtime/node.js';
import { createGreeter } from './greeter.js'; // an McpServer with its tools
// #endregion express
import { isMain } from '../shared/harness.js';

/** Serves the greeter at `/mcp` of an Express app on 127.0.0.1; resolves with its URL and a close function. */
export async function serveWithExpress(port = 0): Promise<{ url: string; close: () => Promise<void> }> {
  // #region express
  const greeter = createGreeter();
  const mcp = createMcpHttpHandler({ server: () => greeter.createServer() });
  const app = express();
  // Mounted before any body parser, so malformed JSON gets a JSON-RPC -32700, not Express's 400
  // page (a body Express already parsed is still accepted as is).
  app.all('/mcp', toNodeHandler(mcp));
  app.use(express.json());
  // #endregion express
  const listener = app.listen(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => listener.once('listening', resolve).once('error', reject));
  const { port: bound } = listener.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    close: async () => {
      await mcp.close();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}

if (isMain(import.meta.url)) console.log((await serveWithExpress(3000)).url);
