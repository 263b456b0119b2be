/**
 * An OAuth store in one JSON file, for CLI and desktop hosts whose credentials must survive
 * restarts.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { OAuthStore } from '../store.js';

/**
 * An {@link OAuthStore} kept in a JSON file, readable by the owner only (mode 0600). Writes go
 * to a temporary file that replaces the old one, so a crash never leaves half a file, and are
 * serialised within the process.
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
  private queue: Promise<unknown> = Promise.resolve();

  constructor(path: string) {
    this.path = path;
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

  private update(change: (values: Record<string, unknown>) => void): Promise<void> {
    const run = this.queue.catch(() => undefined).then(async () => {
      const values = await this.read();
      change(values);
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      const temporary = `${this.path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(values, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, this.path);
    });
    this.queue = run;
    return run;
  }

  private async read(): Promise<Record<string, unknown>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  }
}
