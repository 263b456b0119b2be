import { performance } from 'node:perf_hooks';
import { ownCpuMicros, processCpuMicros } from './cpu.js';
import { LatencyRecorder } from './latency.js';
import { ECHO_TEXT } from './tools.js';
import type { BenchClient } from './types.js';

/** One measured phase of echo calls. */
export interface PhaseResult {
  readonly concurrency: number;
  readonly calls: number;
  readonly seconds: number;
  readonly callsPerSecond: number;
  readonly p50Us: number;
  readonly p99Us: number;
  /** CPU of this process per call (client and, in memory, server too). */
  readonly clientCpuUsPerCall: number;
  /** CPU of the server process per call, where the server is another process. */
  readonly serverCpuUsPerCall: number | null;
}

export interface PhaseOptions {
  /** Calls kept in flight at once. */
  readonly concurrency: number;
  /** How long the phase runs; in-flight calls finish after it. */
  readonly durationMs: number;
}

/**
 * A span of the monotonic clock in µs: the clock V8 stamps CPU-profile samples with, the same
 * in every process of the machine. Profiles are cut to the measured span with it.
 */
export interface ClockWindow {
  readonly startUs: number;
  readonly endUs: number;
}

/** The monotonic clock in µs. */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** A finished phase whose latency quantiles are not computed yet (sorting is not measured). */
export interface MeasuredPhase {
  readonly concurrency: number;
  readonly calls: number;
  readonly seconds: number;
  readonly cpuMicros: number;
  readonly serverCpuMicros: number | null;
  readonly latencies: LatencyRecorder;
}

/**
 * Runs `concurrency` loops of sequential calls for `durationMs`. Each loop awaits its call
 * before starting the next, so exactly `concurrency` calls are in flight until the end.
 */
export async function runPhase(client: BenchClient, options: PhaseOptions): Promise<MeasuredPhase> {
  const latencies = new LatencyRecorder();
  const serverPid = client.serverPid;
  const serverCpuStart = serverPid === undefined ? null : processCpuMicros(serverPid);
  const cpuStart = ownCpuMicros();
  const start = performance.now();
  const end = start + options.durationMs;
  let calls = 0;
  const loop = async (): Promise<void> => {
    for (;;) {
      const before = performance.now();
      if (before >= end) return;
      const text = await client.call(ECHO_TEXT);
      const after = performance.now();
      if (text !== ECHO_TEXT) throw new Error(`echo returned ${JSON.stringify(text)}`);
      latencies.record(after - before);
      calls++;
    }
  };
  const loops: Promise<void>[] = [];
  for (let i = 0; i < options.concurrency; i++) loops.push(loop());
  await Promise.all(loops);
  const seconds = (performance.now() - start) / 1000;
  const cpuMicros = ownCpuMicros() - cpuStart;
  const serverCpuEnd = serverPid === undefined ? null : processCpuMicros(serverPid);
  return {
    concurrency: options.concurrency,
    calls,
    seconds,
    cpuMicros,
    serverCpuMicros: serverCpuStart === null || serverCpuEnd === null ? null : serverCpuEnd - serverCpuStart,
    latencies,
  };
}

/** The phase's numbers, latency quantiles included. */
export function phaseResult(phase: MeasuredPhase): PhaseResult {
  return {
    concurrency: phase.concurrency,
    calls: phase.calls,
    seconds: phase.seconds,
    callsPerSecond: phase.calls / phase.seconds,
    p50Us: phase.latencies.quantileUs(0.5),
    p99Us: phase.latencies.quantileUs(0.99),
    clientCpuUsPerCall: phase.cpuMicros / phase.calls,
    serverCpuUsPerCall: phase.serverCpuMicros === null ? null : phase.serverCpuMicros / phase.calls,
  };
}

/** Warm-up, then a sequential and a 64-in-flight phase on the same connection. */
export async function runCallScenario(
  client: BenchClient,
  phaseMs: number,
  warmupMs: number,
  warmupCalls: number,
): Promise<{ sequential: PhaseResult; concurrent: PhaseResult; window: ClockWindow }> {
  // Warm up for warmupMs and at least warmupCalls calls (slow transports need the calls to get
  // the JIT to their steady state), but never beyond four times warmupMs.
  const warmupEnd = performance.now() + 4 * warmupMs;
  let warmed = 0;
  do {
    warmed += (await runPhase(client, { concurrency: 1, durationMs: warmupMs / 4 })).calls;
  } while (warmed < warmupCalls && performance.now() < warmupEnd);
  const minimumEnd = warmupEnd - 3 * warmupMs;
  if (performance.now() < minimumEnd) await runPhase(client, { concurrency: 1, durationMs: minimumEnd - performance.now() });
  await runPhase(client, { concurrency: 64, durationMs: warmupMs / 2 });
  const startUs = monotonicUs();
  const sequential = await runPhase(client, { concurrency: 1, durationMs: phaseMs });
  const concurrent = await runPhase(client, { concurrency: 64, durationMs: phaseMs });
  const window = { startUs, endUs: monotonicUs() };
  return { sequential: phaseResult(sequential), concurrent: phaseResult(concurrent), window };
}
