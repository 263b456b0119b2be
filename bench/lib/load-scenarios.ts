// The scenarios under load: many clients at once against one HTTP server process. `load`
// compares the implementations; `load-10k` and `sse-1000` are correctness runs against
// mcpgen's server that fail when anything is lost.
import { harnessScript } from './paths.js';
import { runWorkerProcess } from './run-worker.js';
import type { Metric, Outcome, Scenario } from './scenario.js';
import type { Settings } from './settings.js';
import type { ImplName } from './types.js';
import { profileFlags } from './worker.js';
import type { LoadResult } from '../workers/load.js';
import type { LossResult } from '../workers/loss.js';

const MB = 2 ** 20;

const loadScenario: Scenario = {
  id: 'load',
  title: '8a. Load: 50 clients, initialize then tools/list + tools/call in a loop, over Streamable HTTP',
  about:
    "One server process with sessions; its echo tool awaits a 5 ms timer (I/O-bound). Each client is the implementation's own SDK client in the measuring process, in its own session (mcpgen's pinned to 2025-11-25 so that it opens one), looping tools/list then tools/call. calls/s counts tools/call results; requests/s counts both. Server RSS is the kernel's peak (VmHWM).",
  metrics: [
    { id: 'cps', label: 'throughput, tools/call', unit: 'calls/s', better: 'higher' },
    { id: 'rps', label: 'throughput, tools/list + tools/call', unit: 'req/s', better: 'higher' },
    { id: 'p50', label: 'p50 tools/call latency', unit: 'ms', better: 'lower' },
    { id: 'p99', label: 'p99 tools/call latency', unit: 'ms', better: 'lower' },
    { id: 'list-p99', label: 'p99 tools/list latency', unit: 'ms', better: 'lower' },
    { id: 'errors', label: 'failed requests', unit: '', better: 'lower' },
    { id: 'server-rss', label: 'server peak RSS', unit: 'MB', better: 'lower' },
    { id: 'server-cpu', label: 'server CPU per request', unit: 'µs', better: 'lower' },
    { id: 'client-cpu', label: 'client CPU per request (all clients)', unit: 'µs', better: 'lower' },
    { id: 'init-ms', label: 'all sessions initialized', unit: 'ms', better: 'lower' },
  ],
  async run(impl, settings, profile) {
    const { result } = await runWorkerProcess<LoadResult | { unavailable: string }>(
      harnessScript('workers/load.js'),
      { impl, ...settings.load, ...(profile ? { profileDir: profile.dir } : {}) },
      { nodeFlags: profileFlags(profile?.dir, `${impl}-load-clients`), timeoutMs: 120_000 + 2 * settings.load.durationMs },
    );
    if ('unavailable' in result) return result;
    if (result.firstError !== undefined) process.stderr.write(`  load ${impl}: ${result.errors} failed request(s), the first: ${result.firstError}\n`);
    return {
      values: {
        cps: result.callsPerSecond,
        rps: result.requestsPerSecond,
        p50: result.callP50Ms,
        p99: result.callP99Ms,
        'list-p99': result.listP99Ms,
        errors: result.errors,
        'server-rss': result.serverPeakRssBytes === null ? null : result.serverPeakRssBytes / MB,
        'server-cpu': result.serverCpuUsPerRequest,
        'client-cpu': result.clientCpuUsPerRequest,
        'init-ms': result.initializeMs,
      },
      window: result.window,
    };
  },
};

/** What every loss run reports; the first seven must be 0 (and `executed` must equal `sent`). */
const LOSS_METRICS: readonly Metric[] = [
  { id: 'lost', label: 'requests never answered', unit: '', better: 'lower' },
  { id: 'duplicated', label: 'answers (or progress messages) received twice', unit: '', better: 'lower' },
  { id: 'wrong', label: "answers with another request's content, or out of order", unit: '', better: 'lower' },
  { id: 'stray', label: 'messages for no request of the run', unit: '', better: 'lower' },
  { id: 'failed', label: 'POSTs failed (HTTP error, reset)', unit: '', better: 'lower' },
  { id: 'left-pending', label: 'left pending or open on the server afterwards', unit: '', better: 'lower' },
  { id: 'sent', label: 'requests sent', unit: '', better: 'higher' },
  { id: 'executed', label: 'handler runs on the server', unit: '', better: 'higher' },
  { id: 'refusals', label: '429/503 refusals, retried after Retry-After', unit: '', better: 'lower' },
  { id: 'per-second', label: 'requests per second', unit: 'req/s', better: 'higher' },
  { id: 'p99', label: 'p99 time to the complete answer', unit: 'ms', better: 'lower' },
  { id: 'server-rss', label: 'server peak RSS', unit: 'MB', better: 'lower' },
];

/** How long a loss run may take before what is unanswered is aborted and counted lost. */
function deadlineMs(settings: Settings): number {
  return settings.mode === 'quick' ? 30_000 : 120_000;
}

function lossScenario(id: string, title: string, about: string, args: (settings: Settings) => Record<string, unknown>, extra: readonly Metric[]): Scenario {
  return {
    id,
    title,
    about,
    metrics: [...LOSS_METRICS, ...extra],
    async run(impl: ImplName, settings: Settings): Promise<Outcome> {
      if (impl !== 'mcpgen') return { unavailable: "a correctness run against mcpgen's server only" };
      const { result } = await runWorkerProcess<LossResult>(harnessScript('workers/loss.js'), args(settings), { timeoutMs: 300_000 });
      const losses = result.lost + result.duplicated + result.wrong + result.stray + result.failed + result.leftPending + result.refusalsWithoutRetryAfter;
      const apart = result.executed !== result.sent || result.notTogether > 0;
      if (losses > 0 || apart) {
        const counts = `lost ${result.lost}, duplicated ${result.duplicated}, wrong ${result.wrong}, stray ${result.stray}, failed ${result.failed}, left pending ${result.leftPending}, refusals without Retry-After ${result.refusalsWithoutRetryAfter}, executed ${result.executed} of ${result.sent}, streams let go before all were open ${result.notTogether}`;
        throw new Error(`${id} lost messages: ${counts}; first problem: ${result.firstProblem ?? 'none recorded'}`);
      }
      return {
        values: {
          lost: result.lost,
          duplicated: result.duplicated,
          wrong: result.wrong,
          stray: result.stray,
          failed: result.failed,
          'left-pending': result.leftPending,
          sent: result.sent,
          executed: result.executed,
          refusals: result.refusals,
          'per-second': result.perSecond,
          p99: result.p99Ms,
          'server-rss': result.serverPeakRssBytes === null ? null : result.serverPeakRssBytes / MB,
          connections: result.connectionsUsed,
          'peak-open': result.peakOpenStreams,
        },
      };
    },
  };
}

export const LOAD_SCENARIOS: readonly Scenario[] = [
  loadScenario,
  lossScenario(
    'load-10k',
    '8b. Loss: 10,000 requests over 200 connections to mcpgen, nothing lost',
    "A raw JSON-RPC client (no SDK, so every message is counted) opens one session per keep-alive connection and issues every tools/call echo at once, spread evenly over the sessions (50 each, below the limit of 200 in progress per session). Each request must get exactly one answer, with its own text; afterwards the server must hold nothing pending and have run each request once. Any loss fails the scenario (the smoke run: 2,000 over 40).",
    (settings) => ({ kind: 'requests', requests: settings.loss.requests, connections: settings.loss.connections, retries: 5, deadlineMs: deadlineMs(settings) }),
    [{ id: 'connections', label: 'connections used', unit: '', better: 'lower' }],
  ),
  lossScenario(
    'sse-1000',
    '8c. Loss: 1,000 concurrent SSE streams from mcpgen, nothing lost',
    'The same raw client sends 1,000 tools/call POSTs at once over 50 sessions (20 each), each with a progress token; the tool reports progress 0, waits until all 1,000 streams have (so they are open at once), then reports progress 1–10 and answers. Each stream must receive every progress message in order, once, then its result. Any loss fails the scenario (the smoke run: 200 streams, 5 steps).',
    (settings) => ({
      kind: 'streams',
      streams: settings.loss.streams,
      sessions: settings.loss.streamSessions,
      steps: settings.loss.steps,
      barrierMs: deadlineMs(settings) / 2,
      deadlineMs: deadlineMs(settings),
    }),
    [{ id: 'peak-open', label: "most streams open at once, as the client saw them (all were, by the server's count)", unit: '', better: 'higher' }],
  ),
];
