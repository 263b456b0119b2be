/**
 * The client as the receiver of 2025-11-25's task-augmented requests: a `sampling/createMessage`
 * or `elicitation/create` that carries `params.task` is answered at once with a CreateTaskResult
 * while the client's own handler runs in the background, and the server follows the task with
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`, served here from a task store.
 */
import { Method } from '../../../generated/methods.js';
import type { CreateTaskResult as CoreCreateTaskResult } from '../../../generated/2025-11-25/index.js';
import { hasCapability, type CapabilityObject } from '../../era/capabilities.js';
import { messageOf, ProtocolError } from '../../core/errors.js';
import { isJsonObject } from '../../core/jsonrpc.js';
import type { Params, RequestContext, RequestHandler } from '../../core/request-context.js';
import type { ExtensionEndpoint as Endpoint } from '../../peers/extension.js';
import { sleep } from './sleep.js';
import { codesOf, speaksCoreTasks } from './core-tasks.js';
import { sessionDefinition } from './session-definition.js';
import { TERMINAL_STATUSES, type StoredTask, type TaskChange, type TaskStore } from './task-store.js';
import { coreTask, RELATED_TASK_META } from './task-views.js';

/** The requests a server may augment with a task (2025-11-25). */
const AUGMENTABLE: ReadonlySet<string> = new Set([Method.SamplingCreateMessage, Method.ElicitationCreate]);
/** Tasks per `tasks/list` page. */
const LIST_PAGE = 50;

/** How a client receives task-augmented requests. */
export interface ReceiverOptions {
  readonly store: TaskStore;
  /** The longest a task is kept after creation, in ms (the server may ask for less); null: no limit. */
  readonly ttlMs: number | null;
  /** How often the server should poll, in ms. */
  readonly pollIntervalMs: number;
  /** Most tasks whose handler runs at once; a request beyond it is answered -32603. */
  readonly maxRunning: number;
}

/** One task whose handler runs in this process. */
interface Running {
  readonly controller: AbortController;
  /** Called at every change of the task (a `tasks/result` waiting for its end). */
  readonly waiters: Set<() => void>;
}

/** Serves the client side of 2025-11-25 task-augmented requests. */
export class ReceiverTasks {
  private readonly running = new Map<string, Running>();
  /** Each Client's tasks are its own: one TasksClient may serve several connections. */
  private readonly owners = new WeakMap<Endpoint, string>();

  constructor(private readonly options: ReceiverOptions) {}

  /** Registers the task methods the server calls, and lets the augmentable requests answer with a task handle. */
  install(endpoint: Endpoint): void {
    for (const method of AUGMENTABLE) endpoint.protocol.addResultMember(method, 'task', sessionDefinition(endpoint, 'CreateTaskResult'));
    const taskIdOf = (params: Params | undefined): string => String(params?.taskId);
    endpoint.protocol.setRequestHandler(Method.TasksGet, async (params) => coreTask(await this.known(endpoint, taskIdOf(params))));
    endpoint.protocol.setRequestHandler(Method.TasksResult, async (params, context) => this.result(endpoint, taskIdOf(params), context));
    endpoint.protocol.setRequestHandler(Method.TasksList, async (params) => this.list(endpoint, params?.cursor));
    endpoint.protocol.setRequestHandler(Method.TasksCancel, async (params) => this.cancel(endpoint, taskIdOf(params)));
  }

  /**
   * The user's handler of `method`, answering a task-augmented request with a task when the
   * client declared task support for it (`capabilities.tasks.requests`); other requests, and
   * task augmentation the client did not declare, reach the handler as they are.
   */
  wrap(endpoint: Endpoint, method: string, handler: RequestHandler): RequestHandler {
    if (!AUGMENTABLE.has(method)) return handler;
    return (params, context) => {
      // What this Client declared (its `tasks.requests` say which requests it takes as tasks); the
      // endpoint keeps it protected, so it is read the way the engine reads it, by name.
      const capabilities = (endpoint as unknown as { ownCapabilities?: CapabilityObject }).ownCapabilities;
      const augmented = isJsonObject(params?.task) && speaksCoreTasks(endpoint) && hasCapability(capabilities, ['tasks', 'requests', ...method.split('/')]);
      if (!augmented) return handler(params, context);
      return this.create(endpoint, params!, context, handler);
    };
  }

  private async create(endpoint: Endpoint, params: Params, request: RequestContext, handler: RequestHandler): Promise<CoreCreateTaskResult> {
    const codes = codesOf(endpoint);
    if (this.running.size >= this.options.maxRunning) {
      throw new ProtocolError(codes.INTERNAL_ERROR!, `Internal error: ${this.options.maxRunning} tasks are running on this client; send ${request.method} again later`);
    }
    const { task: asked, ...rest } = params;
    const requested = (asked as { ttl?: unknown }).ttl;
    const limit = this.options.ttlMs;
    const ttlMs = typeof requested === 'number' && requested >= 0 ? (limit === null ? requested : Math.min(requested, limit)) : limit;
    const created = Date.now();
    const now = new Date(created).toISOString();
    const task: StoredTask = { taskId: crypto.randomUUID(), owner: this.ownerOf(endpoint), status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs, pollIntervalMs: this.options.pollIntervalMs, expiresAt: ttlMs === null ? null : created + ttlMs };
    await this.options.store.create(task);
    const running: Running = { controller: new AbortController(), waiters: new Set() };
    this.running.set(task.taskId, running);
    // The handler outlives the request it came with: its signal is the task's.
    const context = Object.create(request, { signal: { value: running.controller.signal } }) as RequestContext;
    void (async () => {
      let end: TaskChange;
      try {
        const result = await handler(rest, context);
        end = { status: 'completed', result: isJsonObject(result) ? result : {} };
      } catch (error) {
        const failure = error instanceof ProtocolError ? error : new ProtocolError(codes.INTERNAL_ERROR!, messageOf(error));
        const { code, message, data } = failure.toJSON();
        end = { status: 'failed', error: data === undefined ? { code, message } : { code, message, data } };
      }
      // Its place is free before anyone can see the task end (the waiters wake below).
      this.running.delete(task.taskId);
      await this.change(endpoint, task.taskId, end);
    })()
      .catch((error: unknown) => endpoint.protocol.onerror?.(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        this.running.delete(task.taskId);
        for (const wake of running.waiters) wake();
      });
    return { task: coreTask(task) };
  }

  /** Changes a task, wakes what waits on it and tells the server (the notification is optional, its failure no failure). */
  private async change(endpoint: Endpoint, taskId: string, change: TaskChange): Promise<StoredTask | undefined> {
    const after = await this.options.store.update(taskId, change);
    for (const wake of this.running.get(taskId)?.waiters ?? []) wake();
    if (after !== undefined) endpoint.protocol.notification(Method.NotificationsTasksStatus, coreTask(after) as unknown as Params).catch(() => undefined);
    return after;
  }

  private ownerOf(endpoint: Endpoint): string {
    let owner = this.owners.get(endpoint);
    if (owner === undefined) this.owners.set(endpoint, (owner = `client:${crypto.randomUUID()}`));
    return owner;
  }

  /** The task if it belongs to `endpoint`; an unknown id and another connection's task look the same. */
  private async known(endpoint: Endpoint, taskId: string): Promise<StoredTask> {
    const task = await this.options.store.get(taskId);
    if (task === undefined || task.owner !== this.ownerOf(endpoint)) throw new ProtocolError(codesOf(endpoint).INVALID_PARAMS!, `Invalid params: unknown task ${JSON.stringify(taskId)}`);
    return task;
  }

  /** `tasks/result`: blocks until the task ends, then answers what the request would have. */
  private async result(endpoint: Endpoint, taskId: string, context: RequestContext): Promise<Record<string, unknown>> {
    let task = await this.known(endpoint, taskId);
    while (!TERMINAL_STATUSES.has(task.status)) {
      await this.nextChange(taskId, context.signal);
      context.signal.throwIfAborted();
      task = await this.known(endpoint, taskId);
    }
    const related = { [RELATED_TASK_META]: { taskId } };
    const codes = codesOf(endpoint);
    if (task.status === 'completed') {
      const result = task.result ?? {};
      return { ...result, _meta: { ...(isJsonObject(result._meta) ? result._meta : {}), ...related } };
    }
    if (task.status === 'failed') {
      const error = task.error ?? { code: codes.INTERNAL_ERROR!, message: 'Task failed' };
      throw new ProtocolError(error.code, error.message, error.data);
    }
    throw new ProtocolError(codes.INTERNAL_ERROR!, `Task ${taskId} was cancelled`, related);
  }

  /**
   * Resolves at the task's next change here, when its handler ends, or when `signal` aborts; for
   * a task whose handler runs elsewhere (a store shared with another process), after a poll interval.
   */
  private nextChange(taskId: string, signal: AbortSignal): Promise<void> {
    const waiters = this.running.get(taskId)?.waiters;
    if (waiters === undefined) return sleep(this.options.pollIntervalMs, signal).catch(() => undefined);
    return new Promise((resolve) => {
      const done = (): void => {
        waiters.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private async list(endpoint: Endpoint, cursor: unknown): Promise<Record<string, unknown>> {
    const store = this.options.store;
    if (store.list === undefined) throw new ProtocolError(codesOf(endpoint).METHOD_NOT_FOUND!, 'Method not found: tasks/list (the task store cannot list)');
    try {
      const page = await store.list(this.ownerOf(endpoint), typeof cursor === 'string' ? cursor : undefined, LIST_PAGE);
      return { tasks: page.tasks.map(coreTask), ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
    } catch (error) {
      if (error instanceof RangeError) throw new ProtocolError(codesOf(endpoint).INVALID_PARAMS!, `Invalid params: unknown cursor ${JSON.stringify(cursor)}`);
      throw error;
    }
  }

  /** `tasks/cancel`: refused for a finished task (-32602); otherwise the task is cancelled and its handler's signal aborts. */
  private async cancel(endpoint: Endpoint, taskId: string): Promise<Record<string, unknown>> {
    const task = await this.known(endpoint, taskId);
    if (TERMINAL_STATUSES.has(task.status)) throw new ProtocolError(codesOf(endpoint).INVALID_PARAMS!, `Invalid params: task ${JSON.stringify(taskId)} is already ${task.status}`);
    const after = await this.change(endpoint, taskId, { status: 'cancelled', statusMessage: 'Cancelled by the server' });
    this.running.get(taskId)?.controller.abort(new ProtocolError(codesOf(endpoint).INTERNAL_ERROR!, 'Task cancelled'));
    return coreTask(after ?? task) as unknown as Record<string, unknown>;
  }
}
