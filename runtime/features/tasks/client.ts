/**
 * The client half of the tasks extension: declares it, accepts a task handle where a tool
 * result was expected, polls the task at the server's pace, answers its questions with the
 * client's own elicitation/sampling/roots handlers and resumes a task by id.
 */
import type { Task as CoreTask } from '../../../generated/2025-11-25/index.js';
import { extensionId, extensionModule, type CreateTaskResult, type GetTaskResult } from '../../../generated/extensions/tasks/index.js';
import type * as Stateful from '../../../generated/protocol/stateful.js';
import { hasCapability, type CapabilityObject } from '../../era/capabilities.js';
import type { Client } from '../../peers/client.js';
import type { ExtensionEndpoint as Endpoint } from '../../peers/extension.js';
import { ProtocolError, SdkError } from '../../core/errors.js';
import { isJsonObject } from '../../core/jsonrpc.js';
import type { RequestHandler, RequestOptions } from '../../core/request-context.js';
import { InMemoryTaskStore } from './memory-store.js';
import { ReceiverTasks } from './receiver.js';
import { sleep } from './sleep.js';
import type { TaskStore } from './task-store.js';
import { registerExtensionModule, type Extension } from '../../peers/extension.js';
import { Method } from '../../../generated/methods.js';
import { sessionDefinition } from './session-definition.js';

/** Options of {@link TasksClient.wait} and {@link TasksClient.callTool}. */
export interface TaskWaitOptions {
  /** Stops waiting (the task goes on; cancel it with {@link TasksClient.cancel}). */
  readonly signal?: AbortSignal;
  /** Longest pause between polls, however long the server suggests (default 30 s). */
  readonly maxIntervalMs?: number;
  /** Sees every state the task is polled in. */
  readonly onStatus?: (task: GetTaskResult) => void;
  /** Called with the task id as soon as a task was created (keep it to resume after a restart). */
  readonly onTask?: (task: CreateTaskResult) => void;
  /** 2025-11-25: the task lifetime to ask for (`params.task.ttl`); the server may shorten it. */
  readonly ttlMs?: number;
}

/** Options of a {@link TasksClient}: how it receives the server's task-augmented requests (2025-11-25). */
export interface TasksClientOptions {
  /** Where the tasks the server creates on this client live (default: an InMemoryTaskStore of this TasksClient). */
  readonly store?: TaskStore;
  /** The longest such a task is kept, in ms (the server may ask for less; default one hour); null: no limit. */
  readonly ttlMs?: number | null;
  /** How often the server should poll them, in ms (default 1000). */
  readonly pollIntervalMs?: number;
  /** Most of them whose handler runs at once (default 64); a request beyond it is answered -32603. */
  readonly maxRunning?: number;
}

/** The interval used when the server suggests none. */
const DEFAULT_POLL_MS = 1_000;
/** How long a 2025-11-25 `tasks/result` may block (it answers when the task ends). */
const RESULT_TIMEOUT_MS = 86_400_000;

/**
 * The tasks extension for clients: pass it in `extensions` to declare it, then use it to call
 * tools that may answer with a task.
 *
 * @example
 * ```ts
 * const tasks = new TasksClient();
 * const client = new Client({ name: 'app', version: '1.0.0' }, { capabilities: { elicitation: {} }, extensions: [tasks] });
 * await client.connect(transport);
 * const result = await tasks.callTool(client, { name: 'render', arguments: {} }, { onTask: (task) => save(task.taskId) });
 * // after a restart: await tasks.wait(client, savedTaskId)
 * ```
 */
export class TasksClient implements Extension {
  readonly id = extensionId;
  readonly settings = {};
  /** 2025-11-25: each client's tools by name, with their `execution.taskSupport`. */
  private readonly toolSupport = new WeakMap<Client, Map<string, string | undefined>>();
  /** 2025-11-25: the tasks the server creates on this client. */
  private readonly receiver: ReceiverTasks;

  constructor(options: TasksClientOptions = {}) {
    this.receiver = new ReceiverTasks({
      store: options.store ?? new InMemoryTaskStore(),
      ttlMs: options.ttlMs === undefined ? 3_600_000 : options.ttlMs,
      pollIntervalMs: options.pollIntervalMs ?? DEFAULT_POLL_MS,
      maxRunning: options.maxRunning ?? 64,
    });
  }

  /**
   * Registers the extension's methods and the task-handle results of tools/call (both eras),
   * and the task methods a 2025-11-25 server calls on the tasks it creates here.
   */
  install(endpoint: Endpoint): void {
    if (endpoint.protocol.side !== 'client') return;
    registerExtensionModule(endpoint, extensionModule);
    endpoint.protocol.addResultMember(Method.ToolsCall, 'task', sessionDefinition(endpoint, 'CreateTaskResult'));
    this.receiver.install(endpoint);
  }

  /**
   * 2025-11-25: the client's sampling and elicitation handlers answer a task-augmented request
   * (`params.task`) with a task when the client declared it (`capabilities.tasks.requests`).
   */
  wrapRequestHandler(endpoint: Endpoint, method: string, handler: RequestHandler): RequestHandler {
    return this.receiver.wrap(endpoint, method, handler);
  }

  /**
   * Calls a tool and returns its final result, whether the server answers at once or with a
   * task (then polled to the end). A failed task rejects with its ProtocolError, a cancelled
   * one with SdkError('REQUEST_CANCELLED').
   */
  async callTool(client: Client, params: Stateful.CallToolRequestParams, options: TaskWaitOptions & RequestOptions = {}): Promise<Stateful.CallToolResult> {
    if (speaksCoreTasks(client)) return this.callToolCore(client, params, options);
    const result = (await client.request(Method.ToolsCall, params, options)) as unknown;
    if (!isTaskHandle(result)) return result as Stateful.CallToolResult;
    options.onTask?.(result);
    return (await this.wait(client, result.taskId, options)) as unknown as Stateful.CallToolResult;
  }

  /**
   * One `tasks/get`. On 2025-11-25 the task's state comes in the extension's shape, with the
   * result or error of a finished task fetched with `tasks/result`.
   */
  async get(client: Client, taskId: string, options: RequestOptions = {}): Promise<GetTaskResult> {
    if (!speaksCoreTasks(client)) return send(client, Method.TasksGet, { taskId }, options) as Promise<GetTaskResult>;
    const task = (await send(client, Method.TasksGet, { taskId }, options)) as CoreTask;
    if (task.status !== 'completed' && task.status !== 'failed') return detailedOf(task);
    try {
      return detailedOf(task, await this.payload(client, taskId, options.signal));
    } catch (error) {
      if (error instanceof ProtocolError) return detailedOf(task, undefined, error);
      throw error;
    }
  }

  /** Asks the server to cancel a task (idempotent on finished tasks, 2025-11-25's included). */
  async cancel(client: Client, taskId: string, options: RequestOptions = {}): Promise<void> {
    try {
      await send(client, Method.TasksCancel, { taskId }, options);
    } catch (error) {
      // 2025-11-25 refuses to cancel a finished task; that is no failure here.
      if (!(error instanceof ProtocolError) || !speaksCoreTasks(client) || error.code !== client.protocol.revision?.errorCodes.INVALID_PARAMS) throw error;
      const task = (await send(client, Method.TasksGet, { taskId }, options)) as CoreTask;
      if (task.status !== 'completed' && task.status !== 'failed' && task.status !== 'cancelled') throw error;
    }
  }

  /**
   * Polls a task until it ends and returns its result. Polls follow the task's
   * `pollIntervalMs`, backing off by half again while nothing changes (up to `maxIntervalMs`);
   * questions the task asks are answered with the handlers registered on the client
   * (`setRequestHandler('elicitation/create', …)`) and sent with `tasks/update`.
   */
  async wait(client: Client, taskId: string, options: TaskWaitOptions = {}): Promise<Record<string, unknown>> {
    if (speaksCoreTasks(client)) return this.waitCore(client, taskId, options);
    const maxInterval = options.maxIntervalMs ?? 30_000;
    const answered = new Set<string>();
    let last = '';
    let delay = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const task = await this.get(client, taskId, options.signal === undefined ? {} : { signal: options.signal });
      options.onStatus?.(task);
      const base = Math.max(1, task.pollIntervalMs ?? DEFAULT_POLL_MS);
      const fingerprint = `${task.status}:${task.lastUpdatedAt}`;
      delay = fingerprint === last ? Math.min(maxInterval, Math.max(base, Math.round(delay * 1.5))) : Math.min(maxInterval, base);
      last = fingerprint;
      switch (task.status) {
        case 'completed':
          return task.result;
        case 'failed':
          throw new ProtocolError(task.error.code, task.error.message, task.error.data);
        case 'cancelled':
          throw new SdkError('REQUEST_CANCELLED', `Task ${taskId} was cancelled${task.statusMessage === undefined ? '' : `: ${task.statusMessage}`}`);
        case 'input_required': {
          const pending = Object.entries(task.inputRequests).filter(([key]) => !answered.has(key));
          if (pending.length > 0) {
            const signal = options.signal ?? new AbortController().signal;
            const responses: Record<string, unknown> = {};
            await Promise.all(pending.map(async ([key, request]) => {
              responses[key] = await client.answerInputRequest(request.method, request.params, signal);
            }));
            await send(client, Method.TasksUpdate, { taskId, inputResponses: responses }, options.signal === undefined ? {} : { signal: options.signal });
            for (const key of Object.keys(responses)) answered.add(key);
            delay = 0;
            continue;
          }
          break;
        }
        default:
          break;
      }
      await sleep(delay, options.signal);
    }
  }

  /** 2025-11-25: a tool that may run as a task is called with `params.task`, and its task followed to the end. */
  private async callToolCore(client: Client, params: Stateful.CallToolRequestParams, options: TaskWaitOptions & RequestOptions): Promise<Stateful.CallToolResult> {
    const offered = hasCapability(client.serverCapabilities as CapabilityObject | undefined, ['tasks', 'requests', 'tools', 'call']);
    const support = offered ? await this.taskSupport(client, params.name, options.signal) : undefined;
    const asTask = support === 'optional' || support === 'required';
    const sent = asTask ? { ...params, task: options.ttlMs === undefined ? {} : { ttl: options.ttlMs } } : params;
    const result = (await client.request(Method.ToolsCall, sent, options)) as unknown;
    if (!isJsonObject(result) || !isJsonObject(result.task) || typeof result.task.taskId !== 'string') return result as Stateful.CallToolResult;
    const task = result.task as unknown as CoreTask;
    options.onTask?.({ resultType: 'task', ...extensionFields(task) } as CreateTaskResult);
    return (await this.waitCore(client, task.taskId, options)) as unknown as Stateful.CallToolResult;
  }

  /**
   * 2025-11-25: polls `tasks/get` at the server's pace until the task needs input or ends, then
   * blocks on `tasks/result`, over which the server asks its questions (answered by the client's
   * own handlers) and finally answers the result or error.
   */
  private async waitCore(client: Client, taskId: string, options: TaskWaitOptions): Promise<Record<string, unknown>> {
    const maxInterval = options.maxIntervalMs ?? 30_000;
    const requestOptions = options.signal === undefined ? {} : { signal: options.signal };
    let last = '';
    let delay = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const task = (await send(client, Method.TasksGet, { taskId }, requestOptions)) as CoreTask;
      if (task.status === 'cancelled') {
        options.onStatus?.(detailedOf(task));
        throw cancelled(taskId, task.statusMessage);
      }
      if (task.status !== 'working') {
        if (task.status === 'input_required') options.onStatus?.(detailedOf(task));
        try {
          const result = await this.payload(client, taskId, options.signal);
          options.onStatus?.(detailedOf({ ...task, status: 'completed' }, result));
          return result;
        } catch (error) {
          if (!(error instanceof ProtocolError)) throw error;
          const after = (await send(client, Method.TasksGet, { taskId }, requestOptions)) as CoreTask;
          options.onStatus?.(detailedOf(after, undefined, error));
          if (after.status === 'cancelled') throw cancelled(taskId, after.statusMessage);
          throw error;
        }
      }
      options.onStatus?.(detailedOf(task));
      const base = Math.max(1, task.pollInterval ?? DEFAULT_POLL_MS);
      const fingerprint = `${task.status}:${task.lastUpdatedAt}`;
      delay = fingerprint === last ? Math.min(maxInterval, Math.max(base, Math.round(delay * 1.5))) : Math.min(maxInterval, base);
      last = fingerprint;
      await sleep(delay, options.signal);
    }
  }

  /** 2025-11-25 `tasks/result`: the task's result once it ends (its error rejects). */
  private async payload(client: Client, taskId: string, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
    return (await send(client, Method.TasksResult, { taskId }, { timeout: RESULT_TIMEOUT_MS, ...(signal === undefined ? {} : { signal }) })) as Record<string, unknown>;
  }

  /** A tool's `execution.taskSupport`, from the client's tools list (fetched once, again for a name it lacks). */
  private async taskSupport(client: Client, name: string, signal: AbortSignal | undefined): Promise<string | undefined> {
    let tools = this.toolSupport.get(client);
    if (tools === undefined || !tools.has(name)) {
      tools = new Map();
      for (const tool of await client.listAll(Method.ToolsList, undefined, signal === undefined ? {} : { signal })) tools.set(tool.name, tool.execution?.taskSupport);
      this.toolSupport.set(client, tools);
    }
    return tools.get(name);
  }
}

/** True for a `tools/call` result that is a task handle (`resultType: "task"`). */
export function isTaskHandle(result: unknown): result is CreateTaskResult {
  return isJsonObject(result) && result.resultType === 'task' && typeof result.taskId === 'string';
}

function send(client: Client, method: string, params: Record<string, unknown>, options: RequestOptions): Promise<unknown> {
  // The extension's methods are custom methods of the engine; `request` sends them with the era's envelope.
  return (client.request as (method: string, params: unknown, options?: RequestOptions) => Promise<unknown>)(method, params, options);
}

/** True when the client's session speaks the core experimental tasks (2025-11-25). */
function speaksCoreTasks(client: Client): boolean {
  const revision = client.protocol.revision;
  return client.protocolVersion !== undefined && revision?.era === 'stateful' && revision.methods[Method.TasksResult] !== undefined;
}

/** The members a 2025-11-25 task shares with the extension's, under the extension's names. */
function extensionFields(task: CoreTask): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttl,
    ...(task.pollInterval !== undefined ? { pollIntervalMs: task.pollInterval } : {}),
  };
}

/**
 * A 2025-11-25 task in the extension's `tasks/get` shape. Its questions travel on `tasks/result`
 * (none are listed); a tool result with `isError`, which 2025-11-25 counts as failed, is a
 * completed task with that result, as in the extension.
 */
function detailedOf(task: CoreTask, result?: Record<string, unknown>, error?: ProtocolError): GetTaskResult {
  const base = { resultType: 'complete', ...extensionFields(task) };
  if (result !== undefined) return { ...base, status: 'completed', result } as GetTaskResult;
  if (error !== undefined) return { ...base, status: 'failed', error: error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data } } as GetTaskResult;
  if (task.status === 'input_required') return { ...base, inputRequests: {} } as GetTaskResult;
  return base as GetTaskResult;
}

function cancelled(taskId: string, statusMessage: string | undefined): SdkError {
  return new SdkError('REQUEST_CANCELLED', `Task ${taskId} was cancelled${statusMessage === undefined ? '' : `: ${statusMessage}`}`);
}
