/**
 * Minified size of the generated validators: `npx tsx bench/validator-size.ts`.
 *
 * Each line bundles one module's validators (every export kept, validator-support included)
 * with esbuild, minified, as a bundle pinned to that revision would carry them.
 */
import { build } from 'esbuild';
import { repoRoot } from '../codegen/spec-source.js';

const MODULES = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', 'draft', 'extensions/tasks'];

async function minifiedBytes(contents: string): Promise<number> {
  const result = await build({ stdin: { contents, resolveDir: repoRoot, loader: 'ts' }, bundle: true, minify: true, format: 'esm', write: false, logLevel: 'silent' });
  return result.outputFiles[0]!.contents.length;
}

const rows: Array<[string, number]> = [];
for (const module of MODULES) rows.push([`generated/${module}/validators.ts`, await minifiedBytes(`export * from './generated/${module}/validators.ts';`)]);
const all = (modules: readonly string[]) => modules.map((module, i) => `export * as m${i} from './generated/${module}/validators.ts';`).join('\n');
rows.push(['the six revisions together', await minifiedBytes(all(MODULES.slice(0, 6)))]);
rows.push(['the six revisions and the tasks extension', await minifiedBytes(all(MODULES))]);
for (const [what, bytes] of rows) console.log(`${what.padEnd(44)} ${bytes.toLocaleString('en-US').padStart(9)} bytes`);
