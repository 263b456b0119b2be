/**
 * The Client's cache of cacheable results in the stateless era. Servers mark list and read
 * results with `ttlMs` (how long they stay fresh) and `cacheScope`; a fresh entry answers a
 * repeated request without a round trip, and the matching change notification (a list's
 * `list_changed`, `resources/updated` for a URI) drops it early.
 */
import { isJsonObject } from '../core/jsonrpc.js';
import type { ChangeNotification } from '../../generated/contract.js';
import { changeNotifications } from '../../generated/change-notifications.js';

/** Options of a {@link ResponseCache}. */
export interface ResponseCacheOptions {
  /** Most entries kept; the oldest go first (default 256). */
  readonly maxEntries?: number | undefined;
  /** The clock, in milliseconds (default `Date.now`). */
  readonly now?: (() => number) | undefined;
  /**
   * Whether `method` is a list method, whose entries a `list_changed` drops (the Client passes
   * the revision's paginated methods; default: names ending in `/list`).
   */
  readonly isList?: ((method: string) => boolean) | undefined;
}

interface Entry {
  readonly method: string;
  readonly params: unknown;
  readonly result: unknown;
  readonly expires: number;
}

/** What each change notification makes stale, from the generated table. */
const CHANGES: Readonly<Record<string, ChangeNotification>> = changeNotifications;

/**
 * Results by method and params (without `_meta`), each until its `ttlMs` runs out. `private`
 * results are safe to keep because a cache belongs to one Client, which speaks for one
 * authorization context; a Client whose credentials change should `clear()` it.
 *
 * @example
 * ```ts
 * import { ResponseCache } from 'mcpgen/advanced';
 *
 * const cache = new ResponseCache({ maxEntries: 64 });
 * cache.store('tools/list', {}, { resultType: 'complete', ttlMs: 60_000, cacheScope: 'public', tools: [] });
 * cache.lookup('tools/list', {}); // the stored result, for the next minute
 * ```
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly isList: (method: string) => boolean;

  constructor(options: ResponseCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 256;
    this.now = options.now ?? Date.now;
    this.isList = options.isList ?? ((method) => method.endsWith('/list'));
  }

  /** A fresh copy of the cached result of this request, or undefined. */
  lookup(method: string, params: unknown): unknown {
    const key = keyOf(method, params);
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return structuredClone(entry.result);
  }

  /** Keeps `result` when it is a complete result with a positive `ttlMs`; returns whether it did. */
  store(method: string, params: unknown, result: unknown): boolean {
    if (!isJsonObject(result) || result.resultType === 'input_required') return false;
    const ttl = result.ttlMs;
    if (typeof ttl !== 'number' || !(ttl > 0)) return false;
    const key = keyOf(method, params);
    this.entries.delete(key);
    this.entries.set(key, { method, params: stripMeta(params), result: structuredClone(result), expires: this.now() + ttl });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return true;
  }

  /**
   * Drops what a server notification makes stale: a `list_changed` drops the cached pages of
   * the lists it invalidates, `notifications/resources/updated` the cached reads of its URI.
   * Returns how many entries went.
   */
  evict(notification: string, params: unknown): number {
    const change = Object.hasOwn(CHANGES, notification) ? CHANGES[notification] : undefined;
    const item = change?.key != null && isJsonObject(params) ? params[change.key] : undefined;
    if (change === undefined || (change.key !== null && item === undefined)) return 0;
    let dropped = 0;
    for (const [key, entry] of this.entries) {
      const stale = change.invalidates.includes(entry.method) && (change.key === null
        ? this.isList(entry.method)
        : isJsonObject(entry.params) && entry.params[change.key] === item);
      if (stale) {
        this.entries.delete(key);
        dropped++;
      }
    }
    return dropped;
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
  }

  /** Number of entries, fresh or not. */
  get size(): number {
    return this.entries.size;
  }
}

function stripMeta(params: unknown): unknown {
  if (!isJsonObject(params) || !('_meta' in params)) return params ?? {};
  const { _meta: _ignored, ...rest } = params;
  return rest;
}

function keyOf(method: string, params: unknown): string {
  return `${method}\n${JSON.stringify(stripMeta(params))}`;
}
