/**
 * A lock between processes: a lock file created exclusively (O_EXCL), holding the owner's pid
 * and the time it was taken. A lock whose owner is gone, or that is older than `staleMs`, is
 * taken over; a waiter polls with a growing pause until `timeoutMs`.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { SdkError } from '../../../core/errors.js';

/** Default age after which a lock is presumed abandoned: 60 seconds. */
export const DEFAULT_LOCK_STALE_MS = 60_000;
/** Default wait for a lock: 90 seconds. */
export const DEFAULT_LOCK_TIMEOUT_MS = 90_000;

/** Options of the lock of a `FileOAuthStore`. */
export interface FileLockOptions {
  /** Age in milliseconds after which a held lock is presumed abandoned and taken over (default 60 s; at least 1 s). */
  readonly lockStaleMs?: number | undefined;
  /** How long to wait for the lock before failing, in milliseconds (default 90 s). */
  readonly lockTimeoutMs?: number | undefined;
}

interface Owner {
  readonly pid: number;
  readonly at: number;
  readonly id: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class FileLock {
  private readonly staleMs: number;
  private readonly timeoutMs: number;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly path: string,
    options: FileLockOptions = {},
  ) {
    this.staleMs = Math.max(1_000, options.lockStaleMs ?? DEFAULT_LOCK_STALE_MS);
    this.timeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  }

  /** Runs `work` holding the lock; callers in this process take turns before touching the file. */
  hold<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.catch(() => undefined).then(async () => {
      const id = await this.acquire();
      try {
        return await work();
      } finally {
        await this.release(id);
      }
    });
    this.queue = run;
    return run;
  }

  private async acquire(): Promise<string> {
    const id = randomBytes(12).toString('hex');
    const deadline = Date.now() + this.timeoutMs;
    for (let pause = 5; ; pause = Math.min(pause * 2, 200)) {
      try {
        const handle = await open(this.path, 'wx', 0o600);
        try {
          await handle.writeFile(JSON.stringify({ pid: process.pid, at: Date.now(), id } satisfies Owner));
        } finally {
          await handle.close();
        }
        return id;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = await this.owner();
      if (owner !== undefined ? !alive(owner.pid) || Date.now() - owner.at > this.staleMs : await this.unreadableAndOld()) {
        // Removed only if it is still the abandoned lock just read, not one taken since.
        if ((await this.owner())?.id === owner?.id) await unlink(this.path).catch(() => undefined);
        continue;
      }
      if (Date.now() >= deadline) throw new SdkError('AUTHORIZATION_FAILED', `Waited ${this.timeoutMs} ms for the lock ${this.path}, held by process ${owner?.pid ?? 'unknown'}`);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /** A lock file without a readable owner is being written, unless it has been so for `staleMs`. */
  private async unreadableAndOld(): Promise<boolean> {
    try {
      return Date.now() - (await stat(this.path)).mtimeMs > this.staleMs;
    } catch {
      return false;
    }
  }

  private async release(id: string): Promise<void> {
    if ((await this.owner())?.id === id) await unlink(this.path).catch(() => undefined);
  }

  /** The lock's owner; undefined when there is no lock or it is unreadable (being written, or garbage). */
  private async owner(): Promise<Owner | undefined> {
    try {
      const value = JSON.parse(await readFile(this.path, 'utf8')) as Partial<Owner>;
      return typeof value.pid === 'number' && typeof value.at === 'number' && typeof value.id === 'string' ? (value as Owner) : undefined;
    } catch {
      return undefined;
    }
  }
}
