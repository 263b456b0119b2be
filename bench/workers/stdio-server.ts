// Child process: serves the benchmark server of one implementation over stdio.
import { loadServerSide } from '../lib/load-impl.js';
import type { ImplName } from '../lib/types.js';
import { workerArgs } from '../lib/worker.js';

interface Args {
  readonly impl: ImplName;
  readonly toolCount: number;
}

const args = workerArgs<Args>();
// A profiled server must exit through process.exit for V8 to write its profile; so must the
// rest, so that every implementation stops the same way when the client closes stdin.
process.stdin.on('end', () => setImmediate(() => process.exit(0)));
await (await loadServerSide(args.impl)).serveStdio({ toolCount: args.toolCount });
