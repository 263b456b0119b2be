/**
 * WebSocket servers in the host: a `type: "ws"` entry of a project `.mcp.json` (headers from
 * the environment), through the connection manager and through the `mcpgen` CLI (the real
 * executable, and `runCli` in process), against mcpgen's WebSocket endpoint on 127.0.0.1; and a
 * one-off `--url ws://…` server.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../../../runtime/index.js';
import { ConnectionManager } from '../../../../runtime/features/host/manager.js';
import { runCli } from '../../../../runtime/features/host/cli-run.js';
import { createMcpWebSocketServer, type McpWebSocketServer } from '../../../../runtime/ws-node.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CLI = path.join(ROOT, 'runtime/features/host/cli.ts');
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'mcpgen-host-ws-')));
const project = path.join(scratch, 'project');
let endpoint: McpWebSocketServer;
let port: number;
let env: Record<string, string | undefined>;
/** The x-api-key of every upgrade the endpoint admitted. */
const keys: (string | undefined)[] = [];

beforeAll(async () => {
  const mcp = new McpServer({ name: 'ws-host-test', version: '1.0.0' });
  mcp.registerTool('echo', { description: 'Echoes over a socket', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, ({ text }) => ({ content: [{ type: 'text', text: `ws: ${String(text)}` }] }));
  endpoint = createMcpWebSocketServer({
    server: () => mcp.createServer(),
    path: '/mcp',
    guard: async (request) => {
      keys.push(request.header('x-api-key'));
      return request.header('x-api-key') === 'secret' ? { request } : { reply: { kind: 'body', status: 403, headers: {}, body: '' } };
    },
  });
  port = (await endpoint.listen(0, '127.0.0.1')).port;
  mkdirSync(path.join(project, '.git'), { recursive: true });
  writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({
    mcpServers: { sock: { type: 'ws', url: 'ws://127.0.0.1:${WS_PORT}/mcp', headers: { 'x-api-key': '${WS_KEY}' } } },
  }));
  env = { PATH: process.env.PATH, HOME: path.join(scratch, 'home'), XDG_CONFIG_HOME: path.join(scratch, 'xdg'), MCPGEN_APPROVE: '1', WS_PORT: String(port), WS_KEY: 'secret' };
});

afterAll(async () => {
  await endpoint.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Spawns the real executable (through tsx, as the sources are TypeScript) in the project. */
function spawnCli(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], { cwd: project, env: { ...env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function cli(args: readonly string[], extraEnv: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) }, env: { ...env, ...extraEnv }, cwd: project });
  return { code, stdout, stderr };
}

describe('ws servers in the host', () => {
  it('the manager connects a ws entry with its headers, lists and calls its tools', async () => {
    const manager = new ConnectionManager({ sock: { type: 'ws', url: `ws://127.0.0.1:${port}/mcp`, headers: { 'x-api-key': 'secret' } } }, { env: {} });
    try {
      const statuses = await manager.connectAll();
      expect(statuses.sock).toMatchObject({ state: 'connected', transport: 'websocket' });
      expect((await manager.tools()).map((tool) => tool.name)).toEqual(['mcp__sock__echo']);
      expect(await manager.callTool('mcp__sock__echo', { text: 'hi' })).toMatchObject({ content: [{ type: 'text', text: 'ws: hi' }] });
    } finally {
      await manager.close();
    }
  });

  it('the CLI executable lists the ws server of .mcp.json, its tools, and calls one', async () => {
    const [servers, tools, call] = await Promise.all([spawnCli(['servers']), spawnCli(['tools', 'sock']), spawnCli(['call', 'sock', 'echo', 'text=from the executable'])]);
    expect(servers).toMatchObject({ code: 0, stderr: '' });
    expect(servers.stdout).toMatch(/sock\s+connected\s+websocket\s+ws-host-test 1\.0\.0/);
    expect(tools).toMatchObject({ code: 0, stderr: '' });
    expect(tools.stdout).toMatch(/^SERVER\s+TOOL\s+PARAMETERS\s+DESCRIPTION\nsock\s+echo\s+\[text:string\]\s+Echoes over a socket\n$/);
    expect(call).toEqual({ code: 0, stdout: 'ws: from the executable\n', stderr: '' });
  }, 30_000);

  it('the CLI lists and calls the tools of the ws server, with the key from the environment', async () => {
    const [tools, call, json] = await Promise.all([cli(['tools', 'sock']), cli(['call', 'sock', 'echo', 'text=over the socket']), cli(['--json', 'call', 'sock', 'echo', 'text=x'])]);
    expect(tools).toMatchObject({ code: 0, stderr: '' });
    expect(tools.stdout).toMatch(/sock\s+echo\s+\[text:string\]\s+Echoes over a socket/);
    expect(call).toEqual({ code: 0, stdout: 'ws: over the socket\n', stderr: '' });
    expect(JSON.parse(json.stdout)).toMatchObject({ content: [{ type: 'text', text: 'ws: x' }] });
    expect(keys).toContain('secret');
  });

  it('the CLI reports a refused handshake, and takes a one-off --url ws:// server', async () => {
    const refused = await cli(['tools', 'sock'], { WS_KEY: 'wrong' });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('refused with HTTP 403');
    const oneOff = await cli(['--url', `ws://127.0.0.1:${port}/mcp`, 'tools']);
    expect(oneOff.code).toBe(3);
    expect(oneOff.stderr).toContain('refused with HTTP 403');
  });
});
