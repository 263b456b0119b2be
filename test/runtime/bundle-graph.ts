/**
 * What importing an entry runs, read from esbuild's metafile of a code-split bundle: the
 * modules of the entry's chunk and of every chunk it imports statically. Chunks reached only
 * through `import()` load when that import runs, so they are not part of it.
 */
import path from 'node:path';
import { build, type Metafile, type Platform } from 'esbuild';

/** The repository root. */
export const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A code-split, unwritten bundle of `entry` (repository-relative) and its metafile; `platform`
 * is esbuild's (`neutral` for an entry that must not need Node).
 */
export async function bundleGraph(entry: string, options: { platform?: Platform } = {}): Promise<Metafile> {
  const result = await build({
    entryPoints: [path.join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: options.platform ?? 'node',
    outdir: path.join(ROOT, `out-graph-${path.basename(path.dirname(entry))}`),
    write: false,
    metafile: true,
    logLevel: 'silent',
    // Optional peers stay imports, as in the package's own bundle.
    external: ['@opentelemetry/api', 'ws', 'ioredis', 'redis'],
  });
  return result.metafile;
}

/** The output chunk of `entry` (repository-relative) in `metafile`. */
export function entryOutput(metafile: Metafile, entry: string): string {
  const found = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint === entry);
  if (found === undefined) throw new Error(`${entry} is no entry point of the bundle`);
  return found[0];
}

/** The inputs of `output` and of every chunk it imports statically (what `import` runs). */
export function staticInputs(metafile: Metafile, output: string): Set<string> {
  const seen = new Set<string>();
  const inputs = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const chunk = metafile.outputs[name]!;
    for (const input of Object.keys(chunk.inputs)) inputs.add(input);
    for (const imported of chunk.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(output);
  return inputs;
}

/** The inputs of every chunk `output` reaches only through a dynamic import (directly or further on). */
export function lazyInputs(metafile: Metafile, output: string): Set<string> {
  const eager = staticInputs(metafile, output);
  return new Set(Object.keys(metafile.inputs).filter((input) => !eager.has(input) && Object.values(metafile.outputs).some((chunk) => Object.hasOwn(chunk.inputs, input))));
}
