// Worker (run with --expose-gc): sequential echo calls over the in-memory pair, with the heap
// measured after a full GC at checkpoints; the slope over the checkpoints is the growth per call.
import { loadClientSide } from '../lib/load-impl.js';
import { ECHO_TEXT } from '../lib/tools.js';
import type { ImplName } from '../lib/types.js';
import { runWorker, workerArgs } from '../lib/worker.js';

interface Args {
  readonly impl: ImplName;
  readonly calls: number;
  readonly warmupCalls: number;
  readonly checkpoints: number;
}

export interface MemoryResult {
  readonly calls: number;
  /** Heap used after the last call and a full GC. */
  readonly heapAfterBytes: number;
  /** Heap used after the warm-up and a full GC. */
  readonly heapBaselineBytes: number;
  /** Least-squares slope of heap over calls across the checkpoints. */
  readonly growthBytesPerCall: number;
  readonly checkpoints: readonly { calls: number; heapBytes: number }[];
}

const args = workerArgs<Args>();

function settledHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function slope(points: readonly { calls: number; heapBytes: number }[]): number {
  const n = points.length;
  const meanX = points.reduce((sum, p) => sum + p.calls, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.heapBytes, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.calls - meanX) * (p.heapBytes - meanY);
    den += (p.calls - meanX) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

runWorker(async (): Promise<MemoryResult> => {
  const client = await (await loadClientSide(args.impl)).inMemory({ toolCount: 1 });
  for (let i = 0; i < args.warmupCalls; i++) await client.call(ECHO_TEXT);
  const heapBaselineBytes = settledHeap();
  const checkpoints = [{ calls: 0, heapBytes: heapBaselineBytes }];
  const every = Math.ceil(args.calls / args.checkpoints);
  let done = 0;
  while (done < args.calls) {
    const batch = Math.min(every, args.calls - done);
    for (let i = 0; i < batch; i++) {
      if ((await client.call(ECHO_TEXT)) !== ECHO_TEXT) throw new Error('echo returned the wrong text');
    }
    done += batch;
    checkpoints.push({ calls: done, heapBytes: settledHeap() });
  }
  await client.close();
  return { calls: done, heapAfterBytes: checkpoints[checkpoints.length - 1]!.heapBytes, heapBaselineBytes, growthBytesPerCall: slope(checkpoints), checkpoints };
});
