import { spawn, type ChildProcess } from 'node:child_process';

/** Spawns `node <flags> <script> <json>` with stdin/stdout piped and stderr inherited. */
export function spawnNode(script: string, args: unknown, nodeFlags: readonly string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeFlags, script, JSON.stringify(args)], { stdio: ['pipe', 'pipe', 'inherit'] });
}

/** Resolves with the first stdout line of `child`, parsed as JSON. */
export function firstJsonLine<T>(child: ChildProcess, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => fail(new Error(`no output after ${timeoutMs} ms`)), timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', ondata);
      child.off('exit', onexit);
    };
    const fail = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const ondata = (chunk: Buffer): void => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline === -1) return;
      cleanup();
      try {
        resolve(JSON.parse(buffered.slice(0, newline)) as T);
      } catch (error) {
        reject(error as Error);
      }
    };
    const onexit = (code: number | null): void => fail(new Error(`exited with ${code} before printing`));
    child.stdout?.on('data', ondata);
    child.once('exit', onexit);
  });
}

/** Ends a child that serves until its stdin closes; SIGKILL if it lingers. */
export async function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin?.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
