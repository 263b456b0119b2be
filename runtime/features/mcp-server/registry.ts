import type { McpSession } from './session.js';

/** The lists whose changes a server announces with `notifications/<kind>/list_changed`. */
export type ListKind = 'tools' | 'resources' | 'prompts';

/** What every registered item has: an on/off switch and an optional per-session filter. */
export interface RegistryEntry {
  enabled: boolean;
  available: ((session: McpSession) => boolean) | undefined;
}

/**
 * An ordered set of registered items keyed by name (or URI). Order is registration order, so
 * that list pages are stable; every change is reported to `changed`, which schedules the
 * list_changed notification.
 */
export class Registry<E extends RegistryEntry> {
  private entries = new Map<string, E>();

  constructor(
    private readonly what: string,
    readonly kind: ListKind,
    private readonly changed: (kind: ListKind) => void,
  ) {}

  /** Number of registered items, enabled or not. */
  get size(): number {
    return this.entries.size;
  }

  get(key: string): E | undefined {
    return this.entries.get(key);
  }

  /** Adds an item; throws when the key is taken. */
  add(key: string, entry: E): void {
    if (this.entries.has(key)) throw new Error(`${this.what} ${JSON.stringify(key)} is already registered`);
    this.entries.set(key, entry);
    this.touch();
  }

  /** Changes an item's key in place (it keeps its position); throws when the new key is taken. */
  rename(from: string, to: string): void {
    if (from === to) return;
    if (this.entries.has(to)) throw new Error(`${this.what} ${JSON.stringify(to)} is already registered`);
    this.entries = new Map([...this.entries].map(([key, entry]) => [key === from ? to : key, entry]));
  }

  remove(key: string): void {
    if (this.entries.delete(key)) this.touch();
  }

  /** Reports a change made to an entry in place. */
  touch(): void {
    this.changed(this.kind);
  }

  /** The items `session` may see: enabled, and passing their `available` filter. */
  visible(session: McpSession): Array<[string, E]> {
    const out: Array<[string, E]> = [];
    for (const pair of this.entries) if (isVisible(pair[1], session)) out.push(pair);
    return out;
  }

  /** The item under `key` if `session` may see it. */
  find(key: string, session: McpSession): E | undefined {
    const entry = this.entries.get(key);
    return entry !== undefined && isVisible(entry, session) ? entry : undefined;
  }

  /** Every item `session` may see, in order, for lookups that are not by key. */
  *each(session: McpSession): IterableIterator<E> {
    for (const entry of this.entries.values()) if (isVisible(entry, session)) yield entry;
  }
}

function isVisible(entry: RegistryEntry, session: McpSession): boolean {
  return entry.enabled && (entry.available === undefined || entry.available(session));
}

/** The controls every registration returns. */
export interface RegisteredHandle {
  /** Whether the item is listed and callable. */
  readonly enabled: boolean;
  /** Lists the item again (announcing the change to connected sessions). */
  enable(): void;
  /** Hides the item from lists and calls without forgetting it (announcing the change). */
  disable(): void;
  /** Forgets the item (announcing the change); its key becomes free again. */
  remove(): void;
}

/** The enable/disable/remove half of every handle; subclasses add naming and `update`. */
export abstract class EntryHandle<E extends RegistryEntry> implements RegisteredHandle {
  constructor(
    protected readonly registry: Registry<E>,
    protected readonly entry: E,
  ) {}

  /** The entry's current key in the registry (names change with `update`). */
  protected abstract get key(): string;

  get enabled(): boolean {
    return this.entry.enabled;
  }

  enable(): void {
    this.set(true);
  }

  disable(): void {
    this.set(false);
  }

  remove(): void {
    this.registry.remove(this.key);
  }

  private set(enabled: boolean): void {
    if (this.entry.enabled === enabled) return;
    this.entry.enabled = enabled;
    this.registry.touch();
  }
}
