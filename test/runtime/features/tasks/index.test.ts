/**
 * Importing `mcpgen/tasks` loads no revision module: the module of the extension's core
 * revision (2026-07-28: its method table, error codes and index) is the one the connection
 * negotiated, or loads on first use, so a build pinned to another revision does not carry it
 * in through the tasks entry. The extension's own generated validators check the definitions
 * its schema shares with that revision with the revision's exported validators (tree-shaken to
 * those), which is the one file of the revision the entry reaches. Checked on esbuild's metafile.
 */
import type { Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleGraph, entryOutput, lazyInputs, staticInputs } from '../../bundle-graph.js';

const ENTRY = 'runtime/features/tasks/index.ts';
const REVISION_FILE = /^generated\/(\d{4}-\d{2}-\d{2}|draft)\//;
/** The validators the extension's generated validators import for the definitions its schema shares with its core revision. */
const SHARED_VALIDATORS = 'generated/2026-07-28/validators.ts';

let metafile: Metafile;

beforeAll(async () => {
  metafile = await bundleGraph(ENTRY);
}, 60_000);

describe('the tasks entry', () => {
  it('imports no generated revision module, statically or through a chunk it imports', () => {
    const inputs = [...staticInputs(metafile, entryOutput(metafile, ENTRY))];
    expect(inputs).toContain('runtime/features/tasks/task-runner.ts');
    expect(inputs).toContain('generated/extensions/tasks/validators.ts');
    expect(inputs.filter((input) => REVISION_FILE.test(input) && input !== SHARED_VALIDATORS)).toEqual([]);
  });

  it('reaches the extension\'s core revision only through a dynamic import', () => {
    expect([...lazyInputs(metafile, entryOutput(metafile, ENTRY))]).toContain('generated/2026-07-28/index.ts');
  });
});
