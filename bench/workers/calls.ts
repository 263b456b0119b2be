// Worker: echo tools/call round trips for one implementation over one transport. Prints
// `{sequential, concurrent}` phase results, or `{unavailable}` where the implementation lacks
// the transport.
import { runCallScenario } from '../lib/call-loop.js';
import { firstJsonLine, spawnNode, stopChild } from '../lib/child.js';
import { loadClientSide, loadHttpAdapter } from '../lib/load-impl.js';
import { harnessScript } from '../lib/paths.js';
import type { BenchClient, CallTransport, ClientEra, HttpMode, ImplName } from '../lib/types.js';
import { profileFlags, runWorker, workerArgs } from '../lib/worker.js';

interface Args {
  readonly impl: ImplName;
  readonly transport: CallTransport;
  readonly phaseMs: number;
  readonly warmupMs: number;
  readonly warmupCalls: number;
  /** mcpgen's client revision in memory and over stdio (HTTP uses the default). */
  readonly era?: ClientEra;
  /** Where the server process writes its CPU profile, when profiling. */
  readonly profileDir?: string;
}

const args = workerArgs<Args>();

async function measure(client: BenchClient, cleanup: () => Promise<void>): Promise<unknown> {
  try {
    return await runCallScenario(client, args.phaseMs, args.warmupMs, args.warmupCalls);
  } finally {
    await client.close();
    await cleanup();
  }
}

runWorker(async () => {
  const serverSpec = { toolCount: 1 };
  if (args.transport === 'memory') {
    const client = await (await loadClientSide(args.impl)).inMemory(serverSpec, args.era);
    return measure(client, async () => undefined);
  }
  if (args.transport === 'stdio') {
    const client = await (await loadClientSide(args.impl)).connectStdio({
      command: process.execPath,
      args: [...profileFlags(args.profileDir, `${args.impl}-stdio-server`), harnessScript('workers/stdio-server.js'), JSON.stringify({ impl: args.impl, ...serverSpec })],
    }, args.era);
    return measure(client, async () => undefined);
  }
  const mode: HttpMode = args.transport === 'http-stateful' ? 'stateful' : 'stateless';
  const adapter = await loadHttpAdapter(args.impl);
  if (adapter === undefined) return { unavailable: `${args.impl} has no Streamable HTTP transport yet (add bench/http/${args.impl}.ts)` };
  const server = spawnNode(harnessScript('workers/http-server.js'), { impl: args.impl, mode, ...serverSpec }, profileFlags(args.profileDir, `${args.impl}-http-${mode}-server`));
  try {
    const { port } = await firstJsonLine<{ port: number }>(server, 30_000);
    const client = await adapter.connect(new URL(`http://127.0.0.1:${port}/mcp`), mode);
    return await measure({ ...client, serverPid: server.pid }, () => stopChild(server));
  } catch (error) {
    await stopChild(server);
    throw error;
  }
});
