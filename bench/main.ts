// The benchmark orchestrator: `make bench` (full) and `make bench-quick` (smoke run).
//
// Every repetition of every scenario runs each implementation in fresh processes, in
// alternating order (mcpgen, v2, v1, floor, then the reverse), so that no implementation
// always runs first or last. Results: bench/results/results.{json,md} (full) or
// bench/results/quick.{json,md} (quick). Exits 1 when any scenario failed to produce numbers.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ClockWindow } from './lib/call-loop.js';
import { measureFootprint, type FootprintResult } from './lib/footprint.js';
import { hasHttpAdapter } from './lib/load-impl.js';
import { distSnapshot, distUrl, repoRoot, resultsDir } from './lib/paths.js';
import { profilesIn, summarizeProfile } from './lib/profile.js';
import { renderMarkdown, type ImplMetric, type ProfileReport, type Results, type ScenarioReport, type TargetReport } from './lib/report.js';
import { ENTRIES, importMs, runCalls, SCENARIOS } from './lib/scenarios.js';
import type { Outcome, ProfileRequest, Scenario } from './lib/scenario.js';
import { FULL, QUICK, type Settings } from './lib/settings.js';
import { median, pairedRatio, summarize } from './lib/stats.js';
import { TARGETS, type ProfilePlan, type TargetSpec } from './lib/targets.js';
import { IMPLEMENTATIONS, type ImplName } from './lib/types.js';

interface Cli {
  readonly settings: Settings;
  readonly only: readonly string[] | undefined;
  /** Re-evaluate the targets of the last full run instead of measuring. */
  readonly retarget: boolean;
}

function parseCli(argv: readonly string[]): Cli {
  let settings: Settings = argv.includes('--quick') ? QUICK : FULL;
  let only: string[] | undefined;
  let retarget = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--quick') continue;
    else if (arg === '--retarget') retarget = true;
    else if (arg === '--reps') settings = { ...settings, reps: Math.max(1, Number(value())) };
    else if (arg === '--only') only = value().split(',');
    else if (arg === '--parallel') settings = { ...settings, parallel: Math.max(1, Number(value())) };
    else if (arg === '--profile') settings = { ...settings, profile: true };
    else if (arg === '--no-profile') settings = { ...settings, profile: false };
    else if (arg === '--no-footprint') settings = { ...settings, footprint: false };
    else if (arg === '--load-seconds') settings = { ...settings, load: { ...settings.load, durationMs: Math.max(0.1, Number(value())) * 1000 } };
    else throw new Error(`unknown option ${arg}; options: --quick --reps N --parallel N --only a,b --profile --no-profile --no-footprint --load-seconds S --retarget`);
  }
  return { settings, only, retarget };
}

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

function version(pkg: string): string {
  const file = join(repoRoot, 'node_modules', pkg, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : 'missing';
}

function gitCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'runtime', 'generated', 'codegen'], { cwd: repoRoot, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit} + uncommitted changes to runtime/generated/codegen` : commit;
  } catch {
    return 'unknown';
  }
}

function orderFor(rep: number): readonly ImplName[] {
  return rep % 2 === 0 ? IMPLEMENTATIONS : [...IMPLEMENTATIONS].reverse();
}

function firstValue(outcome: Outcome, scenario: Scenario): string {
  if ('unavailable' in outcome) return 'n/a';
  const metric = scenario.metrics[0]!;
  const value = outcome.values[metric.id];
  return typeof value === 'number' ? `${value.toPrecision(3)} ${metric.unit}` : '—';
}

interface ScenarioState {
  readonly scenario: Scenario;
  readonly values: Map<ImplName, Map<string, (number | null)[]>>;
  readonly unavailable: Map<ImplName, string>;
}

function newState(scenario: Scenario, reps: number): ScenarioState {
  const values = new Map<ImplName, Map<string, (number | null)[]>>();
  for (const impl of IMPLEMENTATIONS) values.set(impl, new Map(scenario.metrics.map((metric) => [metric.id, Array<number | null>(reps).fill(null)])));
  return { scenario, values, unavailable: new Map() };
}

/** The highest 1-minute load average seen before any run. */
let peakLoad = 0;

/** Runs one implementation's repetition of a scenario and records its numbers. */
async function runJob(state: ScenarioState, impl: ImplName, rep: number, settings: Settings, errors: Results['errors']): Promise<void> {
  const { scenario } = state;
  peakLoad = Math.max(peakLoad, loadavg()[0]!);
  const started = performance.now();
  const where = `${scenario.id} rep ${rep + 1}/${settings.reps} ${impl}`;
  try {
    const outcome = await scenario.run(impl, settings);
    if ('unavailable' in outcome) state.unavailable.set(impl, outcome.unavailable);
    else for (const metric of scenario.metrics) state.values.get(impl)!.get(metric.id)![rep] = outcome.values[metric.id] ?? null;
    log(`  ${where}: ${firstValue(outcome, scenario)} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push({ scenario: scenario.id, impl, rep, message });
    log(`  ${where}: FAILED ${message.split('\n').join('\n    ')}`);
  }
}

/** Runs `tasks` with at most `concurrency` at a time, in order of the list. */
async function runPool(tasks: readonly (() => Promise<void>)[], concurrency: number): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
}

function report(state: ScenarioState): ScenarioReport {
  const { scenario } = state;
  return {
    id: scenario.id,
    title: scenario.title,
    about: scenario.about,
    metrics: scenario.metrics.map((metric) => {
      const of = (impl: ImplName): (number | null)[] => state.values.get(impl)!.get(metric.id)!;
      const perImpl = {} as Record<ImplName, ImplMetric>;
      for (const impl of IMPLEMENTATIONS) perImpl[impl] = { values: of(impl), summary: summarize(of(impl)), unavailable: state.unavailable.get(impl) };
      return {
        ...metric,
        perImpl,
        ratios: { v2: pairedRatio(of('mcpgen'), of('v2')), v1: pairedRatio(of('mcpgen'), of('v1')), floor: pairedRatio(of('mcpgen'), of('floor')) },
      };
    }),
  };
}

function evaluateTarget(
  spec: TargetSpec,
  scenarios: readonly ScenarioReport[],
  footprint: FootprintResult | undefined,
  footprintRan: boolean,
  failedRuns: Results['errors'],
): TargetReport {
  const base = { id: spec.id, title: spec.title, goal: `${spec.op} ${spec.goal}${spec.versus === null ? ` ${spec.unit ?? ''}` : '×'}` };
  const decide = (value: number): 'met' | 'missed' => ((spec.op === '<=' ? value <= spec.goal : value >= spec.goal) ? 'met' : 'missed');
  if (spec.scenario === 'footprint') {
    if (footprint === undefined) return { ...base, status: 'n/a', note: footprintRan ? 'the footprint scenario failed (see the failed runs)' : 'footprint runs only in the full benchmark' };
    const ours = footprint.mcpgen[spec.bundle ?? 'serverPinnedBundle'];
    if (ours === undefined) return { ...base, status: 'n/a', note: 'bundle not measured' };
    const bytes = spec.metric === 'totalBytes' || spec.metric === 'totalRatio' ? ours.totalBytes : ours.bytes;
    if (spec.versus !== null) {
      // One footprint run: the ratio to v2's server bundle (one file: v2 has no lazy chunks), not paired by repetition.
      const theirs = footprint.v2.serverBundle.singleFileBytes;
      const ratio = bytes / theirs;
      return { ...base, ratio: { median: ratio, min: ratio, max: ratio, spread: 0, n: 1 }, versus: 'v2', status: decide(ratio) };
    }
    const kb = bytes / 1000;
    return { ...base, value: kb, unit: 'KB', status: decide(kb) };
  }
  const scenario = scenarios.find((candidate) => candidate.id === spec.scenario);
  const metric = scenario?.metrics.find((candidate) => candidate.id === spec.metric);
  if (metric === undefined) return { ...base, status: 'n/a', note: 'scenario not run' };
  const mcpgen = metric.perImpl.mcpgen;
  if (mcpgen.unavailable !== undefined) return { ...base, status: 'n/a', note: mcpgen.unavailable };
  // A failed run of a correctness scenario (its check threw) misses the target rather than leaving it open.
  const failed = spec.strict === true ? failedRuns.filter((run) => run.scenario === spec.scenario && run.impl === 'mcpgen').length : 0;
  const noNumbers = (): TargetReport =>
    failed > 0 ? { ...base, status: 'missed', note: `${failed} run(s) of mcpgen failed (see the failed runs)` } : { ...base, status: 'n/a', note: 'no numbers' };
  // Another metric that must be 0 in every repetition (e.g. errors under load).
  const zeroValues = spec.requireZero === undefined ? [] : (scenario!.metrics.find((candidate) => candidate.id === spec.requireZero)?.perImpl.mcpgen.values ?? []);
  const nonZero = zeroValues.reduce<number>((sum, value) => sum + (value ?? 0), 0);
  const decideAll = (value: number): 'met' | 'missed' => (nonZero > 0 || failed > 0 ? 'missed' : decide(value));
  const extra = nonZero > 0 ? { note: `${nonZero} ${spec.requireZero} in mcpgen's runs` } : failed > 0 ? { note: `${failed} run(s) of mcpgen failed` } : {};
  if (spec.versus === null) {
    const value = mcpgen.summary?.median;
    return value === undefined ? noNumbers() : { ...base, value, unit: spec.unit ?? '', status: decideAll(value), ...extra };
  }
  const ratio = pairedRatio(mcpgen.values, metric.perImpl[spec.versus].values);
  if (ratio === undefined) return noNumbers();
  const also = spec.alsoVersus === undefined ? undefined : pairedRatio(mcpgen.values, metric.perImpl[spec.alsoVersus].values);
  return {
    ...base,
    ratio,
    versus: spec.versus,
    ...(also !== undefined && spec.alsoVersus !== undefined ? { also: { versus: spec.alsoVersus, ratio: also } } : {}),
    status: decideAll(ratio.median),
    ...extra,
  };
}

function planKey(plan: ProfilePlan): string {
  return plan.kind === 'calls' ? `calls:${plan.transport}${plan.era === undefined ? '' : `:${plan.era}`}` : plan.kind === 'scenario' ? `scenario:${plan.scenario}` : plan.kind;
}

/** Profiles mcpgen for one missed target: re-runs its scenario once with V8's CPU profiler on. */
async function profileMcpgen(plan: ProfilePlan, settings: Settings, footprint: FootprintResult | undefined): Promise<Omit<ProfileReport, 'targets'> | undefined> {
  if (plan.kind === 'none') return undefined;
  if (plan.kind === 'bundle') {
    const inputs = footprint?.mcpgen.serverPinnedBundle?.topInputs ?? [];
    return { what: 'What fills the pinned server bundle (esbuild metafile, bytes in the minified output)', processes: [], bundleInputs: inputs };
  }
  const dir = mkdtempSync(join(tmpdir(), 'mcpgen-bench-profile-'));
  const request: ProfileRequest = { dir };
  try {
    let what: string;
    let importParts: { module: string; ms: number }[] | undefined;
    let window: ClockWindow | undefined;
    if (plan.kind === 'calls') {
      const era = plan.era ?? 'default';
      what = `tools/call echo over ${plan.transport}${era === 'default' ? '' : `, mcpgen's client pinned to ${era}`}, one run with --cpu-prof, cut to the measured phases (warm-up and start-up excluded)`;
      const outcome = await runCalls(plan.transport, 'mcpgen', settings, request, era);
      window = 'window' in outcome ? outcome.window : undefined;
    } else if (plan.kind === 'scenario') {
      const scenario = SCENARIOS.find((candidate) => candidate.id === plan.scenario)!;
      what = `${scenario.title}, one run with --cpu-prof, cut to the measured loops`;
      const outcome = await scenario.run('mcpgen', settings, request);
      window = 'window' in outcome ? outcome.window : undefined;
    } else {
      what = 'import of the client entry with --cpu-prof, and the import time of its parts (each in a fresh process, median of 3)';
      await importMs(ENTRIES.mcpgen.client(), request, 'mcpgen-client-import');
      importParts = [];
      // The compiled modules one by one, then the shipped bundles: what bundling saves.
      for (const part of ['generated/2025-11-25/validators.js', 'generated/2026-07-28/validators.js', 'generated/2025-11-25/index.js', 'runtime/index.js', 'esm/generated/2025-11-25/index.js', 'esm/runtime/index.js']) {
        const times: number[] = [];
        for (let i = 0; i < 3; i++) times.push(await importMs(distUrl(part)));
        importParts.push({ module: `dist/${part}`, ms: median(times) });
      }
    }
    // A server process writes its profile as it exits, which can trail the worker's own exit.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const processName = (file: string): string =>
      /server/.test(file) ? 'server process' : plan.kind === 'calls' && plan.transport === 'memory' ? 'client and server (one process)' : plan.kind === 'calls' ? 'client process' : 'measuring process';
    const processes = profilesIn(dir).map((file) => summarizeProfile(file, processName(file), window));
    return { what, processes, ...(importParts !== undefined ? { importParts } : {}) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Evaluates today's targets on the numbers of the last full run (results/results.json) and
 * rewrites its files; nothing is measured. A target whose scenario that run lacked is n/a.
 */
function retargetLastRun(): void {
  const file = join(resultsDir, 'results.json');
  const last = JSON.parse(readFileSync(file, 'utf8')) as Results;
  const targets = TARGETS.map((spec) => evaluateTarget(spec, last.scenarios, last.footprint, last.footprint !== undefined, last.errors));
  const results: Results = { ...last, meta: { ...last.meta, retargeted: new Date().toISOString() }, targets };
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(resultsDir, 'results.md'), renderMarkdown(results));
  log(renderTargetsOnly(results));
  log('Rewrote the targets of bench/results/results.json and bench/results/results.md');
}

function renderTargetsOnly(results: Results): string {
  const markdown = renderMarkdown(results);
  return markdown.slice(markdown.indexOf('## Targets'), markdown.indexOf('\n## ', markdown.indexOf('## Targets') + 1));
}

async function main(): Promise<void> {
  const { settings, only, retarget } = parseCli(process.argv.slice(2));
  if (retarget) {
    retargetLastRun();
    return;
  }
  if (!existsSync(join(repoRoot, 'dist', 'runtime', 'index.js'))) throw new Error('dist/ is missing: run `make build` first');
  // Every run of this benchmark loads mcpgen from one snapshot of dist/ (see distUrl).
  rmSync(distSnapshot, { recursive: true, force: true });
  cpSync(join(repoRoot, 'dist'), distSnapshot, { recursive: true, filter: (source) => !source.endsWith('.d.ts') });
  const started = new Date();
  const loadAtStart = loadavg();
  log(`mcpgen benchmark, ${settings.mode} run: ${settings.reps} repetition(s), node ${process.version}, ${cpus().length} CPUs, load ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}`);
  if (loadAtStart[0]! > cpus().length * 0.75) log(`warning: the machine is busy (1-min load ${loadAtStart[0]!.toFixed(2)} on ${cpus().length} CPUs); numbers will be noisy`);
  if (!hasHttpAdapter('mcpgen')) log('note: no bench/http/mcpgen.ts yet, so mcpgen HTTP is n/a');

  const errors: Results['errors'] = [];
  const states = SCENARIOS.filter((scenario) => only === undefined || only.includes(scenario.id)).map((scenario) => newState(scenario, settings.reps));
  const tasks: (() => Promise<void>)[] = [];
  for (const state of states) {
    // Titles only make sense when runs go one at a time; parallel log lines name their scenario.
    if (settings.parallel === 1) tasks.push(async () => log(`\n${state.scenario.title}`));
    for (let rep = 0; rep < settings.reps; rep++) {
      for (const impl of orderFor(rep)) tasks.push(() => runJob(state, impl, rep, settings, errors));
    }
  }
  await runPool(tasks, settings.parallel);
  const scenarios = states.map(report);

  let footprint: FootprintResult | undefined;
  const footprintRan = settings.footprint && (only === undefined || only.includes('footprint'));
  if (footprintRan) {
    log('\n6. Footprint');
    try {
      footprint = await measureFootprint(log);
    } catch (error) {
      errors.push({ scenario: 'footprint', impl: 'mcpgen', rep: 0, message: error instanceof Error ? error.message : String(error) });
      log(`  failed: ${String(error)}`);
    }
  }

  const targets = TARGETS.map((spec) => evaluateTarget(spec, scenarios, footprint, footprintRan, errors));
  const profiles: ProfileReport[] = [];
  if (settings.profile) {
    const missed = TARGETS.filter((spec) => targets.find((target) => target.id === spec.id)?.status === 'missed');
    const plans = new Map<string, { plan: ProfilePlan; targets: string[] }>();
    for (const spec of missed) {
      const key = planKey(spec.profile);
      const entry = plans.get(key) ?? { plan: spec.profile, targets: [] };
      entry.targets.push(spec.id);
      plans.set(key, entry);
    }
    if (plans.size > 0) log('\nProfiling mcpgen where it missed a target');
    for (const { plan, targets: ids } of plans.values()) {
      try {
        const report = await profileMcpgen(plan, settings, footprint);
        if (report !== undefined) profiles.push({ targets: ids, ...report });
        log(`  ${ids.join(', ')}: done`);
      } catch (error) {
        errors.push({ scenario: `profile ${planKey(plan)}`, impl: 'mcpgen', rep: 0, message: error instanceof Error ? error.message : String(error) });
        log(`  ${ids.join(', ')}: profiling failed: ${String(error)}`);
      }
    }
  }

  const results: Results = {
    meta: {
      date: started.toISOString(),
      durationSeconds: Math.round((Date.now() - started.getTime()) / 1000),
      mode: settings.mode,
      reps: settings.reps,
      commit: gitCommit(),
      node: process.version,
      cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
      cores: cpus().length,
      loadAverage: { start: loadAtStart, end: loadavg(), peak: Math.max(peakLoad, loadAtStart[0]!) },
      versions: {
        mcpgen: (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version,
        '@modelcontextprotocol/server': version('@modelcontextprotocol/server'),
        '@modelcontextprotocol/client': version('@modelcontextprotocol/client'),
        '@modelcontextprotocol/sdk': version('@modelcontextprotocol/sdk'),
        '@modelcontextprotocol/node': existsSync(join(repoRoot, 'bench', 'node_modules', '@modelcontextprotocol', 'node', 'package.json'))
          ? (JSON.parse(readFileSync(join(repoRoot, 'bench', 'node_modules', '@modelcontextprotocol', 'node', 'package.json'), 'utf8')) as { version: string }).version
          : 'missing',
        zod: version('zod'),
        ajv: version('ajv'),
        esbuild: version('esbuild'),
      },
    },
    settings,
    scenarios,
    ...(footprint !== undefined ? { footprint } : {}),
    targets,
    profiles,
    errors,
  };
  mkdirSync(resultsDir, { recursive: true });
  const name = only !== undefined ? 'partial' : settings.mode === 'full' ? 'results' : 'quick';
  const markdown = renderMarkdown(results);
  writeFileSync(join(resultsDir, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(resultsDir, `${name}.md`), markdown);
  log(`\n${markdown}`);
  log(`Wrote bench/results/${name}.json and bench/results/${name}.md`);
  if (errors.length > 0) {
    log(`${errors.length} job(s) failed to produce numbers`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
