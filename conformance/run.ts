/**
 * Runs the MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json)
 * against mcpgen: every server scenario against the everything server and every client scenario
 * with the conformance client, strictly one scenario at a time, per protocol revision. Then
 * drives the everything server with the MCP Inspector's CLI.
 *
 * Server scenarios of a revision run as one sequential `conformance server --suite all
 * --spec-version R` against one everything server on a free port: the suite's server mode runs
 * its scenarios one after the other and writes one checks.json per scenario, and one process
 * instead of one per scenario saves about a second of CPU per scenario (the CLI's start-up).
 * Client scenarios run one CLI invocation each (the suite's client suite mode is parallel, which
 * upsets the timing of sse-retry), as do extension scenarios and runs narrowed with --only.
 *
 * Sections: 2025-03-26, 2025-06-18 and 2025-11-25 (the stateful era), 2026-07-28 (the
 * stateless era), the extension scenarios, which the suite runs at the
 * revision it picks for them, and the tasks extension's server scenarios once more against
 * conformance/tasks-docs-server.ts, a server written from docs/tasks.md alone. Which scenarios belong to a revision comes from the suite itself
 * (`conformance list`: a scenario applies from the revision that introduced it until the one
 * that removed it). Authorization-server scenarios are out of scope: they test OAuth servers.
 *
 * Results are compared with conformance/expected-failures.json. An unlisted failure, a listed
 * scenario that passes, an entry without a reason or for a scenario that did not run, and a
 * failed Inspector check all make the run exit non-zero. Logs and checks.json of every scenario
 * are kept under .cache/conformance/results/.
 *
 * A scenario passes only when it is verified: at least one of its checks succeeded other than
 * the suite's wire-schema check (which passes for any well-formed traffic, a feature the peer
 * does not declare included). A scenario whose checks were all skipped, or that passed the
 * schema check alone, is "not verified"; it fails the run unless the file's `$notVerified` map
 * names it with a reason (a scenario whose checks the suite itself skips).
 *
 * Usage: tsx conformance/run.ts [--section NAME[,NAME]] [--only TEXT] [--no-inspector]
 * The suite's CLI and the Inspector run on Node 22 (cached by node22.ts); this script, the
 * everything server and the conformance client run on the Node that runs this script.
 */
import { spawn, execFile } from 'node:child_process';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { statefulRevisions } from '../runtime/index.js';
import { startEverythingServer } from './everything-server.js';
import { startTasksDocsServer } from './tasks-docs-server.js';
import { runInspectorSmoke, type InspectorCheck } from './inspector.js';
import { ensureNode22 } from './node22.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORK = path.join(ROOT, '.cache/conformance');
const NODE22_CACHE = path.join(ROOT, '.cache/node22');
const SUITE_DIR = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance');
const SUITE_VERSION = '0.2.0-alpha.12';
const EXPECTED_FAILURES_FILE = path.join(ROOT, 'conformance/expected-failures.json');
/** The suite stops a scenario after 30 s itself; this only guards against a wedged CLI. */
const CLI_KILL_MS = 120_000;
/** A batch of server scenarios gets ten minutes (the suite stops each scenario after 30 s). */
const BATCH_KILL_MS = 600_000;

type Role = 'server' | 'client';

interface Section {
  readonly name: string;
  /** Passed as --spec-version; undefined lets the suite pick (extension scenarios). */
  readonly specVersion: string | undefined;
  readonly title: string;
  /** Runs only these server scenarios, against this server instead of the everything server. */
  readonly against?: { readonly scenarios: RegExp; readonly start: (onerror: (error: Error) => void) => Promise<{ url: URL; close(): Promise<void> }> };
}

const SECTIONS: readonly Section[] = [
  { name: '2025-03-26', specVersion: '2025-03-26', title: 'revision 2025-03-26' },
  { name: '2025-06-18', specVersion: '2025-06-18', title: 'revision 2025-06-18' },
  { name: '2025-11-25', specVersion: '2025-11-25', title: 'revision 2025-11-25' },
  { name: '2026-07-28', specVersion: '2026-07-28', title: 'revision 2026-07-28 (stateless era)' },
  { name: 'extensions', specVersion: undefined, title: 'extension scenarios (at the revision the suite picks for them)' },
  {
    name: 'tasks-docs',
    specVersion: undefined,
    title: 'tasks scenarios against conformance/tasks-docs-server.ts (written from docs/tasks.md)',
    // tasks-status-notifications is left out: the suite skips its one check itself, and the
    // extensions section already reports it (as not verified) for the everything server.
    against: { scenarios: /^tasks-(?!status-notifications$)/, start: (onerror) => startTasksDocsServer(0, onerror) },
  },
];

/** A scenario as `conformance list` prints it: its name and the revisions it applies to, or `extension`. */
interface CatalogEntry {
  readonly role: Role;
  readonly name: string;
  readonly tags: readonly string[];
}

/** `unverified`: not verified, as `$notVerified` allows; `UNVERIFIED`: not verified, unexpectedly. */
type Verdict = 'pass' | 'FAIL' | 'xfail' | 'XPASS' | 'unverified' | 'UNVERIFIED';

interface Outcome {
  readonly section: string;
  readonly role: Role;
  readonly scenario: string;
  /** Passed and verified (see {@link verifiedChecks}). */
  readonly passed: boolean;
  readonly verdict: Verdict;
  readonly checks: string;
  /** Succeeded checks other than the wire-schema check. */
  readonly verified: number;
  readonly note: string;
  /** Undefined for scenarios run in a batch. */
  readonly seconds: number | undefined;
}

type ScenarioReasons = Record<string, Partial<Record<Role, Record<string, string>>>>;
/** The file: sections of expected failures, and `$notVerified`, the scenarios allowed to pass unverified. */
type ExpectedFailures = ScenarioReasons & { $notVerified?: ScenarioReasons };

interface Options {
  readonly sections: ReadonlySet<string> | undefined;
  readonly only: string | undefined;
  readonly inspector: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  let sections: Set<string> | undefined;
  let only: string | undefined;
  let inspector = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--section') {
      sections = new Set((argv[++i] ?? '').split(',').filter(Boolean));
      const unknown = [...sections].filter((name) => !SECTIONS.some((section) => section.name === name));
      if (unknown.length > 0) throw new Error(`unknown section(s) ${unknown.join(', ')}; known: ${SECTIONS.map((s) => s.name).join(', ')}`);
    } else if (arg === '--only') {
      only = argv[++i];
    } else if (arg === '--no-inspector') {
      inspector = false;
    } else {
      throw new Error(`unknown argument ${arg}`);
    }
  }
  return { sections, only, inspector };
}

const execFileAsync = promisify(execFile);

/** Parses `conformance list`: "Server scenarios" / "Client scenarios" headings, then "  - name [tags]". */
async function loadCatalog(node22: string): Promise<CatalogEntry[]> {
  const { stdout } = await execFileAsync(node22, [path.join(SUITE_DIR, 'dist/index.js'), 'list'], { cwd: ROOT, maxBuffer: 4 * 1024 * 1024 });
  const entries: CatalogEntry[] = [];
  let role: Role | undefined;
  for (const line of stdout.split('\n')) {
    if (/^Server scenarios/.test(line)) role = 'server';
    else if (/^Client scenarios/.test(line)) role = 'client';
    else if (/^\S/.test(line)) role = undefined; // e.g. authorization-server scenarios: out of scope
    const match = /^\s+- (\S+) \[([^\]]*)\]/.exec(line);
    if (match !== null && role !== undefined) {
      entries.push({ role, name: match[1]!, tags: match[2]!.split(',').map((tag) => tag.trim()) });
    }
  }
  if (entries.length === 0) throw new Error(`conformance list printed no scenarios:\n${stdout}`);
  return entries;
}

function scenariosOf(catalog: readonly CatalogEntry[], section: Section, role: Role): string[] {
  const tag = section.specVersion ?? 'extension';
  const against = section.against;
  return catalog
    .filter((entry) => entry.role === role && entry.tags.includes(tag) && (against === undefined || (role === 'server' && against.scenarios.test(entry.name))))
    .map((entry) => entry.name);
}

async function loadExpectedFailures(): Promise<ExpectedFailures> {
  return JSON.parse(await readFile(EXPECTED_FAILURES_FILE, 'utf8')) as ExpectedFailures;
}

/** Problems with the file itself: unknown sections or roles, and entries without a reason. */
function lintExpectedFailures(expected: ExpectedFailures): string[] {
  const lint = (map: ScenarioReasons, label: string): string[] => {
    const problems: string[] = [];
    for (const [section, roles] of Object.entries(map)) {
      if (section.startsWith('$')) continue; // $comment, $notVerified
      if (!SECTIONS.some((known) => known.name === section)) problems.push(`${label}: unknown section "${section}"`);
      for (const [role, entries] of Object.entries(roles ?? {})) {
        if (role !== 'server' && role !== 'client') problems.push(`${label}: unknown role "${section}.${role}"`);
        for (const [scenario, reason] of Object.entries(entries ?? {})) {
          if (typeof reason !== 'string' || reason.trim() === '') problems.push(`${label}: ${section} ${role} ${scenario} has no reason`);
        }
      }
    }
    return problems;
  };
  return [...lint(expected, 'expected-failures'), ...lint(expected.$notVerified ?? {}, 'expected-failures $notVerified')];
}

/** Each entry of a reasons map as section, role and scenario. */
function entriesOf(map: ScenarioReasons): Array<{ section: string; role: string; scenario: string }> {
  return Object.entries(map)
    .filter(([section]) => !section.startsWith('$'))
    .flatMap(([section, roles]) => Object.entries(roles ?? {}).flatMap(([role, entries]) => Object.keys(entries ?? {}).map((scenario) => ({ section, role, scenario }))));
}

interface ChecksSummary {
  readonly counts: Readonly<Record<string, number>>;
  readonly failing: readonly string[];
  /** Succeeded checks other than the wire-schema ones. */
  readonly verified: number;
}

/**
 * The suite's wire-schema checks: every message validated against the revision's schema. They
 * succeed for any well-formed traffic, so on their own they verify no feature.
 */
const SCHEMA_CHECKS: ReadonlySet<string> = new Set(['wire-schema-valid', 'wire-schema-harness-error']);

async function findFile(dir: string, name: string): Promise<string | undefined> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return full;
    if (entry.isDirectory()) {
      const found = await findFile(full, name);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

async function readChecks(dir: string): Promise<ChecksSummary | undefined> {
  const file = await findFile(dir, 'checks.json');
  if (file === undefined) return undefined;
  const checks = JSON.parse(await readFile(file, 'utf8')) as Array<{ id: string; status: string }>;
  const counts: Record<string, number> = {};
  for (const check of checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
  const failing = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING').map((check) => `${check.id}${check.status === 'WARNING' ? ' (warning)' : ''}`);
  const verified = checks.filter((check) => check.status === 'SUCCESS' && !SCHEMA_CHECKS.has(check.id)).length;
  return { counts, failing: [...new Set(failing)], verified };
}

/** Why a scenario that passed is not verified: every check skipped, or the schema check alone. */
function unverifiedWhy(summary: ChecksSummary): string {
  return (summary.counts.SUCCESS ?? 0) === 0 ? 'every check was skipped' : 'only the wire-schema check succeeded, nothing of the feature was exercised';
}

function describeChecks(summary: ChecksSummary | undefined): string {
  if (summary === undefined) return 'no checks';
  const { counts } = summary;
  const parts = [`${counts.SUCCESS ?? 0} ok`];
  if (counts.FAILURE) parts.push(`${counts.FAILURE} failed`);
  if (counts.WARNING) parts.push(`${counts.WARNING} warn`);
  if (counts.SKIPPED) parts.push(`${counts.SKIPPED} skipped`);
  return `${parts.join(', ')} (${summary.verified} verified)`;
}

/** Runs the suite's CLI once; resolves with its exit code and combined output. */
function runCli(node22: string, args: readonly string[], killAfterMs: number): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(node22, [path.join(SUITE_DIR, 'dist/index.js'), ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const killer = setTimeout(() => {
      output += `\n[runner] killed after ${killAfterMs} ms\n`;
      child.kill('SIGKILL');
    }, killAfterMs);
    child.on('error', (error) => {
      clearTimeout(killer);
      resolve({ code: -1, output: `${output}\n[runner] ${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code: code ?? -1, output });
    });
  });
}

interface RunContext {
  readonly node22: string;
  readonly clientCommand: string;
  readonly expected: ExpectedFailures;
  readonly problems: string[];
}

/** A scenario's verdict before the expected-failures list is consulted. */
interface RawResult {
  readonly passed: boolean;
  readonly summary: ChecksSummary | undefined;
  /** Why it failed, when it did. */
  readonly why: string;
  readonly log: string;
  readonly seconds: number | undefined;
}

function judge(context: RunContext, section: Section, role: Role, scenario: string, raw: RawResult): Outcome {
  const reason = context.expected[section.name]?.[role]?.[scenario];
  const allowed = context.expected.$notVerified?.[section.name]?.[role]?.[scenario];
  const verified = raw.summary?.verified ?? 0;
  const unverified = raw.passed && verified === 0;
  const passed = raw.passed && verified > 0;
  let verdict: Verdict;
  if (reason !== undefined) verdict = passed ? 'XPASS' : 'xfail';
  else if (unverified) verdict = allowed === undefined ? 'UNVERIFIED' : 'unverified';
  else verdict = passed ? 'pass' : 'FAIL';
  let note = '';
  if (verdict === 'unverified') note = `not verified (${unverifiedWhy(raw.summary!)}): ${allowed!}`;
  else if (verdict === 'UNVERIFIED') note = `not verified: ${unverifiedWhy(raw.summary!)} — see ${path.relative(ROOT, raw.log)}`;
  else if (verdict === 'xfail') note = reason!;
  else if (verdict === 'XPASS') note = 'passes but is listed in expected-failures.json: remove the entry';
  else if (verdict === 'FAIL') note = `${raw.why} — see ${path.relative(ROOT, raw.log)}`;
  if (passed && allowed !== undefined) note = 'verified but listed in $notVerified of expected-failures.json: remove the entry';
  return { section: section.name, role, scenario, passed, verdict, checks: describeChecks(raw.summary), verified, note, seconds: raw.seconds };
}

async function freshDir(...parts: string[]): Promise<string> {
  const dir = path.join(WORK, 'results', ...parts);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  return dir;
}

function versionArgs(section: Section): string[] {
  return section.specVersion === undefined ? [] : ['--spec-version', section.specVersion];
}

/**
 * Serves the everything server on a free port for the duration of `body`; its errors go to the
 * log. In a stateful revision's section the server negotiates nothing newer than that revision:
 * the suite's stateful harness always offers the newest revision it knows, so without the cap
 * every section would run at 2025-11-25 and only be validated against the older schema.
 */
async function withEverythingServer<T>(section: Section, body: (url: URL) => Promise<T>): Promise<{ value: T; errors: string[] }> {
  const errors: string[] = [];
  const capped = section.specVersion !== undefined && statefulRevisions.includes(section.specVersion);
  const server = section.against !== undefined ? await section.against.start((error) => errors.push(error.message)) : await startEverythingServer({
    onerror: (error) => errors.push(error.message),
    ...(capped ? { maxRevision: section.specVersion } : {}),
  });
  try {
    return { value: await body(server.url), errors };
  } finally {
    await server.close();
  }
}

async function writeLog(file: string, output: string, serverErrors: readonly string[]): Promise<void> {
  await writeFile(file, serverErrors.length === 0 ? output : `${output}\n[everything server errors]\n${serverErrors.join('\n')}\n`);
}

/** Runs one scenario with its own CLI invocation; the CLI's exit code is the verdict. */
async function runOne(context: RunContext, section: Section, role: Role, scenario: string): Promise<RawResult> {
  const started = performance.now();
  const dir = await freshDir(section.name, role, scenario.replaceAll('/', '__'));
  let result: { code: number; output: string };
  let serverErrors: string[] = [];
  if (role === 'server') {
    const served = await withEverythingServer(section, (url) =>
      runCli(context.node22, ['server', '--url', url.href, '--scenario', scenario, ...versionArgs(section), '-o', dir], CLI_KILL_MS),
    );
    result = served.value;
    serverErrors = served.errors;
  } else {
    result = await runCli(context.node22, ['client', '--command', context.clientCommand, '--scenario', scenario, ...versionArgs(section), '-o', dir], CLI_KILL_MS);
  }
  const log = path.join(dir, 'run.log');
  await writeLog(log, result.output, serverErrors);
  const summary = await readChecks(dir);
  const skipped = /SKIPPED: scenario '/.test(result.output);
  const passed = result.code === 0 && !skipped && summary !== undefined;
  const why = skipped ? 'the suite skipped it' : summary === undefined ? `no checks.json (exit ${result.code})` : summary.failing.join(', ') || `exit ${result.code}`;
  return { passed, summary, why, log, seconds: (performance.now() - started) / 1000 };
}

/** The result directories `conformance server -o DIR` writes: `server-<scenario>-<timestamp>`. */
const SERVER_RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/**
 * Runs a revision's server scenarios in one sequential suite invocation. A scenario passes when
 * its checks.json has no FAILURE, the rule the CLI applies to a single server scenario.
 */
async function runServerBatch(context: RunContext, section: Section, scenarios: readonly string[]): Promise<Map<string, RawResult>> {
  const dir = await freshDir(section.name, 'server');
  const served = await withEverythingServer(section, (url) =>
    runCli(context.node22, ['server', '--url', url.href, '--suite', 'all', ...versionArgs(section), '-o', dir], BATCH_KILL_MS),
  );
  const log = path.join(dir, 'run.log');
  await writeLog(log, served.value.output, served.errors);
  const produced = new Map<string, string>();
  for (const entry of await readdir(dir)) {
    const match = SERVER_RESULT_DIR.exec(entry);
    if (match !== null) produced.set(match[1]!, path.join(dir, entry));
  }
  for (const scenario of produced.keys()) {
    if (!scenarios.includes(scenario)) context.problems.push(`${section.name}: the suite ran server scenario ${scenario}, which the catalog does not list for this revision`);
  }
  const results = new Map<string, RawResult>();
  for (const scenario of scenarios) {
    const resultDir = produced.get(scenario);
    const summary = resultDir === undefined ? undefined : await readChecks(resultDir);
    const failed = summary?.counts.FAILURE ?? 0;
    const passed = summary !== undefined && failed === 0;
    const why = summary === undefined ? `no checks.json (suite exit ${served.value.code})` : summary.failing.filter((id) => !id.endsWith('(warning)')).join(', ');
    results.set(scenario, { passed, summary, why, log: resultDir === undefined ? log : path.join(resultDir, 'checks.json'), seconds: undefined });
  }
  return results;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function printOutcome(outcome: Outcome): void {
  const columns = [pad(outcome.role, 6), pad(outcome.scenario, 46), pad(outcome.verdict, 10), pad(outcome.checks, 40), pad(outcome.seconds === undefined ? '' : `${outcome.seconds.toFixed(1)}s`, 6)];
  process.stdout.write(`  ${columns.join(' ')} ${outcome.note}`.trimEnd() + '\n');
}

/** Esbuild bundles of the client and the stdio server: plain `node file.mjs` starts far faster than tsx. */
async function bundleEntryPoints(): Promise<{ client: string; server: string }> {
  const outdir = path.join(WORK, 'bin');
  await rm(outdir, { recursive: true, force: true });
  const esbuild = path.join(ROOT, 'node_modules/.bin/esbuild');
  await execFileAsync(
    esbuild,
    [
      'conformance/client.ts',
      'conformance/everything-server.ts',
      '--bundle',
      '--format=esm',
      '--platform=node',
      '--target=node20',
      `--outdir=${outdir}`,
      '--out-extension:.js=.mjs',
      '--log-level=warning',
    ],
    { cwd: ROOT },
  );
  return { client: path.join(outdir, 'client.mjs'), server: path.join(outdir, 'everything-server.mjs') };
}

/**
 * The scenarios a revision's frozen requirement set (requirements/<revision>.yaml in the suite)
 * scores, per role; undefined when the suite has no set for that revision. The file is a plain
 * YAML list under `server:` and `client:`, read line by line.
 */
async function requiredScenarios(revision: string): Promise<Record<Role, string[]> | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(SUITE_DIR, 'requirements', `${revision}.yaml`), 'utf8');
  } catch {
    return undefined;
  }
  const required: Record<Role, string[]> = { server: [], client: [] };
  let role: Role | undefined;
  for (const line of text.split('\n')) {
    const key = /^(\w+):/.exec(line);
    if (key !== null) role = key[1] === 'server' || key[1] === 'client' ? key[1] : undefined;
    const item = /^ {2}- (\S+)\s*$/.exec(line);
    if (item !== null && role !== undefined) required[role].push(item[1]!);
  }
  return required;
}

async function checkSuiteVersion(): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(SUITE_DIR, 'package.json'), 'utf8')) as { version: string };
  if (manifest.version !== SUITE_VERSION) {
    throw new Error(`@modelcontextprotocol/conformance is ${manifest.version}, expected ${SUITE_VERSION} (run npm ci)`);
  }
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  await checkSuiteVersion();
  const node22 = await ensureNode22(NODE22_CACHE, (line) => process.stdout.write(`${line}\n`));
  const bundles = await bundleEntryPoints();
  // The suite splits --command on spaces and runs it through a shell.
  const clientCommand = `${process.execPath} ${bundles.client}`;
  if (/[\s'"$`\\]/.test(process.execPath + bundles.client)) {
    throw new Error(`paths with spaces or shell characters cannot go into the suite's --command: ${clientCommand}`);
  }
  const expected = await loadExpectedFailures();
  const problems = lintExpectedFailures(expected);
  const catalog = await loadCatalog(node22);
  const context: RunContext = { node22, clientCommand, expected, problems };

  process.stdout.write(`MCP conformance suite ${SUITE_VERSION} on Node ${(await execFileAsync(node22, ['--version'])).stdout.trim()}; mcpgen on Node ${process.version}\n`);
  const outcomes: Outcome[] = [];
  const ran = new Set<string>();
  const sectionSeconds = new Map<string, number>();
  process.stdout.write(`set-up (Node 22, bundles, catalog): ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  for (const section of SECTIONS) {
    if (options.sections !== undefined && !options.sections.has(section.name)) continue;
    const sectionStarted = performance.now();
    process.stdout.write(`\n== ${section.title}\n`);
    for (const role of ['server', 'client'] as const) {
      const scenarios = scenariosOf(catalog, section, role).filter((scenario) => options.only === undefined || scenario.includes(options.only));
      const batch = role === 'server' && section.specVersion !== undefined && options.only === undefined && scenarios.length > 1;
      const roleStarted = performance.now();
      const batched = batch ? await runServerBatch(context, section, scenarios) : undefined;
      for (const scenario of scenarios) {
        ran.add(`${section.name}/${role}/${scenario}`);
        const raw = batched?.get(scenario) ?? (await runOne(context, section, role, scenario));
        const outcome = judge(context, section, role, scenario, raw);
        outcomes.push(outcome);
        printOutcome(outcome);
      }
      if (batched !== undefined) {
        process.stdout.write(`  (${scenarios.length} server scenarios in one sequential suite run: ${((performance.now() - roleStarted) / 1000).toFixed(1)} s)\n`);
      }
    }
    sectionSeconds.set(section.name, (performance.now() - sectionStarted) / 1000);
  }

  // Entries for scenarios that did not run are stale (renamed, removed, or the wrong section).
  const filtered = options.sections !== undefined || options.only !== undefined;
  for (const [section, roles] of Object.entries(expected)) {
    if (section.startsWith('$')) continue;
    for (const [role, entries] of Object.entries(roles ?? {})) {
      for (const scenario of Object.keys(entries ?? {})) {
        const selected = (options.sections === undefined || options.sections.has(section)) && (options.only === undefined || scenario.includes(options.only));
        if (!ran.has(`${section}/${role}/${scenario}`) && (!filtered || selected)) {
          problems.push(`expected-failures: ${section} ${role} ${scenario} did not run (no such scenario in that section)`);
        }
      }
    }
  }

  // An allowance to pass unverified that did not run, or whose scenario is verified now, is stale.
  for (const { section, role, scenario } of entriesOf(expected.$notVerified ?? {})) {
    const outcome = outcomes.find((o) => o.section === section && o.role === role && o.scenario === scenario);
    const selected = (options.sections === undefined || options.sections.has(section)) && (options.only === undefined || scenario.includes(options.only));
    if (outcome === undefined && (!filtered || selected)) problems.push(`expected-failures $notVerified: ${section} ${role} ${scenario} did not run (no such scenario in that section)`);
    if (outcome?.passed === true) problems.push(`expected-failures $notVerified: ${section} ${role} ${scenario} is verified now: remove the entry`);
  }

  let inspector: InspectorCheck[] = [];
  const inspectorStarted = performance.now();
  if (options.inspector) {
    process.stdout.write('\n== MCP Inspector CLI smoke test (Node 22)\n');
    const http = await startEverythingServer({ onerror: () => undefined });
    try {
      inspector = await runInspectorSmoke({
        root: ROOT,
        node22,
        workDir: path.join(WORK, 'inspector'),
        stdioServer: [process.execPath, bundles.server, '--stdio'],
        httpUrl: http.url,
      });
    } finally {
      await http.close();
    }
    sectionSeconds.set('inspector', (performance.now() - inspectorStarted) / 1000);
    for (const check of inspector) {
      process.stdout.write(`  ${pad(check.name, 53)} ${pad(check.ok ? 'pass' : 'FAIL', 5)} ${pad(`${check.seconds.toFixed(1)}s`, 6)} ${check.ok ? '' : check.detail}`.trimEnd() + '\n');
    }
  }

  process.stdout.write('\n== Totals (scenarios)\n');
  for (const section of SECTIONS) {
    const mine = outcomes.filter((outcome) => outcome.section === section.name);
    if (mine.length === 0) continue;
    const count = (verdict: Verdict): number => mine.filter((outcome) => outcome.verdict === verdict).length;
    const passed = mine.filter((outcome) => outcome.passed).length;
    const unverified = count('unverified') + count('UNVERIFIED');
    process.stdout.write(
      `  ${pad(section.name, 11)} ${pad(`${(sectionSeconds.get(section.name) ?? 0).toFixed(0)} s`, 6)} ${pad(`${passed} verified, ${unverified} not verified, ${mine.length - passed - unverified} failed`, 40)} expected failures ${count('xfail')}, unexpected failures ${count('FAIL')}, unexpected passes ${count('XPASS')}, unexpectedly not verified ${count('UNVERIFIED')}\n`,
    );
  }
  for (const section of SECTIONS) {
    const required = section.specVersion === undefined ? undefined : await requiredScenarios(section.specVersion);
    if (required === undefined || !outcomes.some((outcome) => outcome.section === section.name)) continue;
    const score = (role: Role): string => {
      const passed = required[role].filter((scenario) => outcomes.some((o) => o.section === section.name && o.role === role && o.scenario === scenario && o.passed));
      return `${role} ${passed.length}/${required[role].length}`;
    };
    process.stdout.write(`  ${pad(section.name, 11)} required by the suite's ${section.specVersion} requirement set: ${score('server')}, ${score('client')} passed\n`);
  }
  if (inspector.length > 0) {
    const ok = inspector.filter((check) => check.ok).length;
    process.stdout.write(`  ${pad('inspector', 11)} ${pad(`${(sectionSeconds.get('inspector') ?? 0).toFixed(0)} s`, 6)} ${ok} passed, ${inspector.length - ok} failed\n`);
  }
  for (const problem of problems) process.stdout.write(`  ${problem}\n`);

  const unexpected = outcomes.filter((outcome) => outcome.verdict === 'FAIL' || outcome.verdict === 'XPASS' || outcome.verdict === 'UNVERIFIED');
  const inspectorFailures = inspector.filter((check) => !check.ok);
  for (const outcome of unexpected) {
    process.stdout.write(`  unexpected: ${outcome.section} ${outcome.role} ${outcome.scenario}: ${outcome.verdict} ${outcome.note}\n`);
  }
  const verifiedTotal = outcomes.filter((outcome) => outcome.passed).length;
  const inspectorPassed = inspector.filter((check) => check.ok).length;
  const expectedTotal = outcomes.filter((outcome) => outcome.verdict === 'xfail').length;
  const notVerified = outcomes.filter((outcome) => outcome.verdict === 'unverified' || outcome.verdict === 'UNVERIFIED');
  // The closing note: each scenario with the checks that verified it, a section per line.
  process.stdout.write('\n== Verified checks per scenario\n');
  for (const section of SECTIONS) {
    const mine = outcomes.filter((outcome) => outcome.section === section.name);
    if (mine.length > 0) process.stdout.write(`  ${section.name}: ${mine.map((outcome) => `${outcome.role === 'client' ? 'client ' : ''}${outcome.scenario} ${outcome.verified}`).join(', ')}\n`);
  }
  // The closing line counts what the run judges: only verified scenarios count as passed;
  // unexpected results fail it; scenarios listed in the expected-failures file (each with its
  // reason) are reported as skipped, not as failures.
  const failedTotal = unexpected.length + inspectorFailures.length + problems.length;
  const ok = failedTotal === 0;
  process.stdout.write(
    `\nconformance ${ok ? 'OK' : 'FAILED'} in ${((performance.now() - started) / 1000).toFixed(0)} s; ${expectedTotal} scenarios fail as listed in conformance/expected-failures.json and are counted as skipped\n`,
  );
  const notVerifiedNames = notVerified.map((outcome) => `${outcome.section} ${outcome.role} ${outcome.scenario}`).join(', ');
  process.stdout.write(
    `${verifiedTotal} scenarios passed (verified), ${notVerified.length} not verified${notVerified.length > 0 ? ` (${notVerifiedNames})` : ''}, ${inspectorPassed} Inspector checks passed, ${failedTotal} failed, ${expectedTotal} skipped\n`,
  );
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
