/**
 * The core experimental tasks of 2025-11-25 (`params.task` on tools/call, tasks/get,
 * tasks/result, tasks/list, tasks/cancel), served from the same store and runner as the
 * extension.
 */
import { Method } from '../../../generated/methods.js';
import type { CreateTaskResult as CoreCreateTaskResult, ListTasksResult as CoreListTasksResult, Task as CoreTask } from '../../../generated/2025-11-25/index.js';
import { ErrorCodes } from '../../../generated/protocol/error-codes.js';
import { ProtocolError } from '../../core/errors.js';
import { isJsonObject } from '../../core/jsonrpc.js';
import type { RequestContext } from '../../core/request-context.js';
import type { ExtensionEndpoint as Endpoint } from '../../peers/extension.js';
import type { TaskRunner, TaskRunOptions, TaskWork } from './task-runner.js';
import { TERMINAL_STATUSES, type StoredTask, type TaskStore } from './task-store.js';
import { coreTask, RELATED_TASK_META } from './task-views.js';

/** Tasks per `tasks/list` page (2025-11-25). */
const LIST_PAGE = 50;

/** What the core tasks share with the extension that serves them. */
export interface CoreTaskHost {
  readonly store: TaskStore;
  readonly runner: TaskRunner;
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  requesterOf(context: RequestContext): string | null;
  /** The task if `context`'s requester may see it, else INVALID_PARAMS in `codes`. */
  owned(taskId: string, context: RequestContext, codes: { readonly [name: string]: number }): Promise<StoredTask>;
}

/** True when the session's revision has the core experimental tasks (2025-11-25). */
export function speaksCoreTasks(endpoint: Endpoint): boolean {
  return endpoint.protocol.revision?.era === 'stateful' && endpoint.protocol.revision.methods[Method.TasksResult] !== undefined;
}

/** The error codes of the endpoint's revision (every pinned code before one is bound). */
export function codesOf(endpoint: Endpoint): { readonly [name: string]: number } {
  return endpoint.protocol.revision?.errorCodes ?? ErrorCodes;
}

/** The 2025-11-25 task methods; TasksExtension routes a session of that revision here. */
export class CoreTasks {
  constructor(private readonly host: CoreTaskHost) {}

  /** 2025-11-25: stores a task for a request with `params.task` and answers with its CreateTaskResult. */
  async create(endpoint: Endpoint, context: RequestContext, work: TaskWork, options: TaskRunOptions): Promise<CoreCreateTaskResult> {
    const requested = (options.params?.task as { ttl?: unknown } | undefined)?.ttl;
    // The requested TTL is honoured up to the server's own.
    const ttlMs = typeof requested === 'number' && requested >= 0 ? (this.host.ttlMs === null ? requested : Math.min(requested, this.host.ttlMs)) : this.host.ttlMs;
    const created = Date.now();
    const now = new Date(created).toISOString();
    const task: StoredTask = {
      taskId: crypto.randomUUID(),
      owner: this.host.requesterOf(context),
      status: 'working',
      ...(options.statusMessage !== undefined ? { statusMessage: options.statusMessage } : {}),
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs: this.host.pollIntervalMs,
      expiresAt: ttlMs === null ? null : created + ttlMs,
    };
    await this.host.store.create(task);
    this.host.runner.start(task, context, work, { core: endpoint });
    return { task: coreTask(task) };
  }

  /** 2025-11-25 `tasks/get`: the task's state. */
  async get(endpoint: Endpoint, taskId: string, context: RequestContext): Promise<CoreTask> {
    return coreTask(await this.host.owned(taskId, context, codesOf(endpoint)));
  }

  /**
   * 2025-11-25 `tasks/result`: blocks until the task ends, then answers what the request would
   * have: its result (tied to the task in `_meta`) or its error. Meanwhile the task's questions
   * to the client travel on this request (the task must run in this process for that).
   */
  async result(endpoint: Endpoint, taskId: string, context: RequestContext): Promise<Record<string, unknown>> {
    const codes = codesOf(endpoint);
    let task = await this.host.owned(taskId, context, codes);
    const close = this.host.runner.openChannel(taskId, context);
    try {
      while (!TERMINAL_STATUSES.has(task.status)) {
        await this.host.runner.nextChange(taskId, context.signal);
        context.signal.throwIfAborted();
        const current = await this.host.store.get(taskId);
        if (current === undefined) throw new ProtocolError(codes.INVALID_PARAMS!, `Invalid params: task ${JSON.stringify(taskId)} expired`);
        task = current;
      }
    } finally {
      close();
    }
    const related = { [RELATED_TASK_META]: { taskId } };
    switch (task.status) {
      case 'completed': {
        const result = task.result ?? {};
        return { ...result, _meta: { ...(isJsonObject(result._meta) ? result._meta : {}), ...related } };
      }
      case 'failed': {
        const error = task.error ?? { code: codes.INTERNAL_ERROR!, message: 'Task failed' };
        throw new ProtocolError(error.code, error.message, error.data);
      }
      default:
        throw new ProtocolError(codes.INTERNAL_ERROR!, `Task ${taskId} was cancelled${task.statusMessage === undefined ? '' : `: ${task.statusMessage}`}`, related);
    }
  }

  /** 2025-11-25 `tasks/list`: the requester's tasks, a page at a time. */
  async list(endpoint: Endpoint, cursor: unknown, context: RequestContext): Promise<CoreListTasksResult> {
    const codes = codesOf(endpoint);
    if (this.host.store.list === undefined) throw new ProtocolError(codes.METHOD_NOT_FOUND!, 'Method not found: tasks/list (the task store cannot list)');
    let page;
    try {
      page = await this.host.store.list(this.host.requesterOf(context), typeof cursor === 'string' ? cursor : undefined, LIST_PAGE);
    } catch (error) {
      if (error instanceof RangeError) throw new ProtocolError(codes.INVALID_PARAMS!, `Invalid params: unknown cursor ${JSON.stringify(cursor)}`);
      throw error;
    }
    return { tasks: page.tasks.map(coreTask), ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
  }

  /** 2025-11-25 `tasks/cancel`: refused for a finished task (-32602), else the task is cancelled and its work aborted. */
  async cancel(endpoint: Endpoint, taskId: string, context: RequestContext): Promise<CoreTask> {
    const codes = codesOf(endpoint);
    const task = await this.host.owned(taskId, context, codes);
    if (TERMINAL_STATUSES.has(task.status)) throw new ProtocolError(codes.INVALID_PARAMS!, `Invalid params: task ${JSON.stringify(taskId)} is already ${task.status}`);
    const after = await this.host.runner.change(taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client' });
    this.host.runner.abort(taskId);
    return coreTask(after ?? task);
  }
}
