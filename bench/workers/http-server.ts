// Child process: serves one implementation over Streamable HTTP on 127.0.0.1 and prints its
// port as `{"port":N}`; exits when its stdin closes or on SIGTERM.
import { loadHttpAdapter } from '../lib/load-impl.js';
import type { HttpMode, ImplName } from '../lib/types.js';
import { workerArgs } from '../lib/worker.js';

interface Args {
  readonly impl: ImplName;
  readonly mode: HttpMode;
  readonly toolCount: number;
  readonly ioDelayMs?: number;
}

const args = workerArgs<Args>();
const adapter = await loadHttpAdapter(args.impl);
if (adapter === undefined) throw new Error(`${args.impl} has no HTTP adapter (bench/http/${args.impl}.ts)`);
const port = await adapter.serve(args.mode, { toolCount: args.toolCount, ioDelayMs: args.ioDelayMs });
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
