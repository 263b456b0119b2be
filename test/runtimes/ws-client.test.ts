// mcpgen's WebSocket client with the runtime's own WebSocket class, under Bun, Deno and Node 22
// (run from the repository's sources), against mcpgen's Node endpoint on 127.0.0.1: both eras,
// and the refusal of headers that a standard WebSocket cannot send.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../runtime/index.js';
import { createMcpWebSocketServer, type McpWebSocketServer } from '../../runtime/ws-node.js';
import { ensureNode22 } from '../../conformance/node22.js';
import { bun, deno } from './runtimes.js';

const run = promisify(execFile);
const ROOT = path.join(import.meta.dirname, '../..');
const SCRIPT = path.join(import.meta.dirname, 'fixtures/ws-source-client.ts');
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
let endpoint: McpWebSocketServer;
let url: string;

beforeAll(async () => {
  const mcp = new McpServer({ name: 'ws-runtimes', version: '1.0.0' });
  mcp.registerTool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, ({ text }, context) => ({
    content: [{ type: 'text', text: `${String(text)} over ${context.session.protocolVersion}` }],
  }));
  endpoint = createMcpWebSocketServer({ server: () => mcp.createServer(), path: '/mcp' });
  url = `ws://127.0.0.1:${(await endpoint.listen(0, '127.0.0.1')).port}/mcp`;
});

afterAll(async () => {
  await endpoint.close();
});

const RUNTIMES = {
  bun: { binary: bun, args: [SCRIPT] },
  // Sloppy imports map the sources' `.js` specifiers to their `.ts` files, as tsc does.
  deno: { binary: deno, args: ['run', '-A', '--no-lock', '--unstable-sloppy-imports', '--node-modules-dir=manual', SCRIPT] },
  // Node 22 has a global WebSocket (Node 20, the repository's own, has none).
  node22: { binary: async () => ({ binary: await ensureNode22(path.join(ROOT, '.cache/node22')) }), args: ['--import', TSX, SCRIPT] },
};

describe.concurrent.each(['bun', 'deno', 'node22'] as const)('%s', (name) => {
  it('speaks both eras with the runtime\'s WebSocket and refuses headers it cannot send', async () => {
    const { binary, args } = RUNTIMES[name];
    const { binary: executable } = await binary();
    const { stdout } = await run(executable, args, {
      cwd: ROOT,
      timeout: 60_000,
      env: { ...process.env, WS_URL: url, NO_COLOR: '1', DO_NOT_TRACK: '1', DENO_NO_UPDATE_CHECK: '1' },
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
      eras: [
        { era: 'stateless', protocolVersion: '2026-07-28', text: 'hi over 2026-07-28' },
        { era: 'stateful', protocolVersion: '2025-11-25', text: 'hi over 2025-11-25' },
      ],
      headers: 'INVALID_ARGUMENT',
    });
  }, 90_000);
});
