/**
 * The client half of the tasks extension: declares it, accepts a task handle where a tool
 * result was expected, polls the task at the server's pace, answers its questions with the
 * client's own elicitation/sampling/roots handlers and resumes a task by id.
 */
import { extensionId, extensionModule, type CreateTaskResult, type GetTaskResult } from '../../../generated/extensions/tasks/index.js';
import type { Stateful } from '../../../generated/latest.js';
import type { Client } from '../../client.js';
import type { Endpoint } from '../../endpoint.js';
import { ProtocolError, SdkError } from '../../errors.js';
import { isJsonObject } from '../../jsonrpc.js';
import type { RequestOptions } from '../../request-context.js';
import { registerExtensionModule, type Extension } from '../extension.js';

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
}

/** The interval used when the server suggests none. */
const DEFAULT_POLL_MS = 1_000;

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

  /** Registers the extension's methods and the task-handle result of tools/call. */
  install(endpoint: Endpoint): void {
    if (endpoint.protocol.side === 'client') registerExtensionModule(endpoint, extensionModule);
  }

  /**
   * Calls a tool and returns its final result, whether the server answers at once or with a
   * task (then polled to the end). A failed task rejects with its ProtocolError, a cancelled
   * one with SdkError('REQUEST_CANCELLED').
   */
  async callTool(client: Client, params: Stateful.CallToolRequestParams, options: TaskWaitOptions & RequestOptions = {}): Promise<Stateful.CallToolResult> {
    const result = (await client.request('tools/call', params, options)) as unknown;
    if (!isTaskHandle(result)) return result as Stateful.CallToolResult;
    options.onTask?.(result);
    return (await this.wait(client, result.taskId, options)) as unknown as Stateful.CallToolResult;
  }

  /** One `tasks/get`. */
  get(client: Client, taskId: string, options: RequestOptions = {}): Promise<GetTaskResult> {
    return send(client, 'tasks/get', { taskId }, options) as Promise<GetTaskResult>;
  }

  /** Asks the server to cancel a task (idempotent on finished tasks). */
  async cancel(client: Client, taskId: string, options: RequestOptions = {}): Promise<void> {
    await send(client, 'tasks/cancel', { taskId }, options);
  }

  /**
   * Polls a task until it ends and returns its result. Polls follow the task's
   * `pollIntervalMs`, backing off by half again while nothing changes (up to `maxIntervalMs`);
   * questions the task asks are answered with the handlers registered on the client
   * (`setRequestHandler('elicitation/create', …)`) and sent with `tasks/update`.
   */
  async wait(client: Client, taskId: string, options: TaskWaitOptions = {}): Promise<Record<string, unknown>> {
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
            await send(client, 'tasks/update', { taskId, inputResponses: responses }, options.signal === undefined ? {} : { signal: options.signal });
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
}

/** True for a `tools/call` result that is a task handle (`resultType: "task"`). */
export function isTaskHandle(result: unknown): result is CreateTaskResult {
  return isJsonObject(result) && result.resultType === 'task' && typeof result.taskId === 'string';
}

function send(client: Client, method: string, params: Record<string, unknown>, options: RequestOptions): Promise<unknown> {
  // The extension's methods are custom methods of the engine; `request` sends them with the era's envelope.
  return (client.request as (method: string, params: unknown, options?: RequestOptions) => Promise<unknown>)(method, params, options);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
