/**
 * SLOW (about 70 s of CPU, minutes on a loaded machine: two generations of every pinned
 * revision, two type-checks of runtime/ and one build). `spec add` of a synthetic stateful revision newer than every other
 * one, through the real CLI, into a copy of the repository (its tracked files, node_modules
 * linked): the 2025-11-25 schema with Annotations renamed to ContentAnnotations is pinned and
 * `tsc -p tsconfig.build.json` stays green, because the runtime reaches Annotations through
 * generated/protocol/ (the `annotations` of a `resources/list` item), not by its name. A schema
 * that drops a property the runtime reads (Tool.name, no derivation can bring it back) is
 * refused with the compiler's file:line diagnostics and leaves the copy exactly as it was.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../codegen/spec-source.js';
import { runCli } from './fixture-root.js';
import { repoRoot, specMirrorDir } from './spec-examples.js';

const run = promisify(execFile);
const REVISION = '2026-01-15';

type Json = Record<string, unknown>;

/** The 2025-11-25 schema with `edit` applied to its definitions. */
function schemaFrom(edit: (text: string) => string, defs: (defs: Record<string, Json>) => void): string {
  const schema = JSON.parse(edit(readFileSync(join(specMirrorDir(), '2025-11-25', 'schema.json'), 'utf8'))) as { $defs: Record<string, Json> };
  defs(schema.$defs);
  return `${JSON.stringify(schema, null, 2)}\n`;
}

const renamed = schemaFrom(
  (text) => text.replaceAll('"#/$defs/Annotations"', '"#/$defs/ContentAnnotations"'),
  (defs) => {
    defs.ContentAnnotations = defs.Annotations!;
    delete defs.Annotations;
  },
);
const toolWithoutName = schemaFrom(
  (text) => text,
  (defs) => {
    const tool = defs.Tool!;
    const properties = tool.properties as Json;
    properties.toolName = properties.name;
    delete properties.name;
    tool.required = (tool.required as string[]).map((name) => (name === 'name' ? 'toolName' : name));
  },
);

/** Every tracked file of the repository as it is in the work tree, with node_modules linked. */
async function copyRepository(): Promise<string> {
  const copy = mkdtempSync(join(tmpdir(), 'mcpgen-spec-add-'));
  const { stdout } = await run('git', ['ls-files', '-z'], { cwd: repoRoot, maxBuffer: 1 << 24 });
  for (const path of stdout.split('\0')) {
    if (path === '' || !existsSync(join(repoRoot, path)) || statSync(join(repoRoot, path)).isDirectory()) continue;
    mkdirSync(dirname(join(copy, path)), { recursive: true });
    cpSync(join(repoRoot, path), join(copy, path));
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

/** A mirror with every pinned revision (links into the real one) and the synthetic schema. */
function mirrorWith(dir: string, schema: string): string {
  const real = specMirrorDir();
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(real)) symlinkSync(join(real, entry), join(dir, entry));
  mkdirSync(join(dir, REVISION));
  writeFileSync(join(dir, REVISION, 'schema.json'), schema);
  return dir;
}

/** One hash over generated/, docs/ and spec/ (paths and bytes). */
function treeHash(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir)).sort()) {
      const rel = `${dir}/${entry}`;
      if (statSync(join(root, rel)).isDirectory()) walk(rel);
      else hash.update(`${rel}\0`).update(readFileSync(join(root, rel))).update('\0');
    }
  };
  for (const dir of ['generated', 'docs', 'spec']) walk(dir);
  hash.update(readFileSync(join(root, 'package.json')));
  return hash.digest('hex');
}

const addArgs = (schema: string) => ['spec', 'add', REVISION, '--url', `https://example.invalid/${REVISION}/schema.json`, '--sha256', sha256(schema), '--era', 'stateful'];

let scratch: string;
let copy: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'mcpgen-spec-add-mirrors-'));
  copy = await copyRepository();
}, 120_000);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  if (copy !== undefined) rmSync(copy, { recursive: true, force: true });
});

describe(`spec add ${REVISION} (stateful, newer than every other stateful revision)`, () => {
  it('refuses a schema the runtime cannot compile against, listing the diagnostics, and writes nothing', async () => {
    const before = treeHash(copy);
    const outcome = await runCli(copy, addArgs(toolWithoutName), mirrorWith(join(scratch, 'no-name'), toolWithoutName));
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`codegen: revision ${REVISION}: runtime/ does not compile against the new generated/`);
    expect(outcome.stderr).toContain('nothing was written');
    // file:line: message, pointing into the runtime code that reads the dropped property.
    expect(outcome.stderr).toMatch(/^ {2}runtime\/[\w/-]+\.ts:\d+: .*'name'/m);
    expect(treeHash(copy)).toBe(before);
    expect(existsSync(join(copy, 'generated', REVISION))).toBe(false);
    expect(existsSync(join(copy, 'spec', 'patches', `${REVISION}.json`))).toBe(false);
  }, 300_000);

  it('pins a schema that renames Annotations, and the build stays green', async () => {
    const outcome = await runCli(copy, addArgs(renamed), mirrorWith(join(scratch, 'renamed'), renamed));
    expect(outcome.stderr).not.toMatch(/does not compile/);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain(`codegen: pinned ${REVISION} (stateful, released, sha256 ${sha256(renamed)})`);
    const stateful = readFileSync(join(copy, 'generated', 'protocol', 'stateful.ts'), 'utf8');
    expect(stateful).toContain(`export const revision = '${REVISION}';`);
    expect(stateful).toContain('export type Annotations = T.ContentAnnotations;');
    const pins = JSON.parse(readFileSync(join(copy, 'spec', 'revisions.json'), 'utf8')) as { revisions: Array<{ revision: string }> };
    expect(pins.revisions.map((pin) => pin.revision)).toContain(REVISION);

    const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const build = await run(process.execPath, [tsc, '-p', join(copy, 'tsconfig.build.json')], { cwd: copy, maxBuffer: 1 << 24 }).then(
      () => 'ok',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(build).toBe('ok');
  }, 600_000);
});
