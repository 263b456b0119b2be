// Merges chunks that the root entry imports statically into one file. Code splitting over the
// package's two dozen entries cuts the root's modules into a chunk per set of entries that
// reach them (about thirty files), and Node pays about a millisecond of CPU per file it loads,
// more than it pays to compile the same code as one file. The merge bundles those chunks into
// one hub and points every import of them at the hub, so the root loads a few files and every
// class keeps one identity. An entry used with the root (`mcpgen/node`, `mcpgen/otel`, ...)
// then loads the hub's code as the root does; a standalone entry keeps its own chunks.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';

/** The file name of the hub, beside the chunks. */
export const HUB_FILE = 'root-hub.js';

/** The chunks an output imports statically, directly or further on (without itself). */
export function staticChunks(metafile: Metafile, output: string): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    for (const imported of metafile.outputs[name]!.imports) {
      if (imported.kind !== 'import-statement' || imported.external || seen.has(imported.path)) continue;
      seen.add(imported.path);
      visit(imported.path);
    }
  };
  visit(output);
  return [...seen].sort();
}

/**
 * The root's static chunks that no standalone entry reaches: the ones the hub takes in. A
 * standalone entry (`entryPoint` as in the metafile) is one a program uses without the root,
 * such as the OAuth authorization server; it keeps loading exactly the chunks it loaded before.
 */
export function mergeableChunks(metafile: Metafile, rootOutput: string, standalone: readonly string[]): string[] {
  const reached = new Set<string>();
  for (const [output, { entryPoint }] of Object.entries(metafile.outputs)) {
    if (entryPoint !== undefined && standalone.includes(entryPoint)) for (const chunk of staticChunks(metafile, output)) reached.add(chunk);
  }
  return staticChunks(metafile, rootOutput).filter((chunk) => !reached.has(chunk));
}

function specifier(from: string, to: string): string {
  const relative = path.relative(path.dirname(from), to).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/**
 * Merges the mergeable chunks of `rootOutput` into the hub (`mergeableChunks`). Paths are as in `metafile`
 * (relative to `cwd`); esbuild has written every output to disk. Returns how many chunks the
 * hub took in.
 */
export async function mergeRootChunks(metafile: Metafile, rootOutput: string, cwd: string, options: { target: string; standalone: readonly string[] }): Promise<number> {
  const chunks = mergeableChunks(metafile, rootOutput, options.standalone);
  if (chunks.length < 2) return 0;
  const names = new Map<string, string>();
  for (const chunk of chunks) {
    for (const name of metafile.outputs[chunk]!.exports) {
      const other = names.get(name);
      // The hub exports every merged chunk's names: two chunks exporting one name would clash.
      if (other !== undefined) throw new Error(`merge-root-chunks: ${other} and ${chunk} both export ${name}`);
      names.set(name, chunk);
    }
  }
  const absolute = (file: string) => path.resolve(cwd, file);
  const merged = new Set(chunks.map(absolute));
  const hub = path.join(path.dirname(absolute(chunks[0]!)), HUB_FILE);
  if (chunks.some((chunk) => path.dirname(absolute(chunk)) !== path.dirname(hub))) throw new Error('merge-root-chunks: the chunks are not in one folder');
  // Every file but the merged chunks stays an import, written as the bundle wrote it: the hub
  // sits in the chunks' folder, so their relative paths still hold.
  const plugin: Plugin = {
    name: 'merge-root-chunks',
    setup(b) {
      b.onResolve({ filter: /^root-hub$/ }, () => ({ path: hub, namespace: 'root-hub' }));
      b.onLoad({ filter: /.*/, namespace: 'root-hub' }, () => ({ contents: chunks.map((chunk) => `export * from ${JSON.stringify(absolute(chunk))};`).join('\n'), resolveDir: path.dirname(hub), loader: 'js' }));
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (!args.path.startsWith('.') && !path.isAbsolute(args.path)) return { path: args.path, external: true };
        const resolved = path.resolve(args.resolveDir, args.path);
        return merged.has(resolved) ? { path: resolved } : { path: args.path, external: true };
      });
    },
  };
  const result = await build({
    entryPoints: ['root-hub'],
    outfile: hub,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: options.target,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'warning',
    write: false,
    plugins: [plugin],
  });
  await writeFile(hub, result.outputFiles[0]!.contents);
  // Every other output that imports a merged chunk imports the same names from the hub. The
  // chunk names carry a content hash, so the quoted specifier occurs only as that import.
  for (const [output, { imports }] of Object.entries(metafile.outputs)) {
    if (merged.has(absolute(output)) || !output.endsWith('.js')) continue;
    const targets = imports.filter((imported) => !imported.external && merged.has(absolute(imported.path)));
    if (targets.length === 0) continue;
    let text = await readFile(absolute(output), 'utf8');
    for (const { path: chunk } of targets) {
      const from = specifier(absolute(output), absolute(chunk));
      const quoted = new RegExp(`(["'])${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\1`, 'g');
      text = text.replace(quoted, `$1${specifier(absolute(output), hub)}$1`);
    }
    await writeFile(absolute(output), text);
  }
  for (const chunk of chunks) await rm(absolute(chunk));
  return chunks.length;
}
