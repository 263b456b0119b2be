// The issues' targets, held as ratios to the same run's official SDKs and floors.
import type { CallTransport, ClientEra, ImplName } from './types.js';

/** How to profile mcpgen when it misses a target. */
export type ProfilePlan =
  | { readonly kind: 'calls'; readonly transport: CallTransport; readonly era?: ClientEra }
  | { readonly kind: 'scenario'; readonly scenario: string }
  | { readonly kind: 'import' }
  | { readonly kind: 'bundle' }
  | { readonly kind: 'none' };

export interface TargetSpec {
  readonly id: string;
  readonly title: string;
  /** Scenario and metric the target reads (`footprint` reads the footprint result). */
  readonly scenario: string;
  readonly metric: string;
  /** mcpgen / versus, paired by repetition; null for a target on mcpgen's own value. */
  readonly versus: ImplName | null;
  readonly op: '<=' | '>=';
  readonly goal: number;
  /** Unit of an absolute goal. */
  readonly unit?: string;
  /** Another implementation to report the ratio to, for information. */
  readonly alsoVersus?: ImplName;
  readonly profile: ProfilePlan;
  /** A metric of the same scenario that must be 0 in every repetition of mcpgen for the target to be met (e.g. errors). */
  readonly requireZero?: string;
  /** Any failed run of mcpgen in the scenario misses the target: for correctness runs, which fail on what they check. */
  readonly strict?: boolean;
  /** For footprint targets: which bundle, and whether the goal is a ratio to v2's server bundle. */
  readonly bundle?: 'serverPinnedBundle' | 'workerPinnedBundle' | 'serverBundle';
}

const VALIDATION = [
  ['CallToolRequest', 'validation-request'],
  ['CallToolResult (10 text items)', 'validation-result'],
  ['ListToolsResult (100 tools)', 'validation-list'],
  ['invalid CallToolRequest (error path)', 'validation-invalid'],
] as const;

/** The scenario of a call transport in an era (the pinned era has its own in memory and over stdio). */
function callScenarioId(transport: 'memory' | 'stdio', era: ClientEra): string {
  return era === 'default' ? transport : `${transport}-${era}`;
}

const ERA_NAMES: Readonly<Record<ClientEra, string>> = { default: 'default era (2026-07-28)', '2025-11-25': 'pinned to 2025-11-25' };

/** Issue 22: in memory and over stdio, each in both of mcpgen's client eras. */
const PER_ERA = (
  [
    ['memory-cpu-seq', 'memory', 'seq-cpu', 'In-memory CPU per call, sequential', 'v2', '<=', 0.05],
    ['memory-cpu-c64', 'memory', 'c64-cpu', 'In-memory CPU per call, 64 in flight', 'v2', '<=', 0.05],
    ['stdio-seq', 'stdio', 'seq-cps', 'stdio calls/s, sequential', 'floor', '>=', 0.85],
    ['stdio-c64', 'stdio', 'c64-cps', 'stdio calls/s, 64 in flight', 'floor', '>=', 0.75],
  ] as const
).flatMap(([id, transport, metric, what, versus, op, goal]) =>
  (['default', '2025-11-25'] as const).map((era): TargetSpec => ({
    id: era === 'default' ? id : `${id}-${era}`,
    title: `${what}, ${ERA_NAMES[era]}: ${op === '<=' ? '≤' : '≥'} ${goal}× ${versus}`,
    scenario: callScenarioId(transport, era),
    metric,
    versus,
    op,
    goal,
    profile: { kind: 'calls', transport, ...(era === 'default' ? {} : { era }) },
  })),
);

/** Issue 22: HTTP with mcpgen's default client era, sequential, with and without sessions. */
const HTTP = (['stateful', 'stateless'] as const).flatMap((mode): TargetSpec[] => {
  const transport = `http-${mode}` as const;
  return [
    { id: `${transport}-server-cpu`, title: `HTTP ${mode} server CPU per call, sequential, default era: ≤ 1.5× floor`, scenario: transport, metric: 'seq-server-cpu', versus: 'floor', op: '<=', goal: 1.5, profile: { kind: 'calls', transport } },
    { id: `${transport}-seq`, title: `HTTP ${mode} calls/s, sequential, default era: ≥ 0.85× floor`, scenario: transport, metric: 'seq-cps', versus: 'floor', op: '>=', goal: 0.85, profile: { kind: 'calls', transport } },
  ];
});

export const TARGETS: readonly TargetSpec[] = [
  ...PER_ERA,
  ...HTTP,
  { id: 'cold-start', title: 'First call: spawn a stdio client and its server → first tools/call result, default era: ≤ 1.5× floor', scenario: 'cold-start', metric: 'first-result', versus: 'floor', op: '<=', goal: 1.5, alsoVersus: 'v2', profile: { kind: 'scenario', scenario: 'cold-start' } },
  { id: 'tools-list', title: 'tools/list (1,000 tools): ≤ 2× the JSON floor', scenario: 'tools-list', metric: 'ms', versus: 'floor', op: '<=', goal: 2, profile: { kind: 'scenario', scenario: 'tools-list' } },
  ...VALIDATION.map(([metric, id]): TargetSpec => ({
    id,
    title: `Validation, ${metric}: ≥ 0.5× ajv floor`,
    scenario: 'validation',
    metric,
    versus: 'floor',
    op: '>=',
    goal: 0.5,
    alsoVersus: 'v2',
    profile: { kind: 'scenario', scenario: 'validation' },
  })),
  { id: 'client-import', title: 'Client entry import time: ≤ 1/5 of v2', scenario: 'import', metric: 'client', versus: 'v2', op: '<=', goal: 0.2, profile: { kind: 'import' } },
  // The import worker times `await import()` inside a started process, so this is net of `node -e 0`.
  { id: 'root-import', title: "import('mcpgen') in a fresh process, net of node's own start: ≤ 50 ms", scenario: 'import', metric: 'client', versus: null, op: '<=', goal: 50, unit: 'ms', profile: { kind: 'import' } },
  { id: 'pinned-bundle', title: 'Minimal stdio server pinned to 2025-11-25, minified: ≤ 200 KB', scenario: 'footprint', metric: 'bytes', versus: null, op: '<=', goal: 200, unit: 'KB', bundle: 'serverPinnedBundle', profile: { kind: 'bundle' } },
  { id: 'pinned-bundle-v2', title: 'Minimal stdio server pinned to 2025-11-25: below the official v2 server (≤ 1× v2)', scenario: 'footprint', metric: 'ratio', versus: 'v2', op: '<=', goal: 1, bundle: 'serverPinnedBundle', profile: { kind: 'bundle' } },
  { id: 'pinned-worker-bundle', title: 'Minimal Worker pinned to 2025-11-25, minified: ≤ 200 KB', scenario: 'footprint', metric: 'bytes', versus: null, op: '<=', goal: 200, unit: 'KB', bundle: 'workerPinnedBundle', profile: { kind: 'bundle' } },
  { id: 'unpinned-bundle', title: 'Minimal stdio server serving every revision, minified, all chunks: ≤ 400 KB', scenario: 'footprint', metric: 'totalBytes', versus: null, op: '<=', goal: 400, unit: 'KB', bundle: 'serverBundle', profile: { kind: 'bundle' } },
  { id: 'unpinned-bundle-v2', title: 'Minimal stdio server serving every revision, all chunks: below the official v2 server (≤ 1× v2)', scenario: 'footprint', metric: 'totalRatio', versus: 'v2', op: '<=', goal: 1, bundle: 'serverBundle', profile: { kind: 'bundle' } },
  { id: 'pinned-bundle-stretch', title: 'Minimal stdio server pinned to 2025-11-25, minified: ≤ 100 KB (the goal past the issue)', scenario: 'footprint', metric: 'bytes', versus: null, op: '<=', goal: 100, unit: 'KB', bundle: 'serverPinnedBundle', profile: { kind: 'bundle' } },
  {
    id: 'load-cps',
    title: 'Load scenario (50 sessions, I/O-bound tool) calls/s: ≥ 3× v2, with no errors',
    scenario: 'load',
    metric: 'cps',
    versus: 'v2',
    op: '>=',
    goal: 3,
    requireZero: 'errors',
    alsoVersus: 'floor',
    profile: { kind: 'scenario', scenario: 'load' },
  },
  { id: 'load-10k-lost', title: '10,000 requests over 200 connections: none lost', scenario: 'load-10k', metric: 'lost', versus: null, op: '<=', goal: 0, unit: 'lost', strict: true, profile: { kind: 'none' } },
  { id: 'sse-1000-lost', title: '1,000 concurrent SSE streams: no message lost', scenario: 'sse-1000', metric: 'lost', versus: null, op: '<=', goal: 0, unit: 'lost', strict: true, profile: { kind: 'none' } },
  { id: 'heap-growth', title: 'Heap growth per call: none (≤ 1 B/call)', scenario: 'heap', metric: 'growth', versus: null, op: '<=', goal: 1, unit: 'B/call', profile: { kind: 'none' } },
];
