// The results file's shape, and its rendering as markdown.
import type { FootprintImpl, FootprintResult, InstallFootprint } from './footprint.js';
import type { ProfileSummary } from './profile.js';
import type { Metric } from './scenario.js';
import type { Settings } from './settings.js';
import type { Summary } from './stats.js';
import { IMPLEMENTATIONS, type ImplName } from './types.js';

export interface ImplMetric {
  /** One value per repetition (null where that run failed). */
  readonly values: readonly (number | null)[];
  readonly summary: Summary | undefined;
  /** Why the implementation has no numbers here (e.g. no HTTP transport yet). */
  readonly unavailable: string | undefined;
}

export interface ScenarioReport {
  readonly id: string;
  readonly title: string;
  readonly about: string;
  readonly metrics: readonly (Metric & {
    readonly perImpl: Readonly<Record<ImplName, ImplMetric>>;
    /** mcpgen ÷ each other implementation, paired repetition by repetition. */
    readonly ratios: Readonly<Record<'v2' | 'v1' | 'floor', Summary | undefined>>;
  })[];
}

export interface TargetReport {
  readonly id: string;
  readonly title: string;
  readonly goal: string;
  readonly status: 'met' | 'missed' | 'n/a';
  /** mcpgen ÷ `versus`, paired by repetition. */
  readonly ratio?: Summary;
  readonly versus?: ImplName;
  /** Reported for information: mcpgen ÷ another implementation. */
  readonly also?: { readonly versus: ImplName; readonly ratio: Summary };
  /** An absolute value (targets without a reference implementation). */
  readonly value?: number;
  readonly unit?: string;
  readonly note?: string;
}

export interface ProfileReport {
  readonly targets: readonly string[];
  readonly what: string;
  readonly processes: readonly ProfileSummary[];
  readonly importParts?: readonly { readonly module: string; readonly ms: number }[];
  readonly bundleInputs?: readonly { readonly input: string; readonly bytes: number }[];
}

export interface Results {
  readonly meta: {
    readonly date: string;
    readonly durationSeconds: number;
    readonly mode: Settings['mode'];
    readonly reps: number;
    readonly commit: string;
    readonly node: string;
    readonly cpu: string;
    readonly cores: number;
    /** 1, 5 and 15-minute load averages at the start and the end; the peak 1-minute value seen before any run. */
    readonly loadAverage: { readonly start: readonly number[]; readonly end: readonly number[]; readonly peak: number };
    readonly versions: Readonly<Record<string, string>>;
    /** When the targets were last re-evaluated on this run's numbers (`--retarget`), if they were. */
    readonly retargeted?: string;
  };
  readonly settings: Settings;
  readonly scenarios: readonly ScenarioReport[];
  readonly footprint?: FootprintResult;
  readonly targets: readonly TargetReport[];
  readonly profiles: readonly ProfileReport[];
  readonly errors: { scenario: string; impl: ImplName; rep: number; message: string }[];
}

/** Three significant digits, with k/M for large counts. */
export function formatNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${(value / 1e6).toPrecision(3)}M`;
  if (abs >= 1e4) return `${(value / 1e3).toPrecision(3)}k`;
  if (abs >= 100) return value.toFixed(0);
  // Counts (failed requests, lost messages) read as counts: 0, not 0.0.
  if (Number.isInteger(value)) return String(value);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}

function cell(summary: Summary | undefined, unavailable: string | undefined): string {
  if (unavailable !== undefined) return 'n/a';
  if (summary === undefined) return '—';
  const spread = summary.n > 1 ? ` ±${Math.round((summary.spread / 2) * 100)}%` : '';
  return `${formatNumber(summary.median)}${spread}`;
}

function ratioCell(ratio: Summary | undefined): string {
  if (ratio === undefined) return '—';
  const digits = ratio.median >= 100 ? 0 : ratio.median >= 10 ? 1 : 2;
  const range = ratio.n > 1 ? ` [${ratio.min.toFixed(digits)}–${ratio.max.toFixed(digits)}]` : '';
  return `${ratio.median.toFixed(digits)}×${range}`;
}

function kb(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} KB`;
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(2)} MB`;
}

function installCell(install: InstallFootprint): string {
  return `${install.packageCount} pkg, ${mb(install.bytes)}`;
}

function bundleCell(impl: FootprintImpl, which: 'serverPinnedBundle' | 'workerPinnedBundle' | 'serverBundle' | 'clientBundle'): string {
  const bundle = impl[which];
  if (bundle === undefined) return 'n/a (no per-revision build)';
  // Lazy chunks exist only where the program has dynamic imports; say so only then.
  const lazy = bundle.totalBytes > bundle.bytes ? `; all chunks ${kb(bundle.totalBytes)}` : '';
  return `${kb(bundle.bytes)} (${kb(bundle.gzipBytes)} gz${lazy}; one file ${kb(bundle.singleFileBytes)})`;
}

function renderFootprint(footprint: FootprintResult): string[] {
  const impls = ['mcpgen', 'v2', 'v1'] as const;
  const row = (label: string, render: (impl: FootprintImpl) => string): string => `| ${label} | ${impls.map((impl) => render(footprint[impl])).join(' | ')} |`;
  return [
    '## 6. Footprint',
    '',
    'Fresh `npm install` of what a minimal stdio server and client need (mcpgen from `npm pack` of this checkout), and esbuild bundles of the minimal programs (minified, ESM, Node; the Worker: platform neutral with the `worker` and `browser` conditions). A bundle\'s size is what the program loads to start when esbuild splits code (`--splitting`, as Rollup, Vite and webpack split a dynamic `import()` by default): mcpgen loads a revision only when first negotiated, so lazily loaded revisions sit in chunks of their own ("all chunks"); "one file" is the same program bundled without splitting. The floor needs nothing.',
    '',
    `| | ${impls.join(' | ')} |`,
    `|---|${impls.map(() => '---').join('|')}|`,
    row('installed for the server', (impl) => installCell(impl.server)),
    row('installed for the client', (impl) => installCell(impl.client)),
    row('bundle: server pinned to 2025-11-25', (impl) => bundleCell(impl, 'serverPinnedBundle')),
    row('bundle: Worker pinned to 2025-11-25', (impl) => bundleCell(impl, 'workerPinnedBundle')),
    row('bundle: server serving every revision', (impl) => bundleCell(impl, 'serverBundle')),
    row('bundle: client', (impl) => bundleCell(impl, 'clientBundle')),
    row('smoke check (client → server: tools/list, echo)', (impl) => (impl.smokeCheck.split(' / ').every((line) => line === '1 tool, ok') ? 'ok' : `unexpected: ${impl.smokeCheck}`)),
    '',
  ];
}

function renderScenario(scenario: ScenarioReport): string[] {
  const lines = [`## ${scenario.title}`, '', scenario.about, ''];
  lines.push(`| Metric | ${IMPLEMENTATIONS.join(' | ')} | mcpgen ÷ v2 | mcpgen ÷ v1 | mcpgen ÷ floor |`);
  lines.push(`|---|${IMPLEMENTATIONS.map(() => '---:').join('|')}|---:|---:|---:|`);
  for (const metric of scenario.metrics) {
    const cells = IMPLEMENTATIONS.map((impl) => cell(metric.perImpl[impl].summary, metric.perImpl[impl].unavailable));
    const unit = metric.unit === '' ? '' : ` (${metric.unit})`;
    lines.push(`| ${metric.label}${unit} | ${cells.join(' | ')} | ${ratioCell(metric.ratios.v2)} | ${ratioCell(metric.ratios.v1)} | ${ratioCell(metric.ratios.floor)} |`);
  }
  const notes = IMPLEMENTATIONS.flatMap((impl) => {
    const why = scenario.metrics[0]?.perImpl[impl].unavailable;
    return why === undefined ? [] : [`- ${impl}: ${why}`];
  });
  return [...lines, '', ...notes, ...(notes.length > 0 ? [''] : [])];
}

function renderTargets(targets: readonly TargetReport[]): string[] {
  const lines = ['## Targets', '', '| Target | mcpgen measured | Goal | Status |', '|---|---|---|---|'];
  for (const target of targets) {
    let measured: string;
    if (target.ratio !== undefined) {
      measured = `${ratioCell(target.ratio)} ${target.versus}`;
      if (target.also !== undefined) measured += `; ${ratioCell(target.also.ratio)} ${target.also.versus}`;
      if (target.note !== undefined) measured += `; ${target.note}`;
    } else if (target.value !== undefined) {
      measured = `${formatNumber(target.value)} ${target.unit ?? ''}`;
      if (target.note !== undefined) measured += `; ${target.note}`;
    } else {
      measured = target.note ?? '—';
    }
    const status = target.status === 'met' ? 'met' : target.status === 'missed' ? '**missed**' : 'n/a';
    lines.push(`| ${target.title} | ${measured} | ${target.goal} | ${status} |`);
  }
  return [...lines, ''];
}

function renderProfiles(profiles: readonly ProfileReport[]): string[] {
  if (profiles.length === 0) return [];
  const lines = ['## Profiles of missed targets', '', 'mcpgen re-run once under `node --cpu-prof`; self time by function (idle excluded), and by area.', ''];
  for (const profile of profiles) {
    lines.push(`### ${profile.targets.join(', ')}`, '', profile.what, '');
    for (const process of profile.processes) {
      lines.push(`**${process.process}** (${process.totalMs.toFixed(0)} ms on CPU). By area: ${process.areas.slice(0, 6).map((area) => `${area.area} ${area.selfPercent.toFixed(1)}%`).join(', ')}.`, '');
      lines.push('| self % | self ms | function | location |', '|---:|---:|---|---|');
      for (const fn of process.top.slice(0, 12)) lines.push(`| ${fn.selfPercent.toFixed(1)} | ${fn.selfMs.toFixed(1)} | \`${fn.function}\` | ${fn.location} |`);
      lines.push('');
    }
    if (profile.importParts !== undefined) {
      lines.push('| module imported alone | ms |', '|---|---:|');
      for (const part of profile.importParts) lines.push(`| ${part.module} | ${part.ms.toFixed(1)} |`);
      lines.push('');
    }
    if (profile.bundleInputs !== undefined) {
      lines.push('| bundle input | bytes in output |', '|---|---:|');
      for (const input of profile.bundleInputs) lines.push(`| ${input.input} | ${input.bytes.toLocaleString('en-US')} |`);
      lines.push('');
    }
  }
  return lines;
}

export function renderMarkdown(results: Results): string {
  const { meta } = results;
  const load = (values: readonly number[]): string => values.map((value) => value.toFixed(2)).join(' ');
  const lines = [
    '# mcpgen benchmark results',
    '',
    `${meta.mode === 'full' ? 'Full run' : 'Quick run (smoke check: 1 repetition, short phases, 2 runs at a time: the numbers only show that every scenario works)'} of ${meta.date}, ${meta.durationSeconds} s; commit ${meta.commit}.`,
    `Node ${meta.node} on ${meta.cpu}; load average ${load(meta.loadAverage.start)} at the start, ${load(meta.loadAverage.end)} at the end, 1-minute peak ${meta.loadAverage.peak.toFixed(2)}.`,
    `Versions: ${Object.entries(meta.versions).map(([name, value]) => `${name} ${value}`).join(', ')}.`,
    '',
    // The benchmark itself keeps up to two processes busy, so only more than that means other work.
    ...(meta.loadAverage.peak > meta.cores + 1
      ? [`**The machine was busy with other work during this run** (1-minute load average up to ${meta.loadAverage.peak.toFixed(1)} on ${meta.cores} cores): wall-clock numbers (calls/s, latency, ms) are inflated and noisy; CPU-time numbers and paired ratios hold up better.`, '']
      : []),
    ...(meta.retargeted !== undefined
      ? [`The targets below were evaluated on ${meta.retargeted}, against this run's numbers (\`--retarget\`): a target whose scenario this run lacks is n/a until the next \`make bench\`.`, '']
      : []),
    `Each cell is the median of ${meta.reps} repetition(s), each in fresh processes, implementations in alternating order; ± is half the min–max range relative to the median. Ratios are mcpgen ÷ the other implementation, computed repetition by repetition (paired), as median [min–max]. Regenerate with \`make bench\`; see bench/README.md.`,
    '',
    ...renderTargets(results.targets),
    ...results.scenarios.filter((scenario) => scenario.id !== 'heap').flatMap(renderScenario),
    ...(results.footprint !== undefined ? renderFootprint(results.footprint) : []),
    ...results.scenarios.filter((scenario) => scenario.id === 'heap').flatMap(renderScenario),
    ...renderProfiles(results.profiles),
  ];
  if (results.errors.length > 0) {
    lines.push('## Failed runs', '');
    for (const error of results.errors) lines.push(`- ${error.scenario}, ${error.impl}, repetition ${error.rep + 1}: ${error.message.split('\n')[0]}`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
