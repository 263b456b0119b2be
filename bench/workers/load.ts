// Worker: the load scenario for one implementation. One server process over Streamable HTTP
// with sessions, whose echo tool awaits a timer; `clients` clients of the implementation's own
// SDK in this process, each its own session (`initialize`), each looping tools/list then
// tools/call until the phase ends. Prints throughput, latency, errors and the server's
// CPU and peak RSS.
import { performance } from 'node:perf_hooks';
import { firstJsonLine, spawnNode, stopChild } from '../lib/child.js';
import { monotonicUs, type ClockWindow } from '../lib/call-loop.js';
import { ownCpuMicros, processCpuMicros } from '../lib/cpu.js';
import { LatencyRecorder } from '../lib/latency.js';
import { loadHttpAdapter } from '../lib/load-impl.js';
import { harnessScript } from '../lib/paths.js';
import { peakRssBytes } from '../lib/proc-memory.js';
import type { BenchClient, HttpAdapter, ImplName } from '../lib/types.js';
import { profileFlags, runWorker, workerArgs } from '../lib/worker.js';

interface Args {
  readonly impl: ImplName;
  readonly clients: number;
  readonly durationMs: number;
  readonly toolDelayMs: number;
  /** Where the server process writes its CPU profile, when profiling. */
  readonly profileDir?: string;
}

/** A client whose requests keep failing this many times in a row stops, so a dead server cannot spin the loop. */
const MAX_ERRORS_IN_A_ROW = 20;

export interface LoadResult {
  readonly clients: number;
  readonly sessions: number;
  readonly seconds: number;
  /** tools/call results per second (each loop also lists the tools once). */
  readonly callsPerSecond: number;
  /** tools/list and tools/call results per second. */
  readonly requestsPerSecond: number;
  readonly callP50Ms: number;
  readonly callP99Ms: number;
  readonly listP99Ms: number;
  /** Until every client had its session. */
  readonly initializeMs: number;
  readonly errors: number;
  readonly firstError: string | undefined;
  readonly serverPeakRssBytes: number | null;
  readonly serverCpuUsPerRequest: number | null;
  readonly clientCpuUsPerRequest: number;
  readonly window: ClockWindow;
}

const args = workerArgs<Args>();

async function connectAll(adapter: HttpAdapter, url: URL, record: (error: unknown) => void): Promise<BenchClient[]> {
  const settled = await Promise.allSettled(Array.from({ length: args.clients }, () => adapter.connect(url, 'stateful', { session: true })));
  const clients: BenchClient[] = [];
  for (const outcome of settled) {
    if (outcome.status === 'fulfilled') clients.push(outcome.value);
    else record(outcome.reason);
  }
  return clients;
}

runWorker(async () => {
  const adapter = await loadHttpAdapter(args.impl);
  if (adapter === undefined) return { unavailable: `${args.impl} has no Streamable HTTP transport yet (add bench/http/${args.impl}.ts)` };
  const server = spawnNode(
    harnessScript('workers/http-server.js'),
    { impl: args.impl, mode: 'stateful', toolCount: 1, ioDelayMs: args.toolDelayMs },
    profileFlags(args.profileDir, `${args.impl}-load-server`),
  );
  const serverPid = server.pid!;
  let errors = 0;
  let firstError: string | undefined;
  const record = (error: unknown): void => {
    errors++;
    firstError ??= error instanceof Error ? error.message : String(error);
  };
  try {
    const { port } = await firstJsonLine<{ port: number }>(server, 30_000);
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    const initStart = performance.now();
    const clients = await connectAll(adapter, url, record);
    const initializeMs = performance.now() - initStart;

    const calls = new LatencyRecorder();
    const lists = new LatencyRecorder();
    const serverCpuStart = processCpuMicros(serverPid);
    const cpuStart = ownCpuMicros();
    const startUs = monotonicUs();
    const start = performance.now();
    const end = start + args.durationMs;
    const loop = async (client: BenchClient, index: number): Promise<void> => {
      const text = `client ${index}`;
      let inARow = 0;
      while (performance.now() < end && inARow < MAX_ERRORS_IN_A_ROW) {
        try {
          const before = performance.now();
          const count = await client.listTools();
          const listed = performance.now();
          if (count !== 1) throw new Error(`tools/list returned ${count} tools`);
          lists.record(listed - before);
          const echoed = await client.call(text);
          if (echoed !== text) throw new Error(`echo returned ${JSON.stringify(echoed)}`);
          calls.record(performance.now() - listed);
          inARow = 0;
        } catch (error) {
          record(error);
          inARow++;
        }
      }
    };
    await Promise.all(clients.map(loop));
    const seconds = (performance.now() - start) / 1000;
    const window = { startUs, endUs: monotonicUs() };
    const clientCpu = ownCpuMicros() - cpuStart;
    const serverCpuEnd = processCpuMicros(serverPid);
    const serverPeakRssBytes = peakRssBytes(serverPid);
    await Promise.allSettled(clients.map((client) => client.close()));
    const requests = calls.count + lists.count;
    const result: LoadResult = {
      clients: args.clients,
      sessions: clients.length,
      seconds,
      callsPerSecond: calls.count / seconds,
      requestsPerSecond: requests / seconds,
      callP50Ms: calls.quantileUs(0.5) / 1000,
      callP99Ms: calls.quantileUs(0.99) / 1000,
      listP99Ms: lists.quantileUs(0.99) / 1000,
      initializeMs,
      errors,
      firstError,
      serverPeakRssBytes,
      serverCpuUsPerRequest: serverCpuStart === null || serverCpuEnd === null || requests === 0 ? null : (serverCpuEnd - serverCpuStart) / requests,
      clientCpuUsPerRequest: requests === 0 ? 0 : clientCpu / requests,
      window,
    };
    return result;
  } finally {
    await stopChild(server);
  }
});
