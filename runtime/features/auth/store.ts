/**
 * Where an OAuth client keeps what it learns: registered clients (per authorization server),
 * tokens (per MCP server) and authorizations in progress (per `state`).
 */

/**
 * A small key-value store of JSON values. The keys mcpgen uses are `client:<issuer>`,
 * `tokens:<server URL>` and `pending:<state>`; values are plain JSON, so any persistent store
 * (a file, a keychain, a database row) can hold them.
 *
 * @example
 * ```ts
 * import type { OAuthStore } from 'mcpgen/auth';
 *
 * const rows = new Map<string, string>();
 * const store: OAuthStore = {
 *   get: (key) => (rows.has(key) ? JSON.parse(rows.get(key)!) : undefined),
 *   set: (key, value) => void rows.set(key, JSON.stringify(value)),
 *   delete: (key) => void rows.delete(key),
 * };
 * ```
 */
export interface OAuthStore {
  /** The value stored under `key`, or undefined. */
  get(key: string): unknown | Promise<unknown>;
  /** Stores `value` (a JSON value) under `key`. */
  set(key: string, value: unknown): void | Promise<void>;
  /** Removes `key`. */
  delete(key: string): void | Promise<void>;
  /**
   * Runs `work` while holding the lock `name`, for stores that several processes share: the
   * client refreshes under the lock of the server's tokens and reads them again first, so that
   * one refresh serves every process (authorization servers that detect refresh-token reuse
   * revoke the whole grant when two processes spend the same one). Optional.
   */
  lock?<T>(name: string, work: () => Promise<T>): Promise<T>;
}

/**
 * An {@link OAuthStore} in memory: credentials last as long as the process. Values are copied
 * in and out, so callers cannot change what is stored by mutating what they passed or got.
 *
 * @example
 * ```ts
 * import { InMemoryOAuthStore } from 'mcpgen/auth';
 *
 * const store = new InMemoryOAuthStore();
 * await store.set('client:https://as.example.com', { client_id: 'abc' });
 * console.log(await store.get('client:https://as.example.com'));
 * ```
 */
export class InMemoryOAuthStore implements OAuthStore {
  private readonly values = new Map<string, string>();

  get(key: string): unknown {
    const text = this.values.get(key);
    return text === undefined ? undefined : JSON.parse(text);
  }

  set(key: string, value: unknown): void {
    this.values.set(key, JSON.stringify(value));
  }

  delete(key: string): void {
    this.values.delete(key);
  }

  /** The stored keys, for inspection and tests. */
  keys(): string[] {
    return [...this.values.keys()];
  }
}
