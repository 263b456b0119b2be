import { applyTaskChange, type StoredTask, type TaskChange, type TaskPage, type TaskStore } from './task-store.js';

/**
 * A {@link TaskStore} in this process's memory: right for one server process (every Server an
 * McpServer or HTTP handler creates shares it); replicas need a shared store. Expired tasks
 * are dropped when read and by a periodic sweep that does not keep the process alive.
 *
 * @example
 * ```ts
 * const tasks = new TasksExtension({ store: new InMemoryTaskStore() });
 * ```
 */
export class InMemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, StoredTask>();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  async create(task: StoredTask): Promise<void> {
    if (this.tasks.has(task.taskId)) throw new Error(`Task ${task.taskId} already exists`);
    this.tasks.set(task.taskId, structuredClone(task));
    this.startSweeper();
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    const task = this.live(taskId);
    return task === undefined ? undefined : structuredClone(task);
  }

  async update(taskId: string, change: TaskChange): Promise<StoredTask | undefined> {
    const task = this.live(taskId);
    if (task === undefined) return undefined;
    const next = applyTaskChange(task, structuredClone(change), new Date(this.now()).toISOString());
    this.tasks.set(taskId, next);
    return structuredClone(next);
  }

  async list(owner: string | null, cursor: string | undefined, limit: number): Promise<TaskPage> {
    // The cursor is an offset into the owner's live tasks, in creation order (the map's order).
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isSafeInteger(start) || start < 0) throw new RangeError(`Invalid cursor ${JSON.stringify(cursor)}`);
    const mine = [...this.tasks.keys()].map((taskId) => this.live(taskId)).filter((task): task is StoredTask => task !== undefined && task.owner === owner);
    const page = mine.slice(start, start + limit).map((task) => structuredClone(task));
    return start + limit < mine.length ? { tasks: page, nextCursor: String(start + limit) } : { tasks: page };
  }

  /** Number of tasks held, expired ones not yet swept included. */
  get size(): number {
    return this.tasks.size;
  }

  private live(taskId: string): StoredTask | undefined {
    const task = this.tasks.get(taskId);
    if (task !== undefined && task.expiresAt !== null && task.expiresAt <= this.now()) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return task;
  }

  private startSweeper(): void {
    if (this.sweeper !== undefined) return;
    this.sweeper = setInterval(() => {
      for (const taskId of [...this.tasks.keys()]) this.live(taskId);
      if (this.tasks.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, 60_000);
    // An idle store must not keep a process alive (Node); other runtimes have no unref.
    (this.sweeper as { unref?: () => void }).unref?.();
  }
}
