// The client/server e2e under Bun and under Deno, both from npm: in each runtime a client
// starts the server as a child process of the same runtime and checks a 2025-11-25 session and
// a 2026-07-28 request over stdio (mcpgen/node transports) and over HTTP (the runtime's own
// server, Bun.serve or Deno.serve, on mcpgen's Fetch handler), importing the installed tarball.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { stageEntry } from '../package/bundles.js';
import { packedProject, ROOT } from '../package/packed.js';
import { bun, deno, recordRuntime } from './runtimes.js';

const run = promisify(execFile);
const FIXTURES = path.join(ROOT, 'test/runtimes/fixtures');
const SCRIPTS = ['server.js', 'e2e-client.js', 'stdio-server.js', 'http-server.js', 'e2e-main.js'];
/** This file's folder in the consumer project (test files run in parallel, each stages its own copies). */
const FOLDER = 'runtimes-bun-deno';

let projectDir: string;

beforeAll(async () => {
  ({ projectDir } = await packedProject());
  for (const script of SCRIPTS) await stageEntry(projectDir, path.join(FIXTURES, script), FOLDER);
}, 300_000);

const RUNTIMES = {
  bun: { binary: bun, args: [] as string[] },
  // Everything from node_modules (package.json next to it), no lock file, no network.
  deno: { binary: deno, args: ['run', '-A', '--no-lock', '--node-modules-dir=manual'] },
};

describe.concurrent.each(['bun', 'deno'] as const)('%s', (name) => {
  it('runs client and server over stdio and HTTP, both eras', async () => {
    const { binary, args } = RUNTIMES[name];
    const { binary: executable, version } = await binary();
    const { stdout } = await run(executable, [...args, path.join(projectDir, FOLDER, 'e2e-main.js')], {
      cwd: path.join(projectDir, FOLDER),
      timeout: 120_000,
      env: { ...process.env, NO_COLOR: '1', DO_NOT_TRACK: '1', DENO_NO_UPDATE_CHECK: '1', DENO_DIR: path.join(projectDir, '.deno') },
      maxBuffer: 16 * 1024 * 1024,
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { runtime: string; stdio: unknown[]; http: unknown[] };
    expect(result.runtime.startsWith(name)).toBe(true);
    const eras = [
      { protocolVersion: '2025-11-25', era: 'stateful', tools: 1, sum: '5' },
      { protocolVersion: '2026-07-28', era: 'stateless', tools: 1, sum: '5' },
    ];
    expect(result.stdio).toEqual(eras.map((era) => ({ ...era, session: false })));
    expect(result.http).toEqual(eras.map((era, index) => ({ ...era, session: index === 0 })));
    await recordRuntime(name, { version, stdio: ['2025-11-25', '2026-07-28'], http: ['2025-11-25', '2026-07-28'] });
  }, 150_000);
});
