// Worker: tools/list of a server with many tools, over the in-memory pair (floor: JSON.stringify
// + JSON.parse of the same JSON-RPC response) or over stdio (floor: the stdio floor).
import { performance } from 'node:perf_hooks';
import { createFloorServer } from '../impl/floor/protocol.js';
import { monotonicUs, type ClockWindow } from '../lib/call-loop.js';
import { ownCpuMicros } from '../lib/cpu.js';
import { loadClientSide } from '../lib/load-impl.js';
import { harnessScript } from '../lib/paths.js';
import type { ImplName } from '../lib/types.js';
import { runWorker, workerArgs } from '../lib/worker.js';

interface Args {
  readonly impl: ImplName;
  readonly transport: 'memory' | 'stdio';
  readonly toolCount: number;
  readonly durationMs: number;
  readonly warmupMs: number;
}

export interface ToolsListResult {
  readonly toolCount: number;
  readonly calls: number;
  readonly msPerCall: number;
  readonly cpuMsPerCall: number;
  /** Size of the JSON-RPC response on the wire. */
  readonly responseBytes: number;
  readonly window: ClockWindow;
}

const args = workerArgs<Args>();

/** Runs `op` repeatedly for `durationMs`; returns calls, wall ms per call and CPU ms per call. */
async function timeLoop(op: () => Promise<number> | number, durationMs: number): Promise<{ calls: number; msPerCall: number; cpuMsPerCall: number }> {
  const cpuStart = ownCpuMicros();
  const start = performance.now();
  const end = start + durationMs;
  let calls = 0;
  let now = start;
  while (now < end) {
    const count = await op();
    if (count !== args.toolCount) throw new Error(`listed ${count} tools, expected ${args.toolCount}`);
    calls++;
    now = performance.now();
  }
  return { calls, msPerCall: (now - start) / calls, cpuMsPerCall: (ownCpuMicros() - cpuStart) / 1000 / calls };
}

runWorker(async (): Promise<ToolsListResult> => {
  const response = createFloorServer({ toolCount: args.toolCount })({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const responseBytes = Buffer.byteLength(JSON.stringify(response));
  let op: () => Promise<number> | number;
  let close = async (): Promise<void> => undefined;
  if (args.impl === 'floor' && args.transport === 'memory') {
    op = () => (JSON.parse(JSON.stringify(response)) as { result: { tools: unknown[] } }).result.tools.length;
  } else {
    const side = await loadClientSide(args.impl);
    const spec = { toolCount: args.toolCount };
    const client =
      args.transport === 'memory'
        ? await side.inMemory(spec)
        : await side.connectStdio({ command: process.execPath, args: [harnessScript('workers/stdio-server.js'), JSON.stringify({ impl: args.impl, ...spec })] });
    op = () => client.listTools();
    close = () => client.close();
  }
  await timeLoop(op, args.warmupMs);
  const startUs = monotonicUs();
  const measured = await timeLoop(op, args.durationMs);
  const window = { startUs, endUs: monotonicUs() };
  await close();
  return { toolCount: args.toolCount, responseBytes, window, ...measured };
});
