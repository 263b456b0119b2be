/**
 * A table of in-flight requests by id that allocates nothing while it stays small.
 *
 * A Map leaves a tombstone for each deleted entry and rehashes into a new backing table once
 * entries and tombstones fill the old one; it also shrinks on the delete that empties it. A
 * connection with one request at a time (the common case) adds and removes one entry per
 * call, so a Map allocates a table every call or every few: two tables per call, client and
 * server, about a tenth of an in-memory call's garbage. Up to {@link SMALL_TABLE} entries live
 * in two fixed arrays instead, searched in order (as fast as hashing at that size, and
 * allocation-free); a burst beyond that moves them to a Map until the table empties again.
 */

/** Entries kept in the fixed arrays; more move the table to a Map. */
export const SMALL_TABLE = 8;

/** A map of request ids to `V`, in insertion order. Bounded by what its owner adds. */
export class IdTable<K, V> {
  // Made on the first entry: an engine built per request has tables it never fills.
  private keys: (K | undefined)[] | undefined;
  private items: (V | undefined)[] | undefined;
  /** Entries in the fixed arrays, at indexes below this. */
  private count = 0;
  /** The entries while there are more than the arrays hold. */
  private large: Map<K, V> | undefined;

  /** Number of entries. */
  get size(): number {
    return this.large === undefined ? this.count : this.large.size;
  }

  get(key: K): V | undefined {
    if (this.large !== undefined) return this.large.get(key);
    const index = this.indexOf(key);
    return index < 0 ? undefined : this.items![index];
  }

  has(key: K): boolean {
    return this.large !== undefined ? this.large.has(key) : this.indexOf(key) >= 0;
  }

  set(key: K, value: V): void {
    if (this.large !== undefined) {
      this.large.set(key, value);
      return;
    }
    const index = this.indexOf(key);
    const keys = (this.keys ??= new Array<K | undefined>(SMALL_TABLE).fill(undefined));
    const items = (this.items ??= new Array<V | undefined>(SMALL_TABLE).fill(undefined));
    if (index >= 0) {
      items[index] = value;
    } else if (this.count < SMALL_TABLE) {
      keys[this.count] = key;
      items[this.count] = value;
      this.count++;
    } else {
      const large = new Map<K, V>();
      for (let i = 0; i < this.count; i++) large.set(keys[i] as K, items[i] as V);
      large.set(key, value);
      this.forgetSmall();
      this.large = large;
    }
  }

  /** Removes `key`; true when it was there. */
  delete(key: K): boolean {
    if (this.large !== undefined) {
      const removed = this.large.delete(key);
      if (this.large.size === 0) this.large = undefined;
      return removed;
    }
    const index = this.indexOf(key);
    if (index < 0) return false;
    const keys = this.keys!;
    const items = this.items!;
    const last = this.count - 1;
    for (let i = index; i < last; i++) {
      keys[i] = keys[i + 1];
      items[i] = items[i + 1];
    }
    // The vacated slot lets go of its entry.
    keys[last] = undefined;
    items[last] = undefined;
    this.count = last;
    return true;
  }

  /** Removes every entry. */
  clear(): void {
    this.forgetSmall();
    this.large = undefined;
  }

  /** The values, oldest entry first, as a snapshot that later changes do not affect. */
  values(): V[] {
    if (this.large !== undefined) return [...this.large.values()];
    return this.count === 0 ? [] : (this.items!.slice(0, this.count) as V[]);
  }

  private indexOf(key: K): number {
    const keys = this.keys;
    for (let i = 0; i < this.count; i++) if (keys![i] === key) return i;
    return -1;
  }

  private forgetSmall(): void {
    if (this.count === 0) return;
    this.keys!.fill(undefined);
    this.items!.fill(undefined);
    this.count = 0;
  }
}
