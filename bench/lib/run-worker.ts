import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { RESULT_PREFIX } from './worker.js';

export interface WorkerRun<T> {
  readonly result: T;
  /** ms from spawn to each `@@<tag>` line the worker printed, by tag. */
  readonly marks: Readonly<Record<string, number>>;
}

export interface WorkerOptions {
  readonly nodeFlags?: readonly string[];
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Runs `node <flags> <script> <json args>` in a fresh process and resolves with its
 * `@@result` line. Rejects with the worker's error (and its stderr tail) if it fails or times out.
 */
export function runWorkerProcess<T>(script: string, args: unknown, options: WorkerOptions = {}): Promise<WorkerRun<T>> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...(options.nodeFlags ?? []), script, JSON.stringify(args)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
    });
    const marks: Record<string, number> = {};
    let stdout = '';
    let stderr = '';
    let result: { value: unknown } | undefined;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      let newline = stdout.indexOf('\n');
      while (newline !== -1) {
        const line = stdout.slice(0, newline);
        stdout = stdout.slice(newline + 1);
        const tag = /^@@(\w+) /.exec(line);
        if (tag !== null) marks[tag[1]!] = performance.now() - started;
        if (line.startsWith(RESULT_PREFIX)) result = { value: JSON.parse(line.slice(RESULT_PREFIX.length)) as unknown };
        newline = stdout.indexOf('\n');
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 180_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const failure = (result?.value as { error?: unknown } | undefined)?.error;
      if (code === 0 && result !== undefined && failure === undefined) {
        resolve({ result: result.value as T, marks });
        return;
      }
      const why = typeof failure === 'string' ? failure : signal !== null ? `killed by ${signal} (timeout?)` : `exited with ${code}`;
      const tail = stderr.trim().split('\n').slice(-6).join('\n');
      reject(new Error(tail === '' ? why : `${why}\n${tail}`));
    });
  });
}
