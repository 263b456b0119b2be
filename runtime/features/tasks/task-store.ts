/**
 * Where tasks live between the request that created them and the polls that read them. A
 * store is the only state the tasks extension shares between Servers (one per HTTP request in
 * the stateless era) and between replicas, so a task must be in it before the CreateTaskResult
 * goes out, and every change must be atomic.
 *
 * Implementations keep {@link StoredTask} records (plain JSON) and apply changes with
 * {@link applyTaskChange}, inside whatever makes a read-modify-write atomic for them (a lock,
 * a transaction, a compare-and-set loop, a script).
 */

/** The lifecycle states of a task; the last three are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The statuses a task never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** A question the task asks the client: an input request (`elicitation/create`, `sampling/createMessage`, `roots/list`). */
export interface StoredInputRequest {
  readonly method: string;
  readonly params?: { readonly [key: string]: unknown };
}

/** One task as a store keeps it. Every member is JSON. */
export interface StoredTask {
  /** Unguessable id (a random UUID). */
  readonly taskId: string;
  /**
   * The requester the task belongs to (an authenticated subject, a session); only that
   * requester may read, update or cancel it. Null: anyone who holds the id.
   */
  readonly owner: string | null;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** How long the task is kept after creation, in ms; null: until the store is cleared. */
  readonly ttlMs: number | null;
  /** How often the client should poll, in ms. */
  readonly pollIntervalMs?: number;
  /** Epoch ms after which the store may forget the task (creation + ttlMs); null: never. */
  readonly expiresAt: number | null;
  /** The final result (status `completed`), e.g. a CallToolResult. */
  readonly result?: { readonly [key: string]: unknown };
  /** The final JSON-RPC error (status `failed`). */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** Questions waiting for an answer, by key (status `input_required`). */
  readonly inputRequests?: { readonly [key: string]: StoredInputRequest };
  /** Answers received with `tasks/update`, by key, for the task to pick up. */
  readonly inputResponses?: { readonly [key: string]: unknown };
}

/** One atomic change to a task. Members left out stay as they are. */
export interface TaskChange {
  /** Moves to this status; ignored once the task is terminal (the first terminal status wins). */
  readonly status?: TaskStatus;
  readonly statusMessage?: string;
  readonly result?: { readonly [key: string]: unknown };
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** Adds questions (status becomes `input_required` unless terminal). */
  readonly ask?: { readonly [key: string]: StoredInputRequest };
  /**
   * Answers questions: each key that is waiting moves from `inputRequests` to
   * `inputResponses` (other keys are ignored); with no question left, `input_required` goes
   * back to `working`.
   */
  readonly answer?: { readonly [key: string]: unknown };
}

/**
 * A task store. Every method is async so that stores may live in another process (Redis, a
 * database). Expired tasks (past `expiresAt`) must read as absent.
 *
 * @example
 * ```ts
 * const store: TaskStore = new InMemoryTaskStore();
 * const tasks = new TasksExtension({ store });
 * ```
 */
export interface TaskStore {
  /** Stores a new task; resolves once it is durable (a `get` anywhere sees it). */
  create(task: StoredTask): Promise<void>;
  /** The task, or undefined when it is unknown or expired. */
  get(taskId: string): Promise<StoredTask | undefined>;
  /**
   * Applies `change` atomically (as {@link applyTaskChange} with the store's clock) and
   * resolves with the task after it, or undefined when the task is unknown or expired.
   */
  update(taskId: string, change: TaskChange): Promise<StoredTask | undefined>;
  /**
   * The live tasks of `owner` (null: the tasks nobody owns), oldest first, at most `limit` from
   * `cursor` on. Optional: a server whose store lacks it does not offer 2025-11-25 `tasks/list`.
   */
  list?(owner: string | null, cursor: string | undefined, limit: number): Promise<TaskPage>;
}

/** One page of {@link TaskStore.list}. */
export interface TaskPage {
  readonly tasks: readonly StoredTask[];
  /** Where the next page starts; absent on the last page. */
  readonly nextCursor?: string;
}

/** The task after `change`, at time `now` (ISO 8601): the rules every store applies. */
export function applyTaskChange(task: StoredTask, change: TaskChange, now: string): StoredTask {
  const terminal = TERMINAL_STATUSES.has(task.status);
  let status = task.status;
  const requests: Record<string, StoredInputRequest> = { ...(task.inputRequests ?? {}) };
  const responses: Record<string, unknown> = { ...(task.inputResponses ?? {}) };
  if (!terminal && change.ask !== undefined) {
    Object.assign(requests, change.ask);
    status = 'input_required';
  }
  if (change.answer !== undefined) {
    for (const [key, value] of Object.entries(change.answer)) {
      if (!Object.hasOwn(requests, key)) continue;
      delete requests[key];
      responses[key] = value;
    }
    if (!terminal && status === 'input_required' && Object.keys(requests).length === 0) status = 'working';
  }
  if (!terminal && change.status !== undefined) status = change.status;
  const next: { -readonly [K in keyof StoredTask]: StoredTask[K] } = { ...task, status, lastUpdatedAt: now, inputRequests: requests, inputResponses: responses };
  if (!terminal) {
    if (change.statusMessage !== undefined) next.statusMessage = change.statusMessage;
    if (change.result !== undefined && status === 'completed') next.result = change.result;
    if (change.error !== undefined && status === 'failed') next.error = change.error;
  }
  if (TERMINAL_STATUSES.has(status)) next.inputRequests = {};
  return next;
}
