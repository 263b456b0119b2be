/**
 * esbuild bundles of code that imports the installed package, for the two non-Node targets:
 * `browser` (platform browser) and `workers` (platform neutral with the `worker` and `browser`
 * conditions, as Cloudflare's tooling resolves). Entry files are copied into the consumer
 * project first, so `mcpgen` resolves to the installed tarball and nothing else.
 */
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type BuildOptions } from 'esbuild';

/** Where a bundle is meant to run. */
export type BundleTarget = 'browser' | 'workers';

/** A bundle and what it weighs. */
export interface Bundle {
  readonly code: string;
  readonly bytes: number;
  /** Size after gzip at level 9. */
  readonly gzipBytes: number;
}

/** Copies `file` into `projectDir/<folder>/` and returns the copy's path. */
export async function stageEntry(projectDir: string, file: string, folder = 'entries'): Promise<string> {
  const dir = path.join(projectDir, folder);
  await mkdir(dir, { recursive: true });
  const copy = path.join(dir, path.basename(file));
  await cp(file, copy);
  return copy;
}

/** esbuild options of a target. */
export function targetOptions(target: BundleTarget): BuildOptions {
  return target === 'browser'
    ? { platform: 'browser' }
    : { platform: 'neutral', conditions: ['worker', 'browser'], mainFields: ['browser', 'module', 'main'] };
}

/** Bundles `entry` (an ES module) for `target`; a `node:` import fails the build itself. */
export async function bundle(entry: string, target: BundleTarget, options: { minify?: boolean; format?: 'esm' | 'iife' } = {}): Promise<Bundle> {
  const [only] = await bundleEach([entry], target, options);
  return only!;
}

/** Bundles each of `entries` on its own, in one esbuild run; results in the order given. */
export async function bundleEach(entries: readonly string[], target: BundleTarget, options: { minify?: boolean; format?: 'esm' | 'iife' } = {}): Promise<Bundle[]> {
  const outdir = path.join(path.dirname(entries[0]!), 'out');
  const result = await build({
    entryPoints: entries.map((entry, index) => ({ in: entry, out: `bundle-${index}` })),
    absWorkingDir: path.dirname(entries[0]!),
    outdir,
    bundle: true,
    write: false,
    format: options.format ?? 'esm',
    target: 'es2022',
    minify: options.minify ?? true,
    legalComments: 'none',
    logLevel: 'silent',
    ...targetOptions(target),
  });
  return entries.map((_, index) => {
    const file = result.outputFiles!.find((output) => output.path === path.join(outdir, `bundle-${index}.js`))!;
    const code = file.text;
    return { code, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code, { level: 9 }).length };
  });
}

/** What a bundle must not contain: Node built-ins and code generated from strings at run time. */
export function forbiddenConstructs(code: string): string[] {
  const patterns: [string, RegExp][] = [
    ['node: import', /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'`]node:/],
    ['eval(', /(?<![\w$])eval\s*\(/],
    ['new Function', /(?<![\w$.])(?:new\s+)?Function\s*\(/],
  ];
  return patterns.filter(([, pattern]) => pattern.test(code)).map(([name]) => name);
}
