/**
 * The package as users get it: a fresh build of runtime/ and generated/ staged beside a copy of
 * package.json, packed with `npm pack`, and installed from the tarball into a throwaway project
 * (a real copy in node_modules, no workspace link). dist/ is reused when `make build` left it
 * newer than every source (as in CI), and compiled into the stage otherwise. Built once per source state and kept under
 * $TMPDIR/mcpgen-packed-<uid>/<hash>, so the package tests and the runtime tests share one tarball and a rerun
 * with unchanged sources costs nothing. Test processes run in parallel, so a lock directory makes
 * exactly one of them do the work while the others wait for it.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Outside the checkout: Node and TypeScript look for packages in every node_modules up the tree,
// and the repository's own would let a missing dependency go unnoticed.
const CACHE = path.join(tmpdir(), `mcpgen-packed-${process.getuid?.() ?? 'user'}`);
/** Inputs of the package: a change to any of them means a new build. */
const INPUT_DIRS = ['runtime', 'generated'];
/** Shipped as they are (the guides and examples the README links to): inputs of the tarball, not of the build. */
const SHIPPED_DIRS = ['docs', 'examples'];
const INPUT_FILES = ['package.json', 'README.md', 'LICENSE', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle-dist.ts', 'scripts/merge-root-chunks.ts'];
/** A lock older than this belongs to a process that died mid-build. */
const STALE_LOCK_MS = 5 * 60_000;

/** One file of `npm pack --json`. */
export interface PackedFile {
  readonly path: string;
  readonly size: number;
}

/** What `npm pack --json` reports about a tarball. */
export interface PackReport {
  readonly name: string;
  readonly version: string;
  readonly filename: string;
  /** Compressed size in bytes. */
  readonly size: number;
  readonly unpackedSize: number;
  readonly entryCount: number;
  readonly files: readonly PackedFile[];
}

/** The packed package, installed. */
export interface PackedProject {
  /** The throwaway project with mcpgen in node_modules. */
  readonly projectDir: string;
  /** The installed package (projectDir/node_modules/mcpgen). */
  readonly packageDir: string;
  readonly tarball: string;
  readonly pack: PackReport;
  /** The package.json inside the tarball. */
  readonly manifest: PackageManifest;
}

/** The fields of package.json the tests read. */
export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly exports: Record<string, unknown>;
  readonly files?: readonly string[];
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  readonly devDependencies?: Record<string, string>;
  readonly bin?: Record<string, string> | string;
  readonly engines?: Record<string, string>;
  readonly sideEffects?: boolean | readonly string[];
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name)).sort();
}

/** A hash of every input of the build, so the cache key changes with any source edit. */
async function inputHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = [...INPUT_FILES.map((file) => path.join(ROOT, file))];
  for (const dir of [...INPUT_DIRS, ...SHIPPED_DIRS]) files.push(...(await listFiles(path.join(ROOT, dir))));
  for (const file of files) {
    if (!(await exists(file))) continue;
    hash.update(path.relative(ROOT, file)).update('\0').update(await readFile(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

async function acquireLock(lock: string, done: string): Promise<boolean> {
  for (;;) {
    if (await exists(done)) return false;
    try {
      await mkdir(lock);
      return true;
    } catch {
      const since = await stat(lock).then((info) => Date.now() - info.mtimeMs, () => 0);
      if (since > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

async function compile(stage: string): Promise<void> {
  await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', path.join(stage, 'dist')], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => {
    throw new Error(`the build failed:\n${error.stdout ?? String(error)}`);
  });
  // The shipped entries, bundled from what tsc emitted as `make build` does.
  await run(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), path.join(ROOT, 'scripts/bundle-dist.ts'), path.join(stage, 'dist')], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** True when dist/ was compiled after the last change to any source (as `make build` leaves it). */
async function distIsFresh(): Promise<boolean> {
  const dist = path.join(ROOT, 'dist');
  if (!(await exists(path.join(dist, 'esm/runtime/index.js')))) return false;
  const outputs = await listFiles(dist);
  if (outputs.length === 0) return false;
  const inputs = ['tsconfig.json', 'tsconfig.build.json', 'scripts/bundle-dist.ts', 'scripts/merge-root-chunks.ts'].map((file) => path.join(ROOT, file));
  for (const dir of INPUT_DIRS) inputs.push(...(await listFiles(path.join(ROOT, dir))));
  const mtime = async (file: string) => (await stat(file)).mtimeMs;
  const newestInput = Math.max(...(await Promise.all(inputs.map(mtime))));
  const oldestOutput = Math.min(...(await Promise.all(outputs.map(mtime))));
  if (oldestOutput <= newestInput) return false;
  const compiled = new Set(outputs.map((file) => path.relative(dist, file)));
  return inputs
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.startsWith(path.join(ROOT, 'scripts')))
    .every((file) => compiled.has(path.relative(ROOT, file).replace(/\.ts$/, '.js')));
}

async function build(dir: string): Promise<void> {
  const stage = path.join(dir, 'stage');
  await rm(dir, { recursive: true, force: true });
  await mkdir(stage, { recursive: true });
  // What npm would pack from the repository: package.json, the files npm always includes, and
  // dist/ compiled the way `make build` compiles it (into the stage, so the repo's dist/ is left alone).
  for (const file of ['package.json', 'README.md', 'LICENSE', ...SHIPPED_DIRS]) {
    if (await exists(path.join(ROOT, file))) await cp(path.join(ROOT, file), path.join(stage, file), { recursive: true });
  }
  if (await distIsFresh()) {
    // `make` has just built dist/ from these very sources (CI does so before the tests).
    await cp(path.join(ROOT, 'dist'), path.join(stage, 'dist'), { recursive: true });
  } else {
    await compile(stage);
  }
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: stage, maxBuffer: 64 * 1024 * 1024 });
  const [report] = JSON.parse(stdout) as PackReport[];
  if (report === undefined) throw new Error('npm pack reported nothing');
  await writeFile(path.join(dir, 'pack.json'), JSON.stringify(report, null, 2));
  const project = path.join(dir, 'project');
  await mkdir(project);
  await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'mcpgen-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2));
  // A plain install of the tarball, as a user would do it; the registry is asked for nothing
  // unless the package declares dependencies.
  await run('npm', ['install', path.join(dir, report.filename), '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline'], {
    cwd: project,
    maxBuffer: 64 * 1024 * 1024,
  });
}

let pending: Promise<PackedProject> | undefined;

/** Builds, packs and installs the package (or reuses the cached result for these sources). */
export function packedProject(): Promise<PackedProject> {
  pending ??= preparePackedProject();
  return pending;
}

async function preparePackedProject(): Promise<PackedProject> {
  await mkdir(CACHE, { recursive: true });
  const key = await inputHash();
  const dir = path.join(CACHE, key);
  const done = path.join(dir, '.done');
  const lock = path.join(CACHE, `${key}.lock`);
  if (await acquireLock(lock, done)) {
    try {
      if (!(await exists(done))) {
        await build(dir);
        await writeFile(done, new Date().toISOString());
      }
      // Earlier source states are of no further use.
      for (const entry of await readdir(CACHE)) {
        if (entry !== key && !entry.endsWith('.lock') && !(await exists(path.join(CACHE, `${entry}.lock`)))) {
          await rm(path.join(CACHE, entry), { recursive: true, force: true });
        }
      }
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
  const pack = JSON.parse(await readFile(path.join(dir, 'pack.json'), 'utf8')) as PackReport;
  const projectDir = path.join(dir, 'project');
  const packageDir = path.join(projectDir, 'node_modules', pack.name);
  const manifest = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as PackageManifest;
  return { projectDir, packageDir, tarball: path.join(dir, pack.filename), pack, manifest };
}

/** The import specifiers of every subpath in an exports map (`.` is the bare name); wildcards are left out. */
export function exportedSpecifiers(manifest: PackageManifest): string[] {
  return Object.keys(manifest.exports)
    .filter((key) => key.startsWith('.') && !key.includes('*'))
    .map((key) => (key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`));
}
