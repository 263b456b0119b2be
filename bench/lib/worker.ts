// The protocol between the orchestrator (bench/main.ts) and its worker processes: one JSON
// argument in, one `@@result <json>` line out on stdout, then exit.

export const RESULT_PREFIX = '@@result ';

/** The worker's JSON argument. */
export function workerArgs<T>(): T {
  const raw = process.argv[2];
  if (raw === undefined) throw new Error('worker: missing JSON argument');
  return JSON.parse(raw) as T;
}

/** Prints the result line and exits once stdout has flushed. */
export function finish(result: unknown, code = 0): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`, () => process.exit(code));
}

/**
 * Runs a worker body: prints its result and exits 0, or prints `{error}` and exits 1. Exits
 * explicitly so that handles an SDK leaves open cannot keep the process alive.
 */
export function runWorker(body: () => Promise<unknown>): void {
  body().then(
    (result) => finish(result),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      finish({ error: error instanceof Error ? error.message : String(error) }, 1);
    },
  );
}

/** Node flags that write a V8 CPU profile into `dir` when the process exits. */
export function profileFlags(dir: string | undefined, name: string): string[] {
  return dir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}.cpuprofile`];
}
