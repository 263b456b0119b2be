/**
 * Heap growth per call through the host layer (issue 10): a ConnectionManager calling one
 * tool of a server on 127.0.0.1 over Streamable HTTP, many times, with a per-call timeout each
 * time. After a full GC at each checkpoint, the least-squares slope of heap used against calls
 * is the growth per call; anything a call leaves behind (a timer, a listener, a cache entry)
 * shows up here. Target: at most 1 byte per call.
 *
 * Run: node --expose-gc --import tsx bench/host-heap.ts [--calls N]
 */
import { ConnectionManager } from '../runtime/features/host/index.js';
import { McpServer } from '../runtime/index.js';
import { createMcpNodeServer } from '../runtime/node.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const callsIndex = process.argv.indexOf('--calls');
const calls = callsIndex === -1 ? 20_000 : Number(process.argv[callsIndex + 1]);
const checkpoints = 10;

const mcp = new McpServer({ name: 'heap', version: '1.0.0' });
mcp.registerTool('echo', { description: 'Echoes', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (args) => ({
  content: [{ type: 'text', text: String(args.text) }],
}));
const node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
const url = await node.listen();
const manager = new ConnectionManager({ heap: { type: 'http', url: url.href } }, { clientInfo: { name: 'heap-bench', version: '1.0.0' } });
await manager.connectAll();

const settle = async (): Promise<number> => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
};

// Warm-up, so that JIT code and caches are in place before measuring.
for (let i = 0; i < 2_000; i++) await manager.callTool('mcp__heap__echo', { text: 'warm' }, { timeout: 5_000 });
const points: Array<[number, number]> = [[0, await settle()]];
const per = Math.floor(calls / checkpoints);
for (let checkpoint = 1; checkpoint <= checkpoints; checkpoint++) {
  for (let i = 0; i < per; i++) await manager.callTool('mcp__heap__echo', { text: 'x' }, { timeout: 5_000 });
  points.push([checkpoint * per, await settle()]);
}
await manager.close();
await node.close();

const n = points.length;
const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
const slope = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0) / points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
process.stdout.write(`host heap: ${calls} calls, heap growth ${slope.toFixed(2)} B/call (target <= 1), first ${(points[0]![1] / 1024).toFixed(0)} KiB, last ${(points[n - 1]![1] / 1024).toFixed(0)} KiB\n`);
