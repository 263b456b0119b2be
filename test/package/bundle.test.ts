// The package bundled for browsers and Workers: the root entry, a Fetch-handler server and one
// with its authorization server (mcpgen/auth-server) build with esbuild for both targets with
// no `node:` import, no eval and no `new Function`; the minified sizes of a one-tool server
// pinned to one revision and of one serving all of them.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEach, forbiddenConstructs, stageEntry, type Bundle, type BundleTarget } from './bundles.js';
import { packedProject, ROOT, type PackedProject } from './packed.js';
import { writeReport } from './report.js';

const FIXTURES = path.join(ROOT, 'test/package/fixtures/bundle');
const ENTRIES = {
  'root entry': 'root-entry.js',
  'one-tool server, all revisions': 'fetch-server.js',
  'one-tool server, pinned to 2025-11-25': 'fetch-server-pinned.js',
  'protected server with its authorization server': 'auth-server.js',
} as const;
const TARGETS: BundleTarget[] = ['browser', 'workers'];

let packed: PackedProject;
const sizes: Record<string, { bytes: number; gzipBytes: number }> = {};

beforeAll(async () => {
  packed = await packedProject();
}, 300_000);

afterAll(async () => {
  if (Object.keys(sizes).length > 0) await writeReport('bundles', sizes);
});

describe.each(TARGETS)('bundled for %s', (target) => {
  let bundles: Map<string, Bundle>;
  beforeAll(async () => {
    const names = Object.keys(ENTRIES) as (keyof typeof ENTRIES)[];
    const entries = await Promise.all(names.map((name) => stageEntry(packed.projectDir, path.join(FIXTURES, ENTRIES[name]), 'bundle')));
    // Minified: what the sizes are of, and what ships; eval, Function and node: survive minifying.
    const built = await bundleEach(entries, target);
    bundles = new Map(names.map((name, index) => [name, built[index]!]));
  }, 120_000);

  it.each(Object.keys(ENTRIES))('%s holds no node: import, eval or new Function', (name) => {
    const { code, bytes, gzipBytes } = bundles.get(name)!;
    expect(forbiddenConstructs(code)).toEqual([]);
    // Self-contained: nothing is left for the platform to import at run time.
    expect(code).not.toMatch(/(?<![\w$.])import\s*(?:["'{*]|\()/);
    expect(bytes).toBeGreaterThan(10_000);
    sizes[`${target}: ${name}`] = { bytes, gzipBytes };
  });

  it.each(['one-tool server, all revisions', 'one-tool server, pinned to 2025-11-25'])('%s carries no Client', (name) => {
    // A peer class that does work at load time (a static block) is kept whole, with all it
    // reaches, by every bundle of the package; this message is the Client constructor's.
    expect(bundles.get(name)!.code).not.toContain('is not among the supported revisions');
  });
});

describe('the checks themselves', () => {
  it('catch each forbidden construct', () => {
    expect(forbiddenConstructs('import { readFile } from "node:fs";')).toEqual(['node: import']);
    expect(forbiddenConstructs('const fs = await import("node:fs");')).toEqual(['node: import']);
    expect(forbiddenConstructs('const fs = require("node:fs");')).toEqual(['node: import']);
    expect(forbiddenConstructs('const x = eval("1 + 1");')).toEqual(['eval(']);
    expect(forbiddenConstructs('const f = new Function("a", "return a");')).toEqual(['new Function']);
    expect(forbiddenConstructs('const f = Function("return this")();')).toEqual(['new Function']);
    expect(forbiddenConstructs('const retrieval = retrieval(1); class X { evaluate() {} } const text = "a node: b";')).toEqual([]);
  });
});
