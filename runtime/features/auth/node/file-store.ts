/**
 * An OAuth store in one JSON file, for CLI and desktop hosts whose credentials must survive
 * restarts and may be shared by several processes.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { SdkError } from '../../../core/errors.js';
import { dirname } from 'node:path';
import type { OAuthStore } from '../store.js';
import { FileLock, type FileLockOptions } from './file-lock.js';

/** Options of a {@link FileOAuthStore}. */
export type FileOAuthStoreOptions = FileLockOptions;

/**
 * An {@link OAuthStore} kept in a JSON file, readable by the owner only (mode 0600). Writes go
 * to a new temporary file with an unpredictable name in the same directory, created exclusively
 * (so a symlink planted there is never followed), which then replaces the old file, so a crash
 * never leaves half a file; a store file that is itself a symlink is refused; they are serialised within the process. `lock` holds a lock file
 * next to the store, so that processes sharing it refresh one at a time.
 *
 * @example
 * ```ts
 * import { FileOAuthStore } from 'mcpgen/node';
 * import { homedir } from 'node:os';
 * import { join } from 'node:path';
 *
 * const store = new FileOAuthStore(join(homedir(), '.config', 'my-host', 'oauth.json'));
 * ```
 */
export class FileOAuthStore implements OAuthStore {
  /** The file's path. */
  readonly path: string;
  private readonly fileLock: FileLock;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(path: string, options: FileOAuthStoreOptions = {}) {
    this.path = path;
    this.fileLock = new FileLock(`${path}.lock`, options);
  }

  async get(key: string): Promise<unknown> {
    await this.queue.catch(() => undefined);
    return (await this.read())[key];
  }

  set(key: string, value: unknown): Promise<void> {
    return this.update((values) => {
      values[key] = value;
    });
  }

  delete(key: string): Promise<void> {
    return this.update((values) => {
      delete values[key];
    });
  }

  /** Runs `work` holding the store's lock file (one per store file, whatever `name`). */
  async lock<T>(_name: string, work: () => Promise<T>): Promise<T> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    return await this.fileLock.hold(work);
  }

  private update(change: (values: Record<string, unknown>) => void): Promise<void> {
    const run = this.queue.catch(() => undefined).then(async () => {
      const values = await this.read();
      change(values);
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      const temporary = `${this.path}.${randomBytes(12).toString('hex')}.tmp`;
      const handle = await open(temporary, 'wx', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(values, null, 2)}\n`);
        await handle.sync();
      } catch (error) {
        await handle.close();
        await unlink(temporary).catch(() => undefined);
        throw error;
      }
      await handle.close();
      // rename replaces a symlink at the path itself; it never writes through one.
      await rename(temporary, this.path);
    });
    this.queue = run;
    return run;
  }

  private async read(): Promise<Record<string, unknown>> {
    let text: string;
    try {
      // O_NOFOLLOW: a symlink planted at the path would otherwise decide what is read and replaced.
      const handle = await open(this.path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
      try {
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return {};
      if (code === 'ELOOP') throw new SdkError('INVALID_ARGUMENT', `The OAuth store ${this.path} is a symbolic link; refusing to read or replace it`);
      throw error;
    }
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  }
}
