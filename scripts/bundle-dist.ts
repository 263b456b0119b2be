// Bundles the compiled entries (dist/runtime, dist/generated) into dist/esm, the JavaScript the
// package ships. Node spends most of an import resolving, reading and linking modules one by
// one: the root entry is about a hundred small modules compiled. All entries are bundled in one
// pass with code splitting, so a module two entries share lives in one chunk and keeps one
// identity (`instanceof SdkError` holds across `mcpgen` and `mcpgen/node`), and a revision the
// root loads lazily is the very chunk its pinned entry (`mcpgen/2025-11-25`) is. The chunks the
// root imports statically are then merged into one (scripts/merge-root-chunks.ts), so the root
// loads a few files instead of about thirty.
//
// Usage: tsx scripts/bundle-dist.ts [distDir]   (default: dist)
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { mergeRootChunks } from './merge-root-chunks.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the bundles go inside dist/, mirroring the compiled layout beneath it. */
export const BUNDLE_DIR = 'esm';

/**
 * Entries (compiled files under dist/) that a program uses without the root entry: their chunks
 * stay out of the root's merged hub (scripts/merge-root-chunks.ts), so they load no more code.
 */
export const STANDALONE_ENTRIES = ['runtime/features/auth-server/index.js'];

interface PackageJson {
  exports: Record<string, { default: string }>;
  bin?: Record<string, string>;
}

/** The compiled file each shipped path is bundled from: `./dist/esm/x.js` ← `dist/x.js`. */
export function bundleSources(pkg: PackageJson, distDir: string): string[] {
  const prefix = `./dist/${BUNDLE_DIR}/`;
  const shipped = [...Object.values(pkg.exports).map((entry) => entry.default), ...Object.values(pkg.bin ?? {})];
  return [...new Set(shipped)].map((file) => {
    if (!file.startsWith(prefix)) throw new Error(`package.json ships ${file}, which is not under ${prefix}`);
    return path.join(distDir, file.slice(prefix.length));
  });
}

async function main(): Promise<void> {
  const distDir = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist'));
  const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;
  const started = performance.now();
  const result = await build({
    entryPoints: bundleSources(pkg, distDir),
    outbase: distDir,
    outdir: path.join(distDir, BUNDLE_DIR),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    // Dependencies (the optional peers) and Node's built-ins stay imports, resolved where the
    // package is installed.
    packages: 'external',
    external: ['node:*'],
    chunkNames: 'chunks/[name]-[hash]',
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'warning',
    metafile: true,
  });
  const outputs = Object.entries(result.metafile.outputs);
  const bytes = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
  const rootSource = path.relative(process.cwd(), path.join(distDir, 'runtime/index.js'));
  const rootOutput = outputs.find(([, output]) => output.entryPoint === rootSource)?.[0];
  if (rootOutput === undefined) throw new Error(`bundle-dist: no output for the root entry ${rootSource}`);
  const standalone = STANDALONE_ENTRIES.map((file) => path.relative(process.cwd(), path.join(distDir, file)));
  const merged = await mergeRootChunks(result.metafile, rootOutput, process.cwd(), { target: 'es2022', standalone });
  console.log(`bundle-dist: ${outputs.length} files, ${Math.round(bytes / 1024)} KB, ${merged} of the root's chunks merged into one, ${Math.round(performance.now() - started)} ms`);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
