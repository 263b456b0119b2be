import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from './paths.js';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

interface CpuProfile {
  readonly nodes: readonly { readonly id: number; readonly callFrame: CallFrame }[];
  /** Monotonic clock, µs. */
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** One function's share of a profile. */
export interface HotFunction {
  readonly function: string;
  /** Source location, relative to the repository where it is inside it. */
  readonly location: string;
  readonly selfMs: number;
  /** Share of the non-idle samples. */
  readonly selfPercent: number;
}

/** Where the time of a profile went: its top functions by self time, and by area. */
export interface ProfileSummary {
  /** Which process: e.g. `client`, `server`. */
  readonly process: string;
  readonly totalMs: number;
  readonly top: readonly HotFunction[];
  /** Self time grouped by area (mcpgen runtime, generated validators, node internals, GC…). */
  readonly areas: readonly { readonly area: string; readonly selfPercent: number }[];
}

function location(frame: CallFrame): string {
  if (frame.url === '') return '';
  let path = frame.url;
  // The benchmark runs mcpgen from its snapshot of dist/ (bench/.out/dist); name it dist/.
  if (path.startsWith('file://')) path = relative(repoRoot, fileURLToPath(path)).replace(/^bench\/\.out\/dist\//, 'dist/');
  return `${path}:${frame.lineNumber + 1}`;
}

function areaOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  if (url.includes('/dist/esm/')) return 'mcpgen (bundled: runtime and generated)';
  if (url.includes('/dist/generated/')) return 'mcpgen generated (validators, tables)';
  if (url.includes('/dist/runtime/')) return 'mcpgen runtime';
  if (url.includes('/bench/')) return 'benchmark harness';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return pkg === null ? 'other' : pkg[1]!;
}

/**
 * Summarises a V8 .cpuprofile: self time per function (idle excluded) and per area, counting
 * only samples inside `window` (monotonic µs) when one is given.
 */
export function summarizeProfile(file: string, processName: string, window?: { startUs: number; endUs: number }, topCount = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map<number, CallFrame>();
  for (const node of profile.nodes) frames.set(node.id, node.callFrame);
  const selfByKey = new Map<string, { frame: CallFrame; micros: number }>();
  const byArea = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (window !== undefined && (at < window.startUs || at > window.endUs)) continue;
    const frame = frames.get(profile.samples[i]!);
    // timeDeltas[i] is the time before sample i; the next delta is the time spent in it.
    const micros = profile.timeDeltas[i + 1] ?? 0;
    if (frame === undefined || frame.functionName === '(idle)') continue;
    total += micros;
    const key = `${frame.functionName}|${frame.url}|${frame.lineNumber}`;
    const entry = selfByKey.get(key);
    if (entry === undefined) selfByKey.set(key, { frame, micros });
    else entry.micros += micros;
    const area = areaOf(frame);
    byArea.set(area, (byArea.get(area) ?? 0) + micros);
  }
  const percent = (micros: number): number => (total === 0 ? 0 : (100 * micros) / total);
  const top = [...selfByKey.values()]
    .sort((a, b) => b.micros - a.micros)
    .slice(0, topCount)
    .map(({ frame, micros }) => ({
      function: frame.functionName === '' ? '(anonymous)' : frame.functionName,
      location: location(frame),
      selfMs: micros / 1000,
      selfPercent: percent(micros),
    }));
  const areas = [...byArea.entries()].sort((a, b) => b[1] - a[1]).map(([area, micros]) => ({ area, selfPercent: percent(micros) }));
  return { process: processName, totalMs: total / 1000, top, areas };
}

/** The .cpuprofile files V8 wrote into `dir`, by file name. */
export function profilesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort()
    .map((name) => join(dir, name));
}
