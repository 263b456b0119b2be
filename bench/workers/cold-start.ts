// Worker: a fresh client process that spawns its server over stdio, makes one tools/call and
// exits. The orchestrator times it from spawn to the result line.
import { loadClientSide } from '../lib/load-impl.js';
import { harnessScript } from '../lib/paths.js';
import { ECHO_TEXT } from '../lib/tools.js';
import type { ImplName } from '../lib/types.js';
import { finish, profileFlags, workerArgs } from '../lib/worker.js';

// profileDir: where the server process writes its CPU profile, when profiling.
const { impl, profileDir } = workerArgs<{ impl: ImplName; profileDir?: string }>();
const client = await (await loadClientSide(impl)).connectStdio({
  command: process.execPath,
  args: [...profileFlags(profileDir, `${impl}-cold-start-server`), harnessScript('workers/stdio-server.js'), JSON.stringify({ impl, toolCount: 1 })],
});
const text = await client.call(ECHO_TEXT);
if (text !== ECHO_TEXT) throw new Error(`echo returned ${JSON.stringify(text)}`);
// Report first, then stop the server: the measurement ends at the first result.
process.stdout.write(`@@first ${JSON.stringify({ sinceProcessStartMs: performance.now() })}\n`);
await client.close();
finish({ ok: true });
