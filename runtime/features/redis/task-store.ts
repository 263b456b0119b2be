/**
 * Tasks (the tasks extension's and 2025-11-25's) shared by replicas through Redis: a task
 * created on one replica is polled, answered and cancelled through any other.
 */
import { applyTaskChange, type StoredTask, type TaskChange, type TaskPage, type TaskStore } from '../tasks/task-store.js';
import type { RedisConnection } from './connection.js';

/** Options of a {@link RedisTaskStore}. */
export interface RedisTaskStoreOptions {
  /** How often an update retries after losing a race with another writer (default 50). */
  readonly maxUpdateAttempts?: number | undefined;
  /** The store's clock, epoch ms (tests move it). */
  readonly now?: (() => number) | undefined;
}

/** Score of a task that never expires in its owner's index. */
const NEVER = 9_007_199_254_740_991;
/** Owner index of the tasks nobody owns. */
const NOBODY = '-';

// Creates the task (unless its id exists), expiring with the task, and indexes it under its
// owner; the index lives as long as its longest-lived task.
const CREATE = `if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', '1', 'task', ARGV[1])
if ARGV[2] ~= '' then redis.call('PEXPIREAT', KEYS[1], ARGV[2]) end
local before = redis.call('PTTL', KEYS[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
if ARGV[2] == '' then redis.call('PERSIST', KEYS[2])
elseif before == -2 or (before >= 0 and tonumber(ARGV[5]) > before) then redis.call('PEXPIREAT', KEYS[2], ARGV[2]) end
return 1`;
// Writes the changed task only if nobody wrote it since it was read (its version is unchanged);
// HSET keeps the key's expiry.
const COMPARE_AND_SET = `if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'task', ARGV[3])
return 1`;
// Drops expired entries from an owner's index (on a first page only, so that offsets of a
// listing in progress stay put), then reads one page of ids.
const PAGE_IDS = `if ARGV[1] == '1' then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2]) end
return redis.call('ZRANGE', KEYS[1], ARGV[3], ARGV[4])`;
// The tasks of the given keys (false for expired ones), in one round trip.
const READ_MANY = `local out = {}
for i, key in ipairs(KEYS) do out[i] = redis.call('HGET', key, 'task') end
return out`;

/**
 * A {@link TaskStore} on Redis, for replicas behind a load balancer. Each task is a hash
 * `<prefix>:task:<id>` (`task`: the StoredTask as JSON, `v`: a version counter) that expires
 * when the task does (`expiresAt`, PEXPIREAT); `<prefix>:tasks:<owner>` is a sorted set of the
 * owner's task ids for `tasks/list`, pruned of expired ids and expiring with its last task.
 * The requester binding is the task's `owner`, kept as it was created.
 *
 * Updates are atomic by compare-and-set: the task is read, changed with the same
 * `applyTaskChange` every store uses, and written by a Lua script only if its version did not
 * move meanwhile, else read again and retried. Not WATCH/MULTI, because every caller shares the
 * connection's one Redis link and WATCH belongs to the link (another caller's EXEC would end
 * this one's watch); not the change itself in Lua, so that the rules exist once.
 *
 * @example
 * ```ts
 * import { TasksExtension } from 'mcpgen/tasks';
 * import { RedisConnection, RedisTaskStore } from 'mcpgen/redis';
 *
 * const redis = await RedisConnection.connect({ prefix: 'jobs' });
 * const tasks = new TasksExtension({ store: new RedisTaskStore(redis) });
 * ```
 */
export class RedisTaskStore implements TaskStore {
  private readonly maxAttempts: number;
  private readonly now: () => number;

  constructor(
    private readonly redis: RedisConnection,
    options: RedisTaskStoreOptions = {},
  ) {
    this.maxAttempts = Math.max(1, options.maxUpdateAttempts ?? 50);
    this.now = options.now ?? Date.now;
  }

  async create(task: StoredTask): Promise<void> {
    const expiresAt = task.expiresAt === null ? '' : String(task.expiresAt);
    const remaining = task.expiresAt === null ? '' : String(Math.max(0, task.expiresAt - this.now()));
    const created = await this.redis.evaluate<number>(
      CREATE,
      [this.taskKey(task.taskId), this.indexKey(task.owner)],
      [JSON.stringify(task), expiresAt, String(task.expiresAt ?? NEVER), task.taskId, remaining],
    );
    if (created !== 1) throw new Error(`Task ${task.taskId} already exists`);
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    return (await this.read(taskId))?.task;
  }

  async update(taskId: string, change: TaskChange): Promise<StoredTask | undefined> {
    for (let attempt = 0; attempt < this.maxAttempts; attempt++) {
      const current = await this.read(taskId);
      if (current === undefined) return undefined;
      const next = applyTaskChange(current.task, change, new Date(this.now()).toISOString());
      const written = await this.redis.evaluate<number>(COMPARE_AND_SET, [this.taskKey(taskId)], [current.version, String(Number(current.version) + 1), JSON.stringify(next)]);
      if (written === 1) return next;
    }
    throw new Error(`Task ${taskId} changed under ${this.maxAttempts} attempts to update it; giving up`);
  }

  async list(owner: string | null, cursor: string | undefined, limit: number): Promise<TaskPage> {
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isSafeInteger(start) || start < 0) throw new RangeError(`Invalid cursor ${JSON.stringify(cursor)}`);
    const count = Math.max(1, limit);
    // One id more than the page, to know whether another page follows.
    const ids = await this.redis.evaluate<string[]>(PAGE_IDS, [this.indexKey(owner)], [cursor === undefined ? '1' : '0', String(this.now()), String(start), String(start + count)]);
    const more = ids.length > count;
    const page = ids.slice(0, count);
    const values = page.length === 0 ? [] : await this.redis.evaluate<Array<string | null>>(READ_MANY, page.map((id) => this.taskKey(id)), []);
    const tasks: StoredTask[] = [];
    for (const value of values) {
      const task = typeof value === 'string' ? (JSON.parse(value) as StoredTask) : undefined;
      if (task !== undefined && !this.expired(task) && task.owner === owner) tasks.push(task);
    }
    return more ? { tasks, nextCursor: String(start + count) } : { tasks };
  }

  private async read(taskId: string): Promise<{ task: StoredTask; version: string } | undefined> {
    const [version, value] = await this.redis.command<[string | null, string | null]>(['HMGET', this.taskKey(taskId), 'v', 'task']);
    if (version === null || value === null) return undefined;
    const task = JSON.parse(value) as StoredTask;
    // Redis expires the key at the same instant; this covers clocks that disagree a little.
    return this.expired(task) ? undefined : { task, version };
  }

  private expired(task: StoredTask): boolean {
    return task.expiresAt !== null && task.expiresAt <= this.now();
  }

  private taskKey(taskId: string): string {
    return this.redis.key('task', taskId);
  }

  private indexKey(owner: string | null): string {
    // Owners are free text (a subject, a session id): encoded, so that none can reach another's key.
    return this.redis.key('tasks', owner === null ? NOBODY : encodeURIComponent(owner));
  }
}
