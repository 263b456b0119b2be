/**
 * The host against real third-party servers from npm: @modelcontextprotocol/server-everything
 * over stdio and Streamable HTTP, and @modelcontextprotocol/server-filesystem on a temp
 * directory, named in a project `.mcp.json`, through the manager and through the CLI.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../runtime/features/host/cli-run.js';
import { ConnectionManager } from '../../../../runtime/features/host/manager.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const CLI = path.join(ROOT, 'runtime/features/host/cli.ts');
// By path, as the CLI runs in the temp project, where `--import tsx` would not resolve.
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'mcpgen-host-npm-')));
const project = path.join(scratch, 'project');
const shared = path.join(scratch, 'shared');
let env: Record<string, string | undefined>;
let httpServer: ChildProcess | undefined;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  mkdirSync(path.join(project, 'sub'), { recursive: true });
  // The project is a repository, so the walk from sub/ reaches its .mcp.json.
  mkdirSync(path.join(project, '.git'), { recursive: true });
  mkdirSync(shared, { recursive: true });
  writeFileSync(path.join(shared, 'notes.txt'), 'hello from the filesystem server\n');
  writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({
    mcpServers: {
      everything: { command: '${NODE}', args: [EVERYTHING, 'stdio'] },
      'everything-http': { type: 'http', url: 'http://127.0.0.1:${EVERYTHING_PORT}/mcp' },
      files: { command: '${NODE}', args: [FILESYSTEM, '${SHARED_DIR}'] },
    },
  }, null, 2));
  const port = await freePort();
  // MCPGEN_APPROVE: the test's own project file is used without asking.
  env = { ...process.env, MCPGEN_APPROVE: '1', XDG_CONFIG_HOME: path.join(scratch, 'xdg'), NODE: process.execPath, EVERYTHING_PORT: String(port), SHARED_DIR: shared };
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  httpServer = child;
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on port')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${output}`)));
  });
}, 30_000);

afterAll(() => {
  httpServer?.kill();
  rmSync(scratch, { recursive: true, force: true });
});

describe('ConnectionManager against server-everything and server-filesystem', () => {
  it('loads the project config, connects all three, and lists, calls, reads and gets', async () => {
    const { manager, config } = ConnectionManager.fromConfig({ cwd: path.join(project, 'sub'), env, approveAll: true });
    try {
      expect(config.diagnostics).toEqual([]);
      const started = performance.now();
      const statuses = await manager.connectAll();
      const elapsed = performance.now() - started;
      expect(Object.fromEntries(Object.entries(statuses).map(([name, status]) => [name, [status.state, status.transport]]))).toEqual({
        everything: ['connected', 'stdio'],
        'everything-http': ['connected', 'streamable-http'],
        files: ['connected', 'stdio'],
      });
      console.info(`connectAll ${Math.round(elapsed)} ms; per server ${Object.entries(statuses).map(([name, status]) => `${name} ${status.connectMs} ms`).join(', ')}`);

      const tools = await manager.tools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything-http__get-sum', 'mcp__files__read_text_file', 'mcp__files__list_directory']));
      expect(names.every((name) => /^[A-Za-z0-9_-]{1,64}$/.test(name))).toBe(true);

      expect((await manager.callTool('mcp__everything__echo', { message: 'over stdio' })).content).toEqual([{ type: 'text', text: 'Echo: over stdio' }]);
      expect((await manager.callTool('mcp__everything-http__echo', { message: 'over http' })).content).toEqual([{ type: 'text', text: 'Echo: over http' }]);
      const sum = await manager.callTool({ server: 'everything-http', tool: 'get-sum' }, { a: 2, b: 40 });
      expect(JSON.stringify(sum.content)).toContain('42');
      const file = await manager.callTool('mcp__files__read_text_file', { path: path.join(shared, 'notes.txt') });
      expect(file.content).toEqual([{ type: 'text', text: 'hello from the filesystem server\n' }]);
      const outside = await manager.callTool('mcp__files__read_text_file', { path: path.join(project, '.mcp.json') });
      expect(outside.isError).toBe(true);

      const resources = await manager.resources('everything');
      const uri = resources.map((entry) => entry.resource.uri).find((candidate) => candidate.endsWith('.md'))!;
      const read = await manager.readResource('everything', uri);
      expect(read.contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' });
      expect('text' in read.contents[0]! && read.contents[0].text.length).toBeGreaterThan(100);

      expect((await manager.prompts('everything-http')).map((entry) => entry.prompt.name)).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt']));
      const prompt = await manager.getPrompt('everything-http', 'args-prompt', { city: 'Oslo' });
      expect(JSON.stringify(prompt.messages)).toContain('Oslo');
    } finally {
      await manager.close();
    }
  });
});

interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Spawns the real executable (through tsx, as the sources are TypeScript). */
function spawnCli(args: readonly string[], cwd = project): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], { cwd, env: { ...env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the same CLI code in this process, which saves a TypeScript start-up per run. */
async function cli(args: readonly string[], cwd = project): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) }, env, cwd });
  return { code, stdout, stderr };
}

describe('the mcpgen CLI against server-everything and server-filesystem', () => {
  it('runs as an executable: lists the servers and calls a tool of a one-off stdio server', async () => {
    const [servers, oneOff] = await Promise.all([
      spawnCli(['servers']),
      spawnCli(['--stdio', `"${process.execPath}" ${EVERYTHING}`, 'call', 'echo', 'message=one-off']),
    ]);
    expect(servers.stderr).toBe('');
    expect(servers.code).toBe(0);
    expect(servers.stdout).toMatch(/^SERVER\s+STATUS\s+TRANSPORT\s+DETAILS\n/);
    expect(servers.stdout).toMatch(/everything\s+connected\s+stdio\s+mcp-servers\/everything/);
    expect(servers.stdout).toMatch(/everything-http\s+connected\s+streamable-http\s+mcp-servers\/everything/);
    expect(servers.stdout).toMatch(/files\s+connected\s+stdio/);
    expect(oneOff).toMatchObject({ code: 0, stdout: 'Echo: one-off\n' });
  }, 30_000);

  it('lists tools, resources and prompts, calls tools, reads a resource and gets a prompt', async () => {
    const [tools, echo, sum, fsRead, json, resources, read, prompt, missingTool] = await Promise.all([
      cli(['tools', 'everything']),
      cli(['call', 'everything', 'echo', 'message=hello world']),
      cli(['call', 'everything-http', 'get-sum', '--args', '{"a":1,"b":2}']),
      cli(['call', 'files', 'read_text_file', `path=${path.join(shared, 'notes.txt')}`], path.join(project, 'sub')),
      cli(['--json', 'tools', 'files']),
      cli(['resources', 'everything-http']),
      cli(['read', 'everything', 'demo://resource/static/document/architecture.md']),
      cli(['prompt', 'everything', 'args-prompt', 'city=Oslo', 'state=Viken']),
      cli(['call', 'everything', 'no-such-tool']),
    ]);
    expect(tools.code).toBe(0);
    expect(tools.stdout).toMatch(/^SERVER\s+TOOL\s+PARAMETERS\s+DESCRIPTION\n/);
    expect(tools.stdout).toMatch(/everything\s+echo\s+message:string\s+Echoes back the input string\n/);

    expect(echo).toMatchObject({ code: 0, stdout: 'Echo: hello world\n' });
    expect(sum).toMatchObject({ code: 0, stdout: expect.stringContaining('3') });
    expect(fsRead).toMatchObject({ code: 0, stdout: 'hello from the filesystem server\n\n' });

    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout) as { server: string; exposedName: string; name: string }[];
    expect(listed.find((tool) => tool.name === 'list_directory')).toMatchObject({ server: 'files', exposedName: 'mcp__files__list_directory' });

    expect(resources.code).toBe(0);
    expect(resources.stdout).toMatch(/everything-http\s+demo:\/\/resource\/static\/document\/architecture\.md\s+text\/markdown/);
    expect(read.code).toBe(0);
    expect(read.stdout.length).toBeGreaterThan(100);

    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toContain('Oslo');

    expect(missingTool.code).toBe(1);
    expect(missingTool.stderr).toContain('mcpgen: everything/no-such-tool');
  }, 30_000);

  it('shows progress of a long call, and exits 2 for usage errors and 3 for unreachable servers', async () => {
    const [progress, usage, unknown, unreachable] = await Promise.all([
      cli(['call', 'everything', 'trigger-long-running-operation', 'duration=1', 'steps=3']),
      cli(['frobnicate']),
      cli(['tools', 'nope']),
      cli(['--url', 'http://127.0.0.1:9/mcp', '--timeout', '3000', 'tools']),
    ]);
    expect(progress).toMatchObject({ code: 0, stdout: expect.stringContaining('Long running operation completed') });
    expect(progress.stderr).toContain('progress 1/3\nprogress 2/3\nprogress 3/3\n');
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command "frobnicate"') });
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('no server named nope is configured (known: everything, everything-http, files)') });
    expect(unreachable).toMatchObject({ code: 3, stderr: expect.stringMatching(/^mcpgen: url: failed: /) });
  }, 30_000);
});
