// Worker: how long `import(entry)` takes in a fresh process. Imports nothing else first.
import { performance } from 'node:perf_hooks';

const [specifier] = JSON.parse(process.argv[2] ?? '[]') as [string];
const start = performance.now();
await import(specifier);
const ms = performance.now() - start;
process.stdout.write(`@@result ${JSON.stringify({ ms, sinceProcessStartMs: performance.now() })}\n`, () => process.exit(0));
