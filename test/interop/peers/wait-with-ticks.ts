// SDK-independent timing for the peers' `slow` tool, shared by the official-SDK and mcpgen peers.

/** How often the `slow` tool reports progress. */
export const PROGRESS_INTERVAL_MS = 50;

/** Resolves after `ms`, calling `tick` every PROGRESS_INTERVAL_MS; rejects as soon as `signal` aborts. */
export function waitWithTicks(ms: number, signal: AbortSignal, tick: (elapsed: number) => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('cancelled'));
      return;
    }
    const started = Date.now();
    const finish = (): void => {
      clearInterval(interval);
      clearTimeout(timeout);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      finish();
      reject(new Error('cancelled'));
    };
    const interval = setInterval(() => {
      tick(Math.min(Date.now() - started, ms)).catch(() => undefined);
    }, PROGRESS_INTERVAL_MS);
    const timeout = setTimeout(() => {
      finish();
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
