// The published package: what the tarball holds, what it depends on, and that every subpath of
// its exports map loads (Node 20 and 22, ESM and require) and type-checks with skipLibCheck off (nodenext and bundler)
// from a project that installed the tarball.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureNode22 } from '../../conformance/node22.js';
import { exportedSpecifiers, packedProject, ROOT, type PackedProject, type PackReport } from './packed.js';
import { writeReport } from './report.js';

const run = promisify(execFile);
const FIXTURES = path.join(ROOT, 'test/package/fixtures');

/**
 * Paths a tarball may hold: the manifest, what npm always adds, compiled runtime code, and the
 * guides and examples the README links to.
 */
function unexpectedFiles(files: readonly { path: string }[]): string[] {
  return files
    .map((file) => file.path)
    .filter(
      (file) =>
        !(
          ['package.json', 'README.md', 'LICENSE'].includes(file) ||
          /^dist\/esm\/.+(?<!\.d)\.js$|^dist\/(runtime|generated)\/.+\.d\.ts$|^docs\/.+\.md$|^examples\/(.+\.ts|README\.md|host\/\.mcp\.json)$/.test(file)
        ),
    );
}

/** Relative link targets in a Markdown text (images and links; anchors and URLs left out). */
function relativeLinks(markdown: string): string[] {
  const targets = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!.split('#')[0]!);
  return targets.filter((target) => target !== '' && !/^[a-z][a-z+.-]*:/i.test(target));
}

/** Bare specifiers that files ending in `extension` import or require (comments are skipped). */
async function bareImports(dir: string, extension: '.js' | '.d.ts'): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith(extension)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const code = (await readFile(file, 'utf8')).replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const pattern = /^\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/gm;
    for (const match of code.matchAll(pattern)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? match[4]!;
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
      found.set(name, [...(found.get(name) ?? []), path.relative(dir, file)]);
    }
  }
  return found;
}

interface ImportCheck {
  readonly node: string;
  readonly requireModule: boolean;
  readonly modules: Record<string, ImportedModule>;
}
interface ImportedModule {
  readonly esm?: string[];
  readonly cjs?: string[];
  readonly esmError?: string;
  readonly cjsError?: string;
}

/** Imports `specifiers` with the Node binary `node` from the consumer project `dir` (fixtures/check-imports.mjs). */
async function checkImports(node: string, dir: string, specifiers: readonly string[]): Promise<ImportCheck> {
  await cp(path.join(FIXTURES, 'check-imports.mjs'), path.join(dir, 'check-imports.mjs'));
  await cp(path.join(FIXTURES, 'check-require.cjs'), path.join(dir, 'check-require.cjs'));
  const { stdout } = await run(node, ['--no-warnings', 'check-imports.mjs', JSON.stringify(specifiers)], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout) as ImportCheck;
}

function expectLoaded(specifier: string, entry: ImportedModule): void {
  expect(entry.esmError, specifier).toBeUndefined();
  expect(entry.cjsError, specifier).toBeUndefined();
  expect(entry.esm?.length, specifier).toBeGreaterThan(0);
  expect(entry.cjs, specifier).toEqual(entry.esm);
}

/** The package an ERR_MODULE_NOT_FOUND / MODULE_NOT_FOUND message names, if any. */
function missingPackage(message: string): string | undefined {
  const specifier = /Cannot find (?:package|module) '([^']+)'/.exec(message)?.[1];
  if (specifier === undefined || specifier.startsWith('/') || specifier.startsWith('.')) return undefined;
  return specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
}

function optionalPeers(): string[] {
  return Object.entries(packed.manifest.peerDependenciesMeta ?? {}).filter(([, meta]) => meta.optional === true).map(([name]) => name);
}

let peersProject: Promise<string> | undefined;

/**
 * A second consumer project: a copy of the installed package plus the optional peers, linked
 * from the repository's node_modules (where the pinned versions are installed for development).
 */
function projectWithPeers(): Promise<string> {
  peersProject ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcpgen-peers-'));
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'mcpgen-consumer-peers', private: true, type: 'module' }));
    await cp(packed.packageDir, path.join(dir, 'node_modules', packed.manifest.name), { recursive: true });
    for (const peer of optionalPeers()) {
      await mkdir(path.dirname(path.join(dir, 'node_modules', peer)), { recursive: true });
      await symlink(path.join(ROOT, 'node_modules', peer), path.join(dir, 'node_modules', peer), 'dir');
    }
    return dir;
  })();
  return peersProject;
}

afterAll(async () => {
  if (peersProject !== undefined) await rm(await peersProject, { recursive: true, force: true });
});

let packed: PackedProject;
let specifiers: string[];

beforeAll(async () => {
  packed = await packedProject();
  specifiers = exportedSpecifiers(packed.manifest);
}, 300_000);

describe('the tarball', () => {
  it('holds the bundled entries and the declarations only', async () => {
    const { files } = packed.pack;
    expect(unexpectedFiles(files)).toEqual([]);
    const paths = new Set(files.map((file) => file.path));
    // Every target of the exports map and the bin is inside.
    const targets = Object.values(packed.manifest.exports).flatMap((conditions) => Object.values(conditions as Record<string, string>));
    const bins = typeof packed.manifest.bin === 'string' ? [packed.manifest.bin] : Object.values(packed.manifest.bin ?? {});
    for (const target of [...targets, ...bins]) expect(paths, target).toContain(target.replace(/^\.\//, ''));
    for (const bin of bins) expect(await readFile(path.join(packed.packageDir, bin), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);

    // The repository's own "files" list, packed from the checkout as `npm publish` would, holds
    // no tests, fixtures, codegen tools or TypeScript sources either.
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    const [fromCheckout] = JSON.parse(stdout) as PackReport[];
    expect(unexpectedFiles(fromCheckout!.files)).toEqual([]);
  });

  it('holds every file the README and the guides link to', async () => {
    const paths = new Set(packed.pack.files.map((file) => file.path));
    const pages = ['README.md', ...[...paths].filter((file) => /^(docs|examples)\/.+\.md$/.test(file))];
    const broken: string[] = [];
    for (const page of pages) {
      const text = await readFile(path.join(packed.packageDir, page), 'utf8');
      for (const link of relativeLinks(text)) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(page), link)).replace(/\/$/, '');
        const found = paths.has(target) || [...paths].some((file) => file.startsWith(`${target}/`));
        if (!found) broken.push(`${page} → ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('is the size the README says, within 10 %', async () => {
    const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
    const stated = /installing it adds one package \((\d+(?:\.\d+)?) MB unpacked/.exec(readme);
    expect(stated, 'README states the unpacked size as "(N MB unpacked)"').not.toBeNull();
    const actual = packed.pack.unpackedSize / 1e6;
    expect(Math.abs(actual - Number(stated![1])) / actual, `${actual.toFixed(2)} MB unpacked`).toBeLessThan(0.1);
  });

  it('depends on nothing at run time but optional peers, and imports nothing else', async () => {
    const { manifest } = packed;
    expect(Object.keys(manifest.dependencies ?? {})).toEqual([]);
    for (const name of Object.keys(manifest.peerDependencies ?? {})) expect(manifest.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
    const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const imported = await bareImports(path.join(packed.packageDir, 'dist'), '.js');
    const undeclared = [...imported].filter(([name]) => !declared.has(name) && name !== manifest.name);
    expect(undeclared).toEqual([]);
    // Declarations name no other package at all: one naming an optional peer (ajv, redis) fails
    // to resolve for a user without that peer who checks library declarations (skipLibCheck false).
    const typeImports = await bareImports(path.join(packed.packageDir, 'dist'), '.d.ts');
    expect(Object.fromEntries([...typeImports].filter(([name]) => name !== manifest.name))).toEqual({});

    // What a user's install brings along: the package itself and nothing else.
    const installed = await readdir(path.join(packed.projectDir, 'node_modules'));
    const packages = installed.filter((name) => !name.startsWith('.'));
    expect(packages).toEqual([manifest.name]);

    await writeReport('package', {
      tarball: packed.pack.filename,
      tarballBytes: packed.pack.size,
      unpackedBytes: packed.pack.unpackedSize,
      entries: packed.pack.entryCount,
      dependencies: Object.keys(manifest.dependencies ?? {}).length,
      optionalPeerDependencies: Object.keys(manifest.peerDependencies ?? {}),
      installedPackages: packages.length,
    });
  });

  it('ships a working mcpgen executable', async () => {
    const { stdout } = await run(process.execPath, [path.join(packed.projectDir, 'node_modules/.bin/mcpgen'), '--help'], { cwd: packed.projectDir });
    expect(stdout).toMatch(/--help/);
  });
});

describe('every subpath of the exports map', () => {
  it('is the reviewed list of entries', () => {
    const name = packed.manifest.name;
    const revisionSubpath = new RegExp(`^${name}/(\\d{4}-\\d{2}-\\d{2}|draft)$`);
    expect(specifiers.filter((specifier) => !revisionSubpath.test(specifier)).sort()).toEqual(
      [name, 'advanced', 'apps', 'auth', 'auth-server', 'extensions/apps', 'extensions/tasks', 'host', 'http', 'node', 'otel', 'redis', 'skills', 'skills/node', 'tasks', 'testing', 'ws', 'ws/node'].map((subpath) => (subpath === name ? name : `${name}/${subpath}`)).sort(),
    );
  });

  const nodes: [string, () => Promise<string>][] = [
    ['Node 20', async () => process.execPath],
    ['Node 22', () => ensureNode22(path.join(ROOT, '.cache/node22'))],
  ];

  it.each(nodes)('imports under %s as ESM and through require()', async (label, binary) => {
    const node = await binary();
    const plain = await checkImports(node, packed.projectDir, specifiers);
    expect(plain.node).toMatch(label === 'Node 20' ? /^v20\./ : /^v22\./);
    // Both lines support require(esm) unflagged (20.19 and 22.12 on), so require() must work too.
    expect(plain.requireModule).toBe(true);
    expect(Object.keys(plain.modules).sort()).toEqual([...specifiers].sort());

    // A subpath that adapts an optional peer (mcpgen/redis) needs that peer installed; any other
    // failure is a packaging bug. Those subpaths are imported again with the peers present.
    const needsPeer: Record<string, string> = {};
    for (const [specifier, entry] of Object.entries(plain.modules)) {
      const missing = [entry.esmError, entry.cjsError].map((error) => error === undefined ? undefined : missingPackage(error));
      const peer = missing[0] ?? missing[1];
      if (peer !== undefined && optionalPeers().includes(peer) && missing.every((name) => name === peer)) {
        needsPeer[specifier] = peer;
        continue;
      }
      expectLoaded(specifier, entry);
    }
    const withPeers = await checkImports(node, await projectWithPeers(), Object.keys(needsPeer));
    for (const [specifier, entry] of Object.entries(withPeers.modules)) expectLoaded(specifier, entry);
    expect(plain.modules[packed.manifest.name]!.esm).toEqual(expect.arrayContaining(['Client', 'Server', 'McpServer', 'createMcpHttpHandler', 'StreamableHttpClientTransport']));
    expect(plain.modules[`${packed.manifest.name}/http`]!.esm).toEqual(expect.arrayContaining(['LegacySseClientTransport', 'InMemoryEventStore', 'SseParser']));
    expect(plain.modules[`${packed.manifest.name}/advanced`]!.esm).toEqual(expect.arrayContaining(['Protocol', 'RequestStateCodec', 'InMemoryEraCache']));
    await writeReport(`imports-node${plain.node.slice(1).split('.')[0]}`, { node: plain.node, subpaths: specifiers.length, esm: true, require: true, needOptionalPeer: needsPeer });
  }, 300_000);

  it.concurrent.each(['nodenext', 'bundler'] as const)('type-checks with skipLibCheck off under moduleResolution %s', async (mode) => {
    const dir = path.join(packed.projectDir, `types-${mode}`);
    await mkdir(dir, { recursive: true });
    const lines = specifiers.map((specifier, index) => `import * as entry${index} from '${specifier}';`);
    lines.push(
      `import { Client, McpServer, StreamableHttpClientTransport, createMcpHttpHandler } from '${packed.manifest.name}';`,
      `import { InMemoryEventStore } from '${packed.manifest.name}/http';`,
      `import { Protocol } from '${packed.manifest.name}/advanced';`,
      '',
      `export const names: number = ${specifiers.map((_, index) => `Object.keys(entry${index}).length`).join(' + ')};`,
      "const mcp = new McpServer({ name: 'consumer', version: '1.0.0' });",
      "mcp.registerTool('add', { inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } },",
      "  ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));",
      "// @ts-expect-error arguments are typed from the input schema, so a string is no number",
      "mcp.registerTool('bad', { inputSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } }, ({ a }) => ({ content: [{ type: 'text', text: String(a * 2) }] }));",
      'export const handler = createMcpHttpHandler({ server: () => mcp.createServer() });',
      "export const client = new Client({ name: 'consumer', version: '1.0.0' });",
      "export const transport = new StreamableHttpClientTransport(new URL('http://127.0.0.1/mcp'));",
      'export const eventStore = new InMemoryEventStore();',
      'export type Engine = Protocol;',
    );
    await writeFile(path.join(dir, 'consumer.ts'), `${lines.join('\n')}\n`);
    const compilerOptions = {
      strict: true,
      noEmit: true,
      target: 'ES2022',
      lib: ['ES2022', 'DOM'],
      // Every shipped declaration is checked, as a strict project does, with no optional peer installed.
      skipLibCheck: false,
      types: ['node'],
      typeRoots: [path.join(ROOT, 'node_modules/@types')],
      ...(mode === 'nodenext' ? { module: 'nodenext', moduleResolution: 'nodenext' } : { module: 'preserve', moduleResolution: 'bundler' }),
    };
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }, null, 2));
    const outcome = await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, maxBuffer: 16 * 1024 * 1024 }).then(
      ({ stdout }) => ({ ok: true, output: stdout }),
      (error: { stdout?: string }) => ({ ok: false, output: error.stdout ?? String(error) }),
    );
    expect(outcome.output).toBe('');
    expect(outcome.ok).toBe(true);
  }, 120_000);
});
