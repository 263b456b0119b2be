// Scenario 6 (full runs only): what a user installs and ships for a minimal stdio server and
// client. Installs mcpgen (`npm pack` of this checkout) and the official packages from the
// registry into temporary projects, checks each minimal client really talks to its server, and
// bundles each entry with esbuild (minified, Node, ESM).
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, type BuildOptions } from 'esbuild';
import { repoRoot } from './paths.js';

const run = promisify(execFile);

export interface InstallFootprint {
  readonly packages: readonly string[];
  /** Installed packages, the top-level ones included. */
  readonly packageCount: number;
  /** Bytes of every file under node_modules. */
  readonly bytes: number;
}

export interface BundleFootprint {
  /**
   * Bytes a process loads to start: with code splitting (esbuild `--splitting`, as Rollup, Vite
   * and webpack split a dynamic `import()` by default), the entry chunk and the chunks it imports
   * statically; the chunks reached only through `import()` (mcpgen's lazily loaded revisions)
   * are counted in `totalBytes` alone.
   */
  readonly bytes: number;
  readonly gzipBytes: number;
  /** Every chunk of the split build, lazy ones included. */
  readonly totalBytes: number;
  /** The same program bundled into one file (no splitting): lazy imports inlined. */
  readonly singleFileBytes: number;
  /** What fills the loaded chunks: the largest inputs by bytes they contribute to the output. */
  readonly topInputs: readonly { readonly input: string; readonly bytes: number }[];
}

export interface FootprintImpl {
  readonly server: InstallFootprint;
  readonly client: InstallFootprint;
  /** Server pinned to one revision, where the SDK can pin (mcpgen); otherwise absent. */
  readonly serverPinnedBundle?: BundleFootprint;
  /** The pinned server as a Worker (fetch handler; platform neutral, `worker` and `browser` conditions). */
  readonly workerPinnedBundle?: BundleFootprint;
  readonly serverBundle: BundleFootprint;
  readonly clientBundle: BundleFootprint;
  /**
   * The minimal client's output when run against the minimal server's bundle (for mcpgen, the
   * split builds of both the pinned and the unpinned server): proves the install and the bundles work.
   */
  readonly smokeCheck: string;
}

export type FootprintResult = Readonly<Record<'mcpgen' | 'v2' | 'v1', FootprintImpl>>;

function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The minimal programs, as a user would write them from each README. */
const SOURCES = {
  mcpgen: {
    serverPinned: `import { Server } from 'mcpgen';
import { revisionModule } from 'mcpgen/2025-11-25';
import { StdioServerTransport } from 'mcpgen/node';
const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} }, revisions: [revisionModule] });
server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] }));
server.setRequestHandler('tools/call', (params) => ({ content: [{ type: 'text', text: String(params.arguments?.text ?? '') }] }));
await server.connect(new StdioServerTransport());
`,
    server: `import { Server } from 'mcpgen';
import { StdioServerTransport } from 'mcpgen/node';
const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] }));
server.setRequestHandler('tools/call', (params) => ({ content: [{ type: 'text', text: String(params.arguments?.text ?? '') }] }));
await server.connect(new StdioServerTransport());
`,
    workerPinned: `import { createMcpHttpHandler, Server } from 'mcpgen';
import { revisionModule } from 'mcpgen/2025-11-25';
function createServer() {
  const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} }, revisions: [revisionModule] });
  server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] }));
  server.setRequestHandler('tools/call', (params) => ({ content: [{ type: 'text', text: String(params.arguments?.text ?? '') }] }));
  return server;
}
const handler = createMcpHttpHandler({ server: createServer, path: '/mcp' });
export default { fetch: (request) => handler.fetch(request) };
`,
    client: `import { Client } from 'mcpgen';
import { StdioClientTransport } from 'mcpgen/node';
const client = new Client({ name: 'demo', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [process.argv[2]] }));
const { tools } = await client.listTools();
const result = await client.callTool({ name: 'echo', arguments: { text: 'ok' } });
console.log(tools.length + ' tool, ' + result.content[0].text);
await client.close();
`,
  },
  v2: {
    server: `import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
serveStdio(() => {
  const server = new McpServer({ name: 'echo', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes the text back', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
});
`,
    client: `import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const client = new Client({ name: 'demo', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [process.argv[2]] }));
const { tools } = await client.listTools();
const result = await client.callTool({ name: 'echo', arguments: { text: 'ok' } });
console.log(tools.length + ' tool, ' + result.content[0].text);
await client.close();
`,
  },
  v1: {
    server: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
const server = new McpServer({ name: 'echo', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes the text back', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
await server.connect(new StdioServerTransport());
`,
    client: `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const client = new Client({ name: 'demo', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [process.argv[2]] }));
const { tools } = await client.listTools();
const result = await client.callTool({ name: 'echo', arguments: { text: 'ok' } });
console.log(tools.length + ' tool, ' + result.content[0].text);
await client.close();
`,
  },
} as const;

function treeBytes(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const entry of readdirSync(path)) total += treeBytes(join(path, entry));
  return total;
}

function countPackages(nodeModules: string): number {
  if (!existsSync(nodeModules)) return 0;
  let count = 0;
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const dirs = entry.startsWith('@') ? readdirSync(join(nodeModules, entry)).map((name) => join(nodeModules, entry, name)) : [join(nodeModules, entry)];
    for (const dir of dirs) {
      if (!existsSync(join(dir, 'package.json'))) continue;
      count += 1 + countPackages(join(dir, 'node_modules'));
    }
  }
  return count;
}

async function install(dir: string, packages: readonly string[]): Promise<InstallFootprint> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'footprint', private: true, type: 'module' })}\n`);
  await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...packages], { cwd: dir, timeout: 300_000 });
  const nodeModules = join(dir, 'node_modules');
  return { packages, packageCount: countPackages(nodeModules), bytes: treeBytes(nodeModules) };
}

type BundlePlatform = 'node' | 'worker';

/** esbuild options shared by both builds of a program: minified ESM, as a user ships it. */
function buildOptions(platform: BundlePlatform): BuildOptions & { write: false; metafile: true } {
  return {
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    ...(platform === 'node'
      ? { platform: 'node', target: 'node20' }
      : { platform: 'neutral', target: 'es2022', conditions: ['worker', 'browser'], mainFields: ['browser', 'module', 'main'] }),
  };
}

/**
 * Bundles `source` twice: split (chunks written to `<name>.split/`, so the split build can be
 * run) and as one file (written to `<name>.bundle.mjs`).
 */
async function bundle(dir: string, file: string, source: string, platform: BundlePlatform = 'node'): Promise<BundleFootprint> {
  const entry = join(dir, file);
  writeFileSync(entry, source);
  const stem = file.replace(/\.mjs$/, '');
  const split = await build({ ...buildOptions(platform), absWorkingDir: dir, entryPoints: [entry], splitting: true, outdir: join(dir, `${stem}.split`), entryNames: '[name]', chunkNames: 'chunk-[hash]', outExtension: { '.js': '.mjs' } });
  const single = await build({ ...buildOptions(platform), absWorkingDir: dir, entryPoints: [entry], outfile: join(dir, `${stem}.bundle.mjs`) });
  for (const output of [...split.outputFiles, ...single.outputFiles]) {
    mkdirSync(dirname(output.path), { recursive: true });
    writeFileSync(output.path, output.contents);
  }
  const outputs = split.metafile.outputs;
  const entryOutput = Object.keys(outputs).find((name) => outputs[name]!.entryPoint !== undefined)!;
  // The loaded set: the entry and, transitively, what it imports statically.
  const loaded = new Set<string>();
  const visit = (name: string): void => {
    if (loaded.has(name)) return;
    loaded.add(name);
    for (const imported of outputs[name]?.imports ?? []) if (imported.kind === 'import-statement' && outputs[imported.path] !== undefined) visit(imported.path);
  };
  visit(entryOutput);
  const byPath = new Map(split.outputFiles.map((output) => [relative(dir, output.path), output.contents]));
  const loadedCode = Buffer.concat([...loaded].map((name) => byPath.get(name) ?? new Uint8Array()));
  const inputs = new Map<string, number>();
  for (const name of loaded) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[name]!.inputs)) inputs.set(input, (inputs.get(input) ?? 0) + bytesInOutput);
  }
  const topInputs = [...inputs]
    .map(([input, bytes]) => ({ input: input.replace(/^.*node_modules\//, ''), bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 8);
  return {
    bytes: loadedCode.byteLength,
    gzipBytes: gzipSync(loadedCode).byteLength,
    totalBytes: Object.values(outputs).reduce((sum, output) => sum + output.bytes, 0),
    singleFileBytes: single.outputFiles[0]!.contents.byteLength,
    topInputs,
  };
}

async function smoke(clientDir: string, serverFile: string): Promise<string> {
  const { stdout } = await run(process.execPath, [join(clientDir, 'client.mjs'), serverFile], { cwd: clientDir, timeout: 60_000 });
  return stdout.trim();
}

export async function measureFootprint(log: (line: string) => void): Promise<FootprintResult> {
  const root = mkdtempSync(join(tmpdir(), 'mcpgen-bench-footprint-'));
  try {
    log('  npm pack (mcpgen)');
    const { stdout } = await run('npm', ['pack', '--pack-destination', root, '--loglevel=error'], { cwd: repoRoot, timeout: 120_000 });
    const tarball = join(root, stdout.trim().split('\n').pop()!);
    const zod = `zod@${installedVersion('zod')}`;
    const v2Version = installedVersion('@modelcontextprotocol/server');
    const v1Version = installedVersion('@modelcontextprotocol/sdk');

    log('  installing mcpgen');
    // One package holds both halves, so the server's and the client's install are the same.
    const mcpgenDir = join(root, 'mcpgen');
    const mcpgenInstall = await install(mcpgenDir, [tarball]);
    const mcpgen: FootprintImpl = {
      server: mcpgenInstall,
      client: mcpgenInstall,
      serverPinnedBundle: await bundle(mcpgenDir, 'server-pinned.mjs', SOURCES.mcpgen.serverPinned),
      workerPinnedBundle: await bundle(mcpgenDir, 'worker-pinned.mjs', SOURCES.mcpgen.workerPinned, 'worker'),
      serverBundle: await bundle(mcpgenDir, 'server.mjs', SOURCES.mcpgen.server),
      clientBundle: await bundle(mcpgenDir, 'client.mjs', SOURCES.mcpgen.client),
      // The split builds are what the size targets count, so they are what must answer.
      smokeCheck: [
        await smoke(mcpgenDir, join(mcpgenDir, 'server-pinned.split', 'server-pinned.mjs')),
        await smoke(mcpgenDir, join(mcpgenDir, 'server.split', 'server.mjs')),
      ].join(' / '),
    };

    log(`  installing @modelcontextprotocol/server and /client ${v2Version}`);
    const v2ServerDir = join(root, 'v2-server');
    const v2ClientDir = join(root, 'v2-client');
    const v2Server = await install(v2ServerDir, [`@modelcontextprotocol/server@${v2Version}`]);
    const v2Client = await install(v2ClientDir, [`@modelcontextprotocol/client@${installedVersion('@modelcontextprotocol/client')}`]);
    const v2: FootprintImpl = {
      server: v2Server,
      client: v2Client,
      serverBundle: await bundle(v2ServerDir, 'server.mjs', SOURCES.v2.server),
      clientBundle: await bundle(v2ClientDir, 'client.mjs', SOURCES.v2.client),
      smokeCheck: await smoke(v2ClientDir, join(v2ServerDir, 'server.mjs')),
    };

    log(`  installing @modelcontextprotocol/sdk ${v1Version} and ${zod}`);
    // v1 is one package for both halves; its README installs zod next to it.
    const v1Dir = join(root, 'v1');
    const v1Install = await install(v1Dir, [`@modelcontextprotocol/sdk@${v1Version}`, zod]);
    const v1: FootprintImpl = {
      server: v1Install,
      client: v1Install,
      serverBundle: await bundle(v1Dir, 'server.mjs', SOURCES.v1.server),
      clientBundle: await bundle(v1Dir, 'client.mjs', SOURCES.v1.client),
      smokeCheck: await smoke(v1Dir, join(v1Dir, 'server.mjs')),
    };
    return { mcpgen, v2, v1 };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

