/**
 * Story: progress and cancellation. `count` reports progress as it goes; `wait` runs until the
 * client cancels it, and notices through `context.signal`; `cancellations` tells how many
 * calls the server saw cancelled.
 *
 * Run it: `npx tsx examples/progress-cancellation/server.ts` (stdio) or `… --http`.
 */
// #region server
import { McpServer } from '../../runtime/index.js';
import { z } from 'zod';
// #endregion server
import { isMain, serveFromArgs } from '../shared/harness.js';

// #region server

export function createServer(): McpServer {
  const mcp = new McpServer({ name: 'long-jobs', version: '1.0.0' });
  let cancelled = 0;

  mcp.registerTool('count', { inputSchema: z.object({ to: z.number().int().min(1) }) }, async ({ to }, context) => {
    for (let step = 1; step <= to; step++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      // Sent only when the client asked for progress (it gave a progress token).
      await context.reportProgress(step, to, `step ${step} of ${to}`);
    }
    return { content: [{ type: 'text', text: `counted to ${to}` }] };
  });

  mcp.registerTool('wait', {}, async (_args, context) => {
    await context.reportProgress(0, undefined, 'waiting');
    // The signal aborts when the client cancels the call (or the connection closes).
    await new Promise<void>((resolve) => {
      if (context.signal.aborted) resolve();
      else context.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    cancelled++;
    return { content: [{ type: 'text', text: 'cancelled' }] }; // never reaches the client
  });

  mcp.registerTool('cancellations', {}, () => ({ content: [{ type: 'text', text: String(cancelled) }] }));

  return mcp;
}
// #endregion server

if (isMain(import.meta.url)) await serveFromArgs(createServer());
