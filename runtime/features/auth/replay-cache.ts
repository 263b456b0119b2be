/**
 * The proof ids (`jti`) a resource server has accepted, remembered while a replay of the proof
 * could still pass the freshness check. Entries share one lifetime, so arrival order is expiry
 * order: a ring of at most `maxEntries` ids, oldest first, with expired ids dropped from its
 * oldest end as new ones arrive and, when it is full, the id closest to expiry making room.
 * Every operation is constant time (amortised); no request walks the whole cache.
 */

/** Default bound on remembered DPoP proof ids. */
export const DEFAULT_DPOP_REPLAY_CACHE_ENTRIES = 100_000;

export class ReplayCache {
  private readonly until = new Map<string, number>();
  private readonly ring: string[] = [];
  private readonly expiries: number[] = [];
  /** Index of the oldest id in the ring. */
  private head = 0;
  private count = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly lifetimeMs: number,
  ) {}

  /** How many ids are remembered. */
  get size(): number {
    return this.until.size;
  }

  /**
   * Records `id` as used at `now`; returns false when it was used before and has not expired.
   * Synchronous, so that two requests carrying the same proof cannot both pass.
   */
  use(id: string, now: number): boolean {
    while (this.count > 0 && this.expiries[this.head]! <= now) this.dropOldest();
    const until = this.until.get(id);
    if (until !== undefined && until > now) return false;
    if (this.count === this.maxEntries) this.dropOldest();
    const slot = (this.head + this.count) % this.maxEntries;
    this.ring[slot] = id;
    this.expiries[slot] = now + this.lifetimeMs;
    this.count++;
    this.until.set(id, now + this.lifetimeMs);
    return true;
  }

  private dropOldest(): void {
    const id = this.ring[this.head]!;
    // An id re-used after it expired has a newer slot; only its newest slot removes it.
    if (this.until.get(id) === this.expiries[this.head]) this.until.delete(id);
    this.head = (this.head + 1) % this.maxEntries;
    this.count--;
  }
}
