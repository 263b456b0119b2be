/**
 * Where the built-in provider keeps clients, authorization codes and tokens, and the bounded
 * in-memory store for development and tests. Codes and tokens are keyed by a SHA-256 hash of
 * their value, so a store's contents do not hand out usable credentials.
 */
import { SdkError } from '../../core/errors.js';
import type { RegisteredClient } from './types.js';

/** What a grant is, for its code and for every token issued from it. */
export interface GrantFacts {
  /** The grant's id; every code and token of one grant carries it. */
  readonly grantId: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly resource: string;
  readonly subject: string;
  readonly extra?: Readonly<Record<string, unknown>> | undefined;
}

/** What an authorization code stands for until it is exchanged. */
export interface CodeRecord extends GrantFacts {
  readonly redirectUri: string;
  readonly redirectUriGiven: boolean;
  readonly codeChallenge: string;
  /** Unix milliseconds. */
  readonly expiresAt: number;
}

/** An issued access or refresh token. */
export interface TokenRecord extends GrantFacts {
  readonly kind: 'access' | 'refresh';
  /** Unix milliseconds. */
  readonly expiresAt: number;
}

/** A code or refresh token taken for an exchange, and whether this was its first use. */
export interface Consumed<T> {
  readonly record: T;
  /** False when it was used before: a replay, upon which the grant is revoked. */
  readonly firstUse: boolean;
}

/**
 * Storage of the built-in provider. `consumeCode` and `consumeRefreshToken` must be atomic
 * (two concurrent exchanges of one code see `firstUse` true once), and used entries must be
 * remembered a while (until they expire at least) so that a replay is recognised.
 */
export interface AuthorizationStore {
  getClient(clientId: string): Promise<RegisteredClient | undefined>;
  saveClient(client: RegisteredClient): Promise<void>;
  saveCode(key: string, record: CodeRecord): Promise<void>;
  consumeCode(key: string): Promise<Consumed<CodeRecord> | undefined>;
  saveToken(key: string, record: TokenRecord): Promise<void>;
  getToken(key: string): Promise<TokenRecord | undefined>;
  consumeRefreshToken(key: string): Promise<Consumed<TokenRecord> | undefined>;
  deleteToken(key: string): Promise<void>;
  /** Deletes every token of a grant. */
  revokeGrant(grantId: string): Promise<void>;
}

/** Bounds of {@link InMemoryAuthorizationStore}. */
export interface InMemoryAuthorizationStoreOptions {
  /** Most clients (default 10,000); when full, the least recently used one is forgotten. */
  readonly maxClients?: number | undefined;
  /** Most codes, used ones included (default 10,000); when full, the oldest is forgotten. */
  readonly maxCodes?: number | undefined;
  /** Most tokens, access and refresh (default 100,000); when full, the oldest is forgotten. */
  readonly maxTokens?: number | undefined;
  /** How long a used code or refresh token is remembered past its expiry to recognise replays (default 10 minutes). */
  readonly replayMemoryMs?: number | undefined;
  /** The clock, Unix milliseconds (default `Date.now`). */
  readonly now?: (() => number) | undefined;
}

interface Entry<T> {
  readonly record: T;
  used: boolean;
}

function bound(value: number | undefined, fallback: number, name: string): number {
  const chosen = value ?? fallback;
  if (!(Number.isSafeInteger(chosen) && chosen > 0)) throw new SdkError('INVALID_ARGUMENT', `${name} must be a positive integer, not ${String(chosen)}`);
  return chosen;
}

/**
 * An {@link AuthorizationStore} in memory, for development and tests: everything is lost on
 * restart and nothing is shared between processes. Every table is bounded.
 *
 * @example
 * ```ts
 * import { InMemoryAuthorizationStore } from 'mcpgen/auth-server';
 *
 * const store = new InMemoryAuthorizationStore({ maxClients: 1_000, maxTokens: 10_000 });
 * ```
 */
export class InMemoryAuthorizationStore implements AuthorizationStore {
  private readonly clients = new Map<string, RegisteredClient>();
  private readonly codes = new Map<string, Entry<CodeRecord>>();
  private readonly tokens = new Map<string, Entry<TokenRecord>>();
  private readonly grants = new Map<string, Set<string>>();
  private readonly maxClients: number;
  private readonly maxCodes: number;
  private readonly maxTokens: number;
  private readonly replayMemoryMs: number;
  private readonly now: () => number;

  constructor(options: InMemoryAuthorizationStoreOptions = {}) {
    this.maxClients = bound(options.maxClients, 10_000, 'maxClients');
    this.maxCodes = bound(options.maxCodes, 10_000, 'maxCodes');
    this.maxTokens = bound(options.maxTokens, 100_000, 'maxTokens');
    this.replayMemoryMs = Math.max(0, options.replayMemoryMs ?? 10 * 60_000);
    this.now = options.now ?? Date.now;
  }

  /** How many clients, codes and tokens are held now, for monitoring and tests. */
  get size(): { readonly clients: number; readonly codes: number; readonly tokens: number } {
    return { clients: this.clients.size, codes: this.codes.size, tokens: this.tokens.size };
  }

  async getClient(clientId: string): Promise<RegisteredClient | undefined> {
    const client = this.clients.get(clientId);
    if (client !== undefined) {
      // Map order is recency order: the first entry is the least recently used.
      this.clients.delete(clientId);
      this.clients.set(clientId, client);
    }
    return client;
  }

  async saveClient(client: RegisteredClient): Promise<void> {
    this.clients.delete(client.client_id);
    this.clients.set(client.client_id, client);
    while (this.clients.size > this.maxClients) this.clients.delete(this.clients.keys().next().value!);
  }

  async saveCode(key: string, record: CodeRecord): Promise<void> {
    this.sweep(this.codes);
    this.codes.set(key, { record, used: false });
    while (this.codes.size > this.maxCodes) this.codes.delete(this.codes.keys().next().value!);
  }

  async consumeCode(key: string): Promise<Consumed<CodeRecord> | undefined> {
    return this.consume(this.codes, key);
  }

  async saveToken(key: string, record: TokenRecord): Promise<void> {
    this.sweep(this.tokens, (old) => this.dropToken(old));
    this.tokens.set(key, { record, used: false });
    let keys = this.grants.get(record.grantId);
    if (keys === undefined) this.grants.set(record.grantId, (keys = new Set()));
    keys.add(key);
    while (this.tokens.size > this.maxTokens) this.dropToken(this.tokens.keys().next().value!);
  }

  async getToken(key: string): Promise<TokenRecord | undefined> {
    const entry = this.tokens.get(key);
    return entry === undefined || entry.used ? undefined : entry.record;
  }

  async consumeRefreshToken(key: string): Promise<Consumed<TokenRecord> | undefined> {
    const entry = this.tokens.get(key);
    return entry?.record.kind === 'refresh' ? this.consume(this.tokens, key) : undefined;
  }

  async deleteToken(key: string): Promise<void> {
    this.dropToken(key);
  }

  async revokeGrant(grantId: string): Promise<void> {
    for (const key of [...(this.grants.get(grantId) ?? [])]) this.dropToken(key);
  }

  private consume<T>(table: Map<string, Entry<T>>, key: string): Consumed<T> | undefined {
    const entry = table.get(key);
    if (entry === undefined) return undefined;
    const firstUse = !entry.used;
    entry.used = true;
    return { record: entry.record, firstUse };
  }

  private dropToken(key: string): void {
    const entry = this.tokens.get(key);
    if (entry === undefined) return;
    this.tokens.delete(key);
    const keys = this.grants.get(entry.record.grantId);
    keys?.delete(key);
    if (keys?.size === 0) this.grants.delete(entry.record.grantId);
  }

  /**
   * Forgets entries whose replay memory is over, from the oldest while they are that old (an
   * entry that lives longer stops the sweep; the table's bound still holds).
   */
  private sweep<T extends { readonly expiresAt: number }>(table: Map<string, Entry<T>>, drop: (key: string) => void = (key) => table.delete(key)): void {
    const cutoff = this.now() - this.replayMemoryMs;
    for (const [key, entry] of table) {
      if (entry.record.expiresAt > cutoff) break;
      drop(key);
    }
  }
}
