import { hasCapability, type CapabilityObject } from '../../era/capabilities.js';
import { asError } from '../../core/errors.js';
import type { ListKind } from './registry.js';
import type { McpSession } from './session.js';

/**
 * How list changes reach clients: `'coalesce'` (default) sends one notification per list and
 * session for all changes made within one macrotask, `'immediate'` one per change, and `'off'`
 * none (the capabilities then omit `listChanged`).
 */
export type ListChangedMode = 'coalesce' | 'immediate' | 'off';

/**
 * Sends `notifications/<kind>/list_changed` to every initialized session that was told the
 * list can change. Registering ten tools in a loop is one notification per session, not ten:
 * changes are collected and flushed on a zero-delay timer, which runs after the current task
 * and all its microtasks.
 */
export class ListChangedNotifier {
  /** Per pending list, the epoch of its latest change: sessions created later already see it. */
  private readonly pending = new Map<ListKind, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private epoch = 0;

  constructor(
    private readonly mode: ListChangedMode,
    private readonly sessions: () => Iterable<McpSession>,
    private readonly report: (error: Error) => void,
  ) {}

  /** The epoch a new session starts at; it is told only of changes made after this. */
  nextEpoch(): number {
    this.epoch += 1;
    return this.epoch;
  }

  changed(kind: ListKind): void {
    if (this.mode === 'off') return;
    // Nobody to tell (sessions made later see the list as it is then), and no timer either:
    // registering at module scope must not schedule one (Workers refuse timers there).
    if (this.sessions()[Symbol.iterator]().next().done === true) return;
    if (this.mode === 'immediate') {
      this.send(kind, this.epoch);
      return;
    }
    this.pending.set(kind, this.epoch);
    this.timer ??= setTimeout(() => this.flush(), 0);
  }

  /** Sends what is pending now (also used when the server shuts down). */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const kinds = [...this.pending];
    this.pending.clear();
    for (const [kind, epoch] of kinds) this.send(kind, epoch);
  }

  private send(kind: ListKind, epoch: number): void {
    for (const session of this.sessions()) {
      if (session.epoch > epoch || !session.isInitialized || !hasCapability(session.capabilities as CapabilityObject, [kind, 'listChanged'])) continue;
      const server = session.server;
      const sent = kind === 'tools' ? server.notifyToolListChanged() : kind === 'resources' ? server.notifyResourceListChanged() : server.notifyPromptListChanged();
      sent.catch((error: unknown) => this.report(asError(error)));
    }
  }
}
