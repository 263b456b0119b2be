/**
 * Importing `mcpgen/tasks` loads no revision module: the module of the extension's core
 * revision (2026-07-28: its method table, error codes, validators and index) is the one the
 * connection negotiated, or loads on first use, so a build pinned to another revision does not
 * carry it in through the tasks entry. The definitions the extension's schema shares with that
 * revision are checked by generated/shared/validators-2026-07-28.ts, which the revision's
 * validators import as well. Checked on esbuild's metafile.
 */
import type { Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleGraph, entryOutput, lazyInputs, staticInputs } from '../../bundle-graph.js';

const ENTRY = 'runtime/features/tasks/index.ts';
const REVISION_FILE = /^generated\/(\d{4}-\d{2}-\d{2}|draft)\//;

let metafile: Metafile;

beforeAll(async () => {
  metafile = await bundleGraph(ENTRY);
}, 60_000);

describe('the tasks entry', () => {
  it('imports no generated revision module, statically or through a chunk it imports', () => {
    const inputs = [...staticInputs(metafile, entryOutput(metafile, ENTRY))];
    expect(inputs).toContain('runtime/features/tasks/task-runner.ts');
    expect(inputs).toContain('generated/extensions/tasks/validators.ts');
    expect(inputs).toContain('generated/shared/validators-2026-07-28.ts');
    expect(inputs.filter((input) => REVISION_FILE.test(input))).toEqual([]);
  });

  it('reaches the extension\'s core revision only through a dynamic import', () => {
    const lazy = [...lazyInputs(metafile, entryOutput(metafile, ENTRY))];
    expect(lazy).toContain('generated/2026-07-28/index.ts');
    expect(lazy).toContain('generated/2026-07-28/validators.ts');
  });
});
