/**
 * The root entry loads no revision module: importing `mcpgen` costs the runtime and the
 * revisions' string facts, and each revision's module (types, validators, method table) is a
 * chunk of its own that loads the first time a peer negotiates it. Checked on esbuild's
 * metafile of a code-split bundle of runtime/index.ts.
 */
import type { Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleGraph, entryOutput, staticInputs } from './bundle-graph.js';

const ENTRY = 'runtime/index.ts';
const REVISION_FILE = /^generated\/(\d{4}-\d{2}-\d{2}|draft)\//;

let metafile: Metafile;

beforeAll(async () => {
  metafile = await bundleGraph(ENTRY, { platform: 'neutral' });
}, 60_000);

describe('the root entry', () => {
  it('imports no generated revision module, statically or through a chunk it imports', () => {
    const inputs = [...staticInputs(metafile, entryOutput(metafile, ENTRY))];
    expect(inputs.filter((input) => REVISION_FILE.test(input))).toEqual([]);
    expect(inputs).toContain('generated/facts.ts');
    expect(inputs).not.toContain('generated/all.ts');
  });

  it('reaches each released revision only through a dynamic import (its lazy loader)', () => {
    const entry = entryOutput(metafile, ENTRY);
    const dynamic = [...new Set(metafile.outputs[entry]!.imports.filter((imported) => imported.kind === 'dynamic-import').map((imported) => imported.path))];
    const revisions = dynamic.flatMap((chunk) => Object.keys(metafile.outputs[chunk]!.inputs).filter((input) => /^generated\/[^/]+\/index\.ts$/.test(input)));
    for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']) expect(revisions).toContain(`generated/${revision}/index.ts`);
  });
});
