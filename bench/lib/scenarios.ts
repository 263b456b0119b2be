// The measured scenarios: what each runs in its fresh process(es), and which numbers it yields.
import { LOAD_SCENARIOS } from './load-scenarios.js';
import { distUrl, harnessScript, harnessUrl } from './paths.js';
import { VALIDATION_CASES } from './payloads.js';
import type { ClockWindow, PhaseResult } from './call-loop.js';
import { runWorkerProcess } from './run-worker.js';
import type { Settings } from './settings.js';
import type { CallTransport, ClientEra, ImplName } from './types.js';
import { profileFlags } from './worker.js';
import type { Metric, Outcome, ProfileRequest, Scenario } from './scenario.js';

function callMetrics(separateServer: boolean): Metric[] {
  const metrics: Metric[] = [];
  for (const [phase, name] of [['seq', 'sequential'], ['c64', '64 in flight']] as const) {
    metrics.push(
      { id: `${phase}-cps`, label: `calls/s, ${name}`, unit: 'calls/s', better: 'higher' },
      { id: `${phase}-p50`, label: `p50 latency, ${name}`, unit: 'µs', better: 'lower' },
      { id: `${phase}-p99`, label: `p99 latency, ${name}`, unit: 'µs', better: 'lower' },
      { id: `${phase}-cpu`, label: separateServer ? `client CPU per call, ${name}` : `CPU per call, ${name}`, unit: 'µs', better: 'lower' },
    );
    if (separateServer) metrics.push({ id: `${phase}-server-cpu`, label: `server CPU per call, ${name}`, unit: 'µs', better: 'lower' });
  }
  return metrics;
}

function phaseValues(prefix: string, phase: PhaseResult): Record<string, number | null> {
  return {
    [`${prefix}-cps`]: phase.callsPerSecond,
    [`${prefix}-p50`]: phase.p50Us,
    [`${prefix}-p99`]: phase.p99Us,
    [`${prefix}-cpu`]: phase.clientCpuUsPerCall,
    [`${prefix}-server-cpu`]: phase.serverCpuUsPerCall,
  };
}

/**
 * Runs the calls worker once, mcpgen's client in `era`; when profiling, it and its server
 * process write CPU profiles into `profile.dir`.
 */
export async function runCalls(transport: CallTransport, impl: ImplName, settings: Settings, profile?: ProfileRequest, era: ClientEra = 'default'): Promise<Outcome> {
  const { result } = await runWorkerProcess<{ sequential: PhaseResult; concurrent: PhaseResult; window: ClockWindow } | { unavailable: string }>(
    harnessScript('workers/calls.js'),
    { impl, transport, era, ...settings.calls, ...(profile ? { profileDir: profile.dir } : {}) },
    { nodeFlags: profileFlags(profile?.dir, `${impl}-${transport}-client`), timeoutMs: 60_000 + 10 * (settings.calls.phaseMs + settings.calls.warmupMs) },
  );
  if ('unavailable' in result) return result;
  return { values: { ...phaseValues('seq', result.sequential), ...phaseValues('c64', result.concurrent) }, window: result.window };
}

function callScenario(id: string, title: string, transport: CallTransport, about: string): Scenario {
  return {
    id,
    title,
    about,
    metrics: callMetrics(transport !== 'memory'),
    run: (impl, settings, profile) => runCalls(transport, impl, settings, profile),
  };
}

/**
 * The scenario of `transport` with mcpgen's client pinned to 2025-11-25. v2 and the floor run
 * again, doing the same work as in the default-era scenario, so that the era's ratios are
 * paired within one scenario; v1 is left to the default-era scenario, where it does the same.
 */
function pinnedCallScenario(id: string, title: string, transport: 'memory' | 'stdio', about: string): Scenario {
  return {
    id,
    title,
    about,
    metrics: callMetrics(transport !== 'memory'),
    run: async (impl, settings, profile) =>
      impl === 'v1'
        ? { unavailable: 'v1 does the same work in both eras: see the default-era scenario' }
        : runCalls(transport, impl, settings, profile, '2025-11-25'),
  };
}

/** The entries a user imports: the client's and the server's main module. */
export const ENTRIES: Readonly<Record<ImplName, { readonly client: () => string; readonly server: () => string }>> = {
  mcpgen: { client: () => distUrl('esm/runtime/index.js'), server: () => distUrl('esm/runtime/index.js') },
  v2: { client: () => '@modelcontextprotocol/client', server: () => '@modelcontextprotocol/server' },
  v1: { client: () => '@modelcontextprotocol/sdk/client/index.js', server: () => '@modelcontextprotocol/sdk/server/mcp.js' },
  // The floor's "SDK" is the harness's own few lines of JSON-RPC.
  floor: { client: () => harnessUrl('impl/floor/client.js'), server: () => harnessUrl('impl/floor/server.js') },
};

/** Import time of one specifier in a fresh process. */
export async function importMs(specifier: string, profile?: ProfileRequest, name = 'import'): Promise<number> {
  const { result } = await runWorkerProcess<{ ms: number }>(harnessScript('workers/import-time.js'), [specifier], {
    nodeFlags: profileFlags(profile?.dir, name),
    timeoutMs: 60_000,
  });
  return result.ms;
}

function toolsListScenario(id: string, title: string, transport: 'memory' | 'stdio', about: string): Scenario {
  return {
    id,
    title,
    about,
    metrics: [
      { id: 'ms', label: 'ms per listing', unit: 'ms', better: 'lower' },
      { id: 'cpu-ms', label: transport === 'memory' ? 'CPU ms per listing' : 'client CPU ms per listing', unit: 'ms', better: 'lower' },
    ],
    async run(impl, settings, profile) {
      const { result } = await runWorkerProcess<{ msPerCall: number; cpuMsPerCall: number; window: ClockWindow }>(
        harnessScript('workers/tools-list.js'),
        { impl, transport, ...settings.toolsList },
        { nodeFlags: profileFlags(profile?.dir, `${impl}-${id}`), timeoutMs: 120_000 },
      );
      return { values: { ms: result.msPerCall, 'cpu-ms': result.cpuMsPerCall }, window: result.window };
    },
  };
}

export const SCENARIOS: readonly Scenario[] = [
  callScenario(
    'memory',
    '1. tools/call echo, in memory',
    'memory',
    "Server and client in one process over each SDK's in-memory pair; CPU is the whole process (client and server). mcpgen's client speaks its default revision (2026-07-28); v2 and v1 speak 2025-11-25.",
  ),
  pinnedCallScenario(
    'memory-2025-11-25',
    '1b. tools/call echo, in memory, mcpgen pinned to 2025-11-25',
    'memory',
    "As 1, with mcpgen's client pinned to 2025-11-25 (`protocolVersion` from its generated 2025-11-25 module), the revision v2 speaks; v2 and the floor do the same work as in 1.",
  ),
  callScenario(
    'stdio',
    '2a. tools/call echo over stdio',
    'stdio',
    "Server as a child process over stdin/stdout; the client is the measuring process. mcpgen's client speaks its default revision (2026-07-28).",
  ),
  callScenario(
    'http-stateful',
    '2b. tools/call echo over Streamable HTTP, stateful',
    'http-stateful',
    'Server process on 127.0.0.1 with sessions (Mcp-Session-Id); the client is the measuring process.',
  ),
  callScenario(
    'http-stateless',
    '2c. tools/call echo over Streamable HTTP, stateless',
    'http-stateless',
    "Server process on 127.0.0.1 without sessions; the client is the measuring process. mcpgen's client speaks its default revision (2026-07-28) here and in 2b.",
  ),
  pinnedCallScenario(
    'stdio-2025-11-25',
    '2d. tools/call echo over stdio, mcpgen pinned to 2025-11-25',
    'stdio',
    "As 2a, with mcpgen's client pinned to 2025-11-25; the server serves every revision, as in 2a.",
  ),
  toolsListScenario(
    'tools-list',
    '3. tools/list with 1,000 tools, in memory',
    'memory',
    'One complete listing over the in-memory pair (every tool takes one string argument; the JSON-RPC response is 173 KiB); the floor is JSON.stringify + JSON.parse of the same response.',
  ),
  toolsListScenario(
    'tools-list-stdio',
    '3b. tools/list with 1,000 tools, over stdio',
    'stdio',
    'The same listing with the server as a child process, where every implementation serialises; the floor is the stdio floor. For information: the target is on the in-memory numbers.',
  ),
  {
    id: 'validation',
    title: '4. Validation throughput',
    about:
      "Each SDK's own schemas on the same values (2025-11-25 shapes): mcpgen's generated validators, v2's @modelcontextprotocol/core Zod schemas, v1's Zod schemas; the floor is ajv compiling the same definitions of the pinned schema.",
    metrics: VALIDATION_CASES.map((name) => ({ id: name, label: name, unit: 'ops/s', better: 'higher' as const })),
    async run(impl, settings, profile) {
      const { result } = await runWorkerProcess<Partial<Record<string, { opsPerSecond: number } | { error: string }>> & { window: ClockWindow }>(
        harnessScript('workers/validate.js'),
        { impl, ...settings.validation },
        { nodeFlags: profileFlags(profile?.dir, `${impl}-validation`), timeoutMs: 120_000 },
      );
      const values: Record<string, number | null> = {};
      for (const name of VALIDATION_CASES) {
        const entry = result[name];
        if (entry === undefined || 'error' in entry) throw new Error(entry === undefined ? `${name}: no result` : entry.error);
        values[name] = entry.opsPerSecond;
      }
      return { values, window: result.window };
    },
  },
  {
    id: 'import',
    title: '5a. Cold start: import time',
    about: "`await import(entry)` in a fresh process: the client's and the server's main entry (mcpgen has one root entry for both).",
    metrics: [
      { id: 'client', label: 'client entry import', unit: 'ms', better: 'lower' },
      { id: 'server', label: 'server entry import', unit: 'ms', better: 'lower' },
    ],
    async run(impl, _settings, profile) {
      return {
        values: {
          client: await importMs(ENTRIES[impl].client(), profile, `${impl}-client-import`),
          server: await importMs(ENTRIES[impl].server(), undefined),
        },
      };
    },
  },
  {
    id: 'cold-start',
    title: '5b. Cold start: process start to first tools/call result over stdio',
    about: 'From spawning a fresh client process, which spawns its stdio server, to the first echo result.',
    metrics: [{ id: 'first-result', label: 'spawn → first result', unit: 'ms', better: 'lower' }],
    async run(impl, _settings, profile) {
      const { marks } = await runWorkerProcess<{ ok: boolean }>(
        harnessScript('workers/cold-start.js'),
        { impl, ...(profile ? { profileDir: profile.dir } : {}) },
        { nodeFlags: profileFlags(profile?.dir, `${impl}-cold-start-client`), timeoutMs: 60_000 },
      );
      return { values: { 'first-result': marks.first ?? null } };
    },
  },
  {
    id: 'heap',
    title: '7. Memory: heap after sequential calls',
    about: 'Sequential echo calls over the in-memory pair; heap used after a full GC at checkpoints. Growth per call is the least-squares slope over the checkpoints.',
    metrics: [
      { id: 'heap-mb', label: 'heap after the calls', unit: 'MB', better: 'lower' },
      { id: 'growth', label: 'heap growth per call', unit: 'B', better: 'lower' },
    ],
    async run(impl, settings) {
      const { result } = await runWorkerProcess<{ heapAfterBytes: number; growthBytesPerCall: number }>(
        harnessScript('workers/memory.js'),
        { impl, ...settings.memory },
        { nodeFlags: ['--expose-gc'], timeoutMs: 600_000 },
      );
      return { values: { 'heap-mb': result.heapAfterBytes / 2 ** 20, growth: result.growthBytesPerCall } };
    },
  },
  ...LOAD_SCENARIOS,
];
