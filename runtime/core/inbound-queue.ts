/**
 * Most messages a connection may hold back while the revision module an earlier message needs
 * is loading (see {@link InboundQueue}). Beyond it a message is dropped and reported, so a peer
 * that floods a connection during a load cannot grow memory without bound.
 */
export const INBOUND_BACKLOG_LIMIT = 1000;

/** What an {@link InboundQueue} calls. */
export interface InboundQueueHooks<T> {
  /**
   * Undefined when `item` may be delivered now; otherwise a Promise (a module load) that this
   * item and every later one wait for.
   */
  prepare(item: T): Promise<unknown> | undefined;
  /** Hands an item on, in arrival order. */
  deliver(item: T): void;
  /** Receives an item dropped because the backlog was full, or a failed preparation. */
  report(error: Error, item: T): void;
  /** An item the full backlog had no room for (after `report`): its owner answers what needs an answer. */
  drop?(item: T): void;
}

/**
 * Keeps one connection's inbound messages in arrival order across asynchronous preparation.
 * An item whose preparation is synchronous (the module it needs is loaded) is delivered at
 * once, with no microtask in between; while a preparation is in flight, later items wait in a
 * bounded backlog and are delivered, in order, after the item that started it.
 */
export class InboundQueue<T> {
  private backlog: T[] | undefined;
  private readonly hooks: InboundQueueHooks<T>;
  private readonly limit: number;

  constructor(hooks: InboundQueueHooks<T>, limit = INBOUND_BACKLOG_LIMIT) {
    this.hooks = hooks;
    this.limit = limit;
  }

  /** Number of items waiting behind a preparation. */
  get waiting(): number {
    return this.backlog?.length ?? 0;
  }

  /** Takes one inbound item. */
  push(item: T): void {
    if (this.backlog === undefined) {
      this.admit(item);
      return;
    }
    if (this.backlog.length >= this.limit) {
      this.hooks.report(new Error(`Dropped an inbound message: ${this.limit} messages already wait for a revision module to load`), item);
      this.hooks.drop?.(item);
      return;
    }
    this.backlog.push(item);
  }

  /** Forgets the waiting items (the connection closed). */
  clear(): void {
    if (this.backlog !== undefined) this.backlog = [];
  }

  private admit(item: T): void {
    const preparing = this.hooks.prepare(item);
    if (preparing === undefined) {
      this.hooks.deliver(item);
      return;
    }
    this.backlog = [];
    preparing
      .catch((error: unknown) => this.hooks.report(error instanceof Error ? error : new Error(String(error)), item))
      .then(() => this.resume(item));
  }

  private resume(first: T): void {
    const queued = this.backlog ?? [];
    this.backlog = undefined;
    this.hooks.deliver(first);
    for (let index = 0; index < queued.length; index++) {
      if (this.backlog !== undefined) {
        // An item started another preparation: the rest wait behind it, still in order.
        (this.backlog as T[]).push(...queued.slice(index));
        return;
      }
      this.admit(queued[index]!);
    }
  }
}
