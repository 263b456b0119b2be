import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

function findRepoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'mcpgen') {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('bench: cannot find the mcpgen repository root above the harness');
    dir = parent;
  }
}

/** The repository root (the folder of mcpgen's package.json). */
export const repoRoot = findRepoRoot();
/** Where `make bench` puts the compiled harness: bench/**\/*.ts → bench/.out/**\/*.js. */
export const benchOut = join(repoRoot, 'bench', '.out');
/** Where results are written. */
export const resultsDir = join(repoRoot, 'bench', 'results');

/** Absolute path of a compiled harness file, e.g. `workers/calls.js`. */
export function harnessScript(relative: string): string {
  return join(benchOut, relative);
}

/**
 * mcpgen's compiled output as the benchmark runs it: the snapshot of dist/ the orchestrator takes
 * when it starts (so a rebuild during a long run cannot mix two builds), else dist/ itself.
 */
export const distSnapshot = join(benchOut, 'dist');

/** File URL of a file in mcpgen's compiled output, e.g. `runtime/index.js`. */
export function distUrl(relative: string): string {
  const base = existsSync(join(distSnapshot, 'esm', 'runtime', 'index.js')) ? distSnapshot : join(repoRoot, 'dist');
  return pathToFileURL(join(base, relative)).href;
}

/** File URL of a harness module, for dynamic imports whose name is only known at run time. */
export function harnessUrl(relative: string): string {
  return pathToFileURL(harnessScript(relative)).href;
}
