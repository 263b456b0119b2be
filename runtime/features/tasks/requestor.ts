/**
 * The server as the requestor of 2025-11-25's task-augmented requests: `sampling/createMessage`
 * and `elicitation/create` sent with `params.task` to a client that declared task support for
 * them, answered with a task handle, followed with `tasks/get` at the client's pace and fetched
 * with `tasks/result`.
 */
import type { Task as CoreTask } from '../../../generated/2025-11-25/index.js';
import { Method } from '../../../generated/methods.js';
import { hasCapability, type CapabilityObject } from '../../era/capabilities.js';
import { isJsonObject } from '../../core/jsonrpc.js';
import type { Params, RequestOptions } from '../../core/request-context.js';
import { StatelessContext } from '../../era/stateless-request.js';
import type { McpContext } from '../mcp-server/context.js';
import { sleep } from './sleep.js';
import { speaksCoreTasks } from './core-tasks.js';
import { isTaskContext } from './task-runner.js';
import { TERMINAL_STATUSES } from './task-store.js';

/** Options of {@link TasksExtension.sample} and {@link TasksExtension.elicit}. */
export interface TaskRequestOptions {
  /** The task lifetime to ask the client for (`params.task.ttl`), in ms; the client may shorten it. */
  readonly ttlMs?: number;
  /** Longest pause between polls, however long the client suggests (default 30 s). */
  readonly maxIntervalMs?: number;
  /** Called with the task as soon as the client created it. */
  readonly onTask?: (task: CoreTask) => void;
  /** Sees every state the task is polled in. */
  readonly onStatus?: (task: CoreTask) => void;
  /** Stops waiting and cancels the task on the client (also when the handler's request is cancelled). */
  readonly signal?: AbortSignal;
}

/** The interval used when the client suggests none. */
const DEFAULT_POLL_MS = 1_000;
/** How long `tasks/result` may block (it answers when the task ends). */
const RESULT_TIMEOUT_MS = 86_400_000;

type Send = (method: string, params: Params, options?: RequestOptions) => Promise<unknown>;

/**
 * Sends `method` from a handler: as a task when the session is a 2025-11-25 one and the client
 * declared `capabilities.tasks.requests` for it, else as a plain request (a question of the
 * task when the handler runs as one, an input request in the stateless era).
 */
export async function requestAsTask(context: McpContext, method: string, params: Params, options: TaskRequestOptions): Promise<unknown> {
  const signal = options.signal === undefined ? context.signal : AbortSignal.any([context.signal, options.signal]);
  const request = context.request;
  const server = context.session.server;
  const send: Send = (name, sent, extra = {}) =>
    request instanceof StatelessContext
      ? request.sendRequest(name, sent, { signal, ...extra })
      : (server.request as (name: string, params: Params, options: RequestOptions) => Promise<unknown>)(name, sent, { signal, relatedRequestId: context.requestId, ...extra });
  const capabilities = context.session.clientCapabilities as CapabilityObject | undefined;
  const asTask = !isTaskContext(request) && speaksCoreTasks(server) && hasCapability(capabilities, ['tasks', 'requests', ...method.split('/')]);
  if (!asTask) return send(method, params);
  const created = await send(method, { ...params, task: options.ttlMs === undefined ? {} : { ttl: options.ttlMs } });
  // A client may process the request normally after all.
  if (!isJsonObject(created) || !isJsonObject(created.task)) return created;
  let task = created.task as unknown as CoreTask;
  options.onTask?.(task);
  try {
    while (!TERMINAL_STATUSES.has(task.status) && task.status !== 'input_required') {
      await sleep(Math.min(options.maxIntervalMs ?? 30_000, Math.max(1, task.pollInterval ?? DEFAULT_POLL_MS)), signal);
      task = (await send(Method.TasksGet, { taskId: task.taskId })) as CoreTask;
      options.onStatus?.(task);
    }
    // Blocks until the task ends; a failed task's error rejects, as the request's would have.
    return await send(Method.TasksResult, { taskId: task.taskId }, { timeout: RESULT_TIMEOUT_MS });
  } catch (error) {
    if (signal.aborted && hasCapability(capabilities, ['tasks', 'cancel'])) {
      // Best effort: the client may have finished the task meanwhile.
      await (server.request as (name: string, params: Params, options: RequestOptions) => Promise<unknown>)(Method.TasksCancel, { taskId: task.taskId }, { relatedRequestId: context.requestId }).catch(() => undefined);
    }
    throw error;
  }
}
