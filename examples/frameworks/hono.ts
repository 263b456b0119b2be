/**
 * An MCP endpoint inside a Hono app: Hono hands its route the Web `Request`, which the Fetch
 * handler answers with a `Response`, so the same code runs on Node (through @hono/node-server),
 * Deno, Bun and Workers. Run it: `npx tsx examples/frameworks/hono.ts`.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
// #region hono
import { Hono } from 'hono';
import { createMcpHttpHandler } from '../../runtime/index.js';
import { createGreeter } from './greeter.js'; // an McpServer with its tools
// #endregion hono
import { isMain } from '../shared/harness.js';

/** The Hono app with the greeter at `/mcp`, and the handler behind it (to close its sessions). */
export function createHonoApp(): { app: Hono; close: () => Promise<void> } {
  // #region hono
  const greeter = createGreeter();
  const mcp = createMcpHttpHandler({ server: () => greeter.createServer() });
  const app = new Hono();
  app.all('/mcp', (c) => mcp.fetch(c.req.raw));
  // #endregion hono
  return { app, close: () => mcp.close() };
}

/** Serves the Hono app on 127.0.0.1 with @hono/node-server; resolves with its URL and a close function. */
export async function serveWithHono(port = 0): Promise<{ url: string; close: () => Promise<void> }> {
  const { app, close } = createHonoApp();
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve(started));
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    close: async () => {
      await close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

if (isMain(import.meta.url)) console.log((await serveWithHono(3000)).url);
