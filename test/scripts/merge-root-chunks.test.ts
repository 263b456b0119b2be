/**
 * The root's chunks merge into one hub: the root entry then imports the hub (and the chunks a
 * standalone entry shares), every other entry imports the same bindings from the hub, and a
 * class keeps one identity across entries. Checked on a small split build of its own.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HUB_FILE, mergeableChunks, mergeRootChunks, staticChunks } from '../../scripts/merge-root-chunks.js';

const SOURCES: Record<string, string> = {
  'package.json': '{ "type": "module" }',
  'src/errors.js': 'export class AppError extends Error {}\n',
  'src/engine.js': "import { AppError } from './errors.js';\nexport function fail() { throw new AppError('x'); }\n",
  'src/server.js': "import { fail } from './engine.js';\nexport class Server { run() { fail(); } }\n",
  'src/lazy.js': "import { AppError } from './errors.js';\nexport const lazyError = () => new AppError('lazy');\n",
  'src/root.js': "export { AppError } from './errors.js';\nexport { Server } from './server.js';\nexport { fail } from './engine.js';\nexport const loadLazy = () => import('./lazy.js');\n",
  'src/node.js': "import { fail } from './engine.js';\nexport function nodeFail() { fail(); }\n",
  'src/serve.js': "import { Server } from './server.js';\nexport const makeServer = () => new Server();\n",
  'src/alone.js': "export { AppError as AloneError } from './errors.js';\n",
};

let dir: string;
let metafile: Metafile;
let aloneBefore: string[];
let rootOutput: string;

const entries = ['root', 'node', 'serve', 'alone'];
const load = async (name: string) => (await import(pathToFileURL(path.join(dir, 'out', `${name}.js`)).href)) as Record<string, any>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'merge-root-chunks-'));
  const { mkdir } = await import('node:fs/promises');
  await mkdir(path.join(dir, 'src'));
  for (const [file, text] of Object.entries(SOURCES)) await writeFile(path.join(dir, file), text);
  const result = await build({
    entryPoints: entries.map((name) => path.join(dir, 'src', `${name}.js`)),
    absWorkingDir: dir,
    outdir: path.join(dir, 'out'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
    logLevel: 'silent',
  });
  metafile = result.metafile;
  rootOutput = 'out/root.js';
  aloneBefore = staticChunks(metafile, 'out/alone.js');
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('mergeRootChunks', () => {
  it('merges the root\'s chunks but those a standalone entry reaches, and points every import at the hub', async () => {
    const before = staticChunks(metafile, rootOutput);
    expect(before.length).toBeGreaterThan(2);
    const mergeable = mergeableChunks(metafile, rootOutput, ['src/alone.js']);
    expect(mergeable).toEqual(before.filter((chunk) => !aloneBefore.includes(chunk)));
    expect(await mergeRootChunks(metafile, rootOutput, dir, { target: 'es2022', standalone: ['src/alone.js'] })).toBe(mergeable.length);

    const files = await readdir(path.join(dir, 'out', 'chunks'));
    expect(files).toContain(HUB_FILE);
    for (const chunk of mergeable) expect(files).not.toContain(path.basename(chunk));
    const root = await readFile(path.join(dir, 'out', 'root.js'), 'utf8');
    expect(root).toContain(`./chunks/${HUB_FILE}`);
    for (const chunk of mergeable) expect(root).not.toContain(path.basename(chunk));
    // The standalone entry imports what it imported before, and nothing of the hub.
    expect(await readFile(path.join(dir, 'out', 'alone.js'), 'utf8')).not.toContain(HUB_FILE);
  });

  it('keeps one identity for a class across the entries, and the lazy import working', async () => {
    const [root, node, serve, alone] = await Promise.all(entries.map(load));
    expect(() => node!.nodeFail()).toThrow(root!.AppError);
    expect(() => serve!.makeServer().run()).toThrow(root!.AppError);
    expect(serve!.makeServer()).toBeInstanceOf(root!.Server);
    expect(alone!.AloneError).toBe(root!.AppError);
    expect((await root!.loadLazy()).lazyError()).toBeInstanceOf(root!.AppError);
  });

  it('merges nothing when the root imports fewer than two chunks', async () => {
    const lone: Metafile = { inputs: {}, outputs: { 'out/root.js': { bytes: 1, inputs: {}, imports: [], exports: [], entryPoint: 'src/root.js' } } };
    expect(await mergeRootChunks(lone, 'out/root.js', dir, { target: 'es2022', standalone: [] })).toBe(0);
  });
});
