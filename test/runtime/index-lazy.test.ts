/**
 * The root entry loads no revision module: importing `mcpgen` costs the runtime and the
 * revisions' string facts, and each revision's module (types, validators, method table) is a
 * chunk of its own that loads the first time a peer negotiates it. Checked on esbuild's
 * metafile of a code-split bundle of runtime/index.ts.
 */
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REVISION_FILE = /^generated\/(\d{4}-\d{2}-\d{2}|draft)\//;

let metafile: Metafile;

beforeAll(async () => {
  const result = await build({
    entryPoints: [path.join(ROOT, 'runtime/index.ts')],
    absWorkingDir: ROOT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    outdir: path.join(ROOT, 'out-root-entry-test'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  metafile = result.metafile;
}, 60_000);

/** The inputs of `output` and of every chunk it imports statically (what `import` runs). */
function staticInputs(output: string): Set<string> {
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

describe('the root entry', () => {
  it('imports no generated revision module, statically or through a chunk it imports', () => {
    const entry = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint === 'runtime/index.ts')![0];
    const inputs = [...staticInputs(entry)];
    expect(inputs.filter((input) => REVISION_FILE.test(input))).toEqual([]);
    expect(inputs).toContain('generated/facts.ts');
    expect(inputs).not.toContain('generated/all.ts');
  });

  it('reaches each released revision only through a dynamic import (its lazy loader)', () => {
    const entry = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint === 'runtime/index.ts')![0];
    const dynamic = [...new Set(metafile.outputs[entry]!.imports.filter((imported) => imported.kind === 'dynamic-import').map((imported) => imported.path))];
    const revisions = dynamic.flatMap((chunk) => Object.keys(metafile.outputs[chunk]!.inputs).filter((input) => /^generated\/[^/]+\/index\.ts$/.test(input)));
    for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']) expect(revisions).toContain(`generated/${revision}/index.ts`);
  });
});
