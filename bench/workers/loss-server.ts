// Child process of the loss runs: an mcpgen server over Streamable HTTP with sessions and the
// handler's default limits, printing its port as `{"port":N}`. Tools:
// - `echo` answers its `text`;
// - `stream` reports progress 0 (which turns its POST into an SSE stream), waits until
//   `together` streams have reached that point (or `barrierMs` passed), then reports progress
//   1..`steps` and answers: so that many streams are provably open at once.
// Each stdin line `stats` is answered with one JSON line: the handler's stats() and what the
// tools saw. Exits when stdin closes.
import { createInterface } from 'node:readline';
import type { Server as McpgenServer } from '../../runtime/index.js';
import { MCP_PATH } from '../lib/http-util.js';
import { loadMcpgen, loadMcpgenNode } from '../lib/mcpgen-dist.js';
import { workerArgs } from '../lib/worker.js';

interface Args {
  readonly barrierMs: number;
}

/** What the `stream` tool reports as its result, and the loss worker checks. */
export interface StreamOutcome {
  readonly token: string | number;
  readonly steps: number;
  /** Streams past progress 0 when this one was let go. */
  readonly together: number;
}

const args = workerArgs<Args>();
const { Server } = await loadMcpgen();
const { createMcpNodeServer } = await loadMcpgenNode();

const seen = { echo: 0, streamsStarted: 0, streamsAnswered: 0, barrierTimedOut: false };
let arrived = 0;
let release: () => void = () => undefined;
const barrier = new Promise<void>((resolve) => {
  release = resolve;
});
let barrierTimer: ReturnType<typeof setTimeout> | undefined;

function createServer(): McpgenServer {
  const server = new Server({ name: 'bench-loss', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: ['echo', 'stream'].map((name) => ({ name, inputSchema: { type: 'object' as const } })),
  }));
  server.setRequestHandler('tools/call', async (params, context) => {
    const input = (params.arguments ?? {}) as Record<string, unknown>;
    if (params.name === 'echo') {
      seen.echo++;
      return { content: [{ type: 'text', text: String(input.text) }] };
    }
    const steps = Number(input.steps);
    const together = Number(input.together);
    seen.streamsStarted++;
    await context.reportProgress(0, steps);
    arrived++;
    if (arrived >= together) release();
    barrierTimer ??= setTimeout(() => {
      seen.barrierTimedOut = true;
      release();
    }, args.barrierMs);
    await barrier;
    clearTimeout(barrierTimer);
    const outcome: StreamOutcome = { token: context._meta?.progressToken as string | number, steps, together: arrived };
    for (let step = 1; step <= steps; step++) await context.reportProgress(step, steps);
    seen.streamsAnswered++;
    return { content: [{ type: 'text', text: JSON.stringify(outcome) }] };
  });
  return server;
}

const node = createMcpNodeServer({ server: createServer, path: MCP_PATH });
const url = await node.listen(0);
process.stdout.write(`${JSON.stringify({ port: Number(url.port) })}\n`);
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() === 'stats') process.stdout.write(`${JSON.stringify({ stats: node.mcp.stats(), seen })}\n`);
});
lines.on('close', () => {
  void node.close().finally(() => process.exit(0));
});
