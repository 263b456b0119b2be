// The targets, held as ratios to the same run's official SDKs and floors.
import type { CallTransport, ImplName } from './types.js';

/** How to profile mcpgen when it misses a target. */
export type ProfilePlan =
  | { readonly kind: 'calls'; readonly transport: CallTransport }
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
}

const VALIDATION = [
  ['CallToolRequest', 'validation-request'],
  ['CallToolResult (10 text items)', 'validation-result'],
  ['ListToolsResult (100 tools)', 'validation-list'],
  ['invalid CallToolRequest (error path)', 'validation-invalid'],
] as const;

export const TARGETS: readonly TargetSpec[] = [
  { id: 'memory-cpu-seq', title: 'In-memory CPU per call, sequential: ≤ 1/10 of v2', scenario: 'memory', metric: 'seq-cpu', versus: 'v2', op: '<=', goal: 0.1, profile: { kind: 'calls', transport: 'memory' } },
  { id: 'memory-cpu-c64', title: 'In-memory CPU per call, 64 in flight: ≤ 1/10 of v2', scenario: 'memory', metric: 'c64-cpu', versus: 'v2', op: '<=', goal: 0.1, profile: { kind: 'calls', transport: 'memory' } },
  { id: 'stdio-seq', title: 'stdio calls/s, sequential: ≥ 0.7× floor', scenario: 'stdio', metric: 'seq-cps', versus: 'floor', op: '>=', goal: 0.7, profile: { kind: 'calls', transport: 'stdio' } },
  { id: 'stdio-c64', title: 'stdio calls/s, 64 in flight: ≥ 0.7× floor', scenario: 'stdio', metric: 'c64-cps', versus: 'floor', op: '>=', goal: 0.7, profile: { kind: 'calls', transport: 'stdio' } },
  { id: 'http-stateful-seq', title: 'HTTP stateful calls/s, sequential: ≥ 0.8× floor', scenario: 'http-stateful', metric: 'seq-cps', versus: 'floor', op: '>=', goal: 0.8, profile: { kind: 'calls', transport: 'http-stateful' } },
  { id: 'http-stateful-c64', title: 'HTTP stateful calls/s, 64 in flight: ≥ 0.8× floor', scenario: 'http-stateful', metric: 'c64-cps', versus: 'floor', op: '>=', goal: 0.8, profile: { kind: 'calls', transport: 'http-stateful' } },
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
  { id: 'pinned-bundle', title: 'Minimal stdio server pinned to 2025-11-25, minified: ≤ 100 KB', scenario: 'footprint', metric: 'server-pinned-bundle', versus: null, op: '<=', goal: 100, unit: 'KB', profile: { kind: 'bundle' } },
  { id: 'heap-growth', title: 'Heap growth per call: none (≤ 1 B/call)', scenario: 'heap', metric: 'growth', versus: null, op: '<=', goal: 1, unit: 'B/call', profile: { kind: 'none' } },
];
