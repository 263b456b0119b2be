/**
 * The server half of the tasks extension (io.modelcontextprotocol/tasks, SEP-2663): a request
 * handler may answer with a task handle and finish the work in the background; clients poll
 * `tasks/get`, answer the task's questions with `tasks/update` and stop it with `tasks/cancel`.
 */
import { ErrorCode as CoreErrorCode, revisionModule as coreModule } from '../../../generated/2026-07-28/index.js';
import { extensionId, extensionModule, type CreateTaskResult, type GetTaskResult } from '../../../generated/extensions/tasks/index.js';
import type { Endpoint } from '../../endpoint.js';
import { messageOf, ProtocolError } from '../../errors.js';
import { isJsonObject } from '../../jsonrpc.js';
import type { Meta, Params, RequestContext, RequestOptions } from '../../request-context.js';
import { CLIENT_CAPABILITIES_META } from '../../stateless/meta.js';
import { StatelessContext } from '../../stateless/stateless-request.js';
import type { MessageExtra } from '../../transport.js';
import { checkValue, describeIssues } from '../../validation.js';
import { registerExtensionModule, type Extension, type ExtensionTool } from '../extension.js';
import { InMemoryTaskStore } from './memory-store.js';
import { TERMINAL_STATUSES, type StoredInputRequest, type StoredTask, type TaskStore } from './task-store.js';

/** Default time a task is kept: one hour. */
export const DEFAULT_TASK_TTL_MS = 3_600_000;
/** Default poll interval suggested to clients: one second. */
export const DEFAULT_POLL_INTERVAL_MS = 1_000;

/** Options of a {@link TasksExtension}. */
export interface TasksExtensionOptions {
  /** Where tasks live (default: an InMemoryTaskStore of this extension). */
  readonly store?: TaskStore;
  /** How long a task is kept after creation, in ms; null keeps it until the store is cleared (default one hour). */
  readonly ttlMs?: number | null;
  /** How often clients should poll, in ms (default 1000). */
  readonly pollIntervalMs?: number;
  /**
   * Who is asking: tasks are bound to it, and another requester can neither read nor cancel
   * them. Default: the authenticated subject (or client id) of the request, else the transport
   * session, else nobody in particular (then the unguessable id is the only key).
   */
  readonly requester?: (context: RequestContext) => string | null | undefined;
  /** Receives failures of background work that have nowhere else to go. */
  readonly onerror?: (error: Error) => void;
}

/** How a handler runs as a task. */
export interface TaskRunOptions {
  /** Refuse clients that did not declare the extension (-32021) instead of running inline. */
  readonly required?: boolean;
  /** Status message of the new task. */
  readonly statusMessage?: string;
}

/** Work that may run as a task: it gets a context whose questions become the task's input requests. */
export type TaskWork = (context: RequestContext) => unknown;

interface Running {
  readonly controller: AbortController;
  /** Wakes whatever waits for this task's answers. */
  wake(): void;
}

/**
 * The tasks extension for servers. Give it to a Server or McpServer (`extensions`); one
 * instance serves every Server it is given to and keeps their tasks in one store.
 *
 * McpServer tools opt in with `execution: { taskSupport: 'optional' | 'required' }`; low-level
 * handlers call {@link run}.
 *
 * @example
 * ```ts
 * const tasks = new TasksExtension();
 * const mcp = new McpServer({ name: 'jobs', version: '1.0.0' }, { extensions: [tasks] });
 * mcp.registerTool('render', { execution: { taskSupport: 'optional' } }, async (_args, context) => {
 *   const answer = await context.elicitForm('Which format?', { type: 'object', properties: { format: { type: 'string' } } });
 *   return { content: [{ type: 'text', text: answer.action === 'accept' ? `rendered as ${answer.content.format}` : 'skipped' }] };
 * });
 * ```
 */
export class TasksExtension implements Extension {
  readonly id = extensionId;
  readonly settings = {};
  /** Where this extension keeps its tasks. */
  readonly store: TaskStore;
  private readonly ttlMs: number | null;
  private readonly pollIntervalMs: number;
  private readonly requesterOf: (context: RequestContext) => string | null;
  private readonly onerror: (error: Error) => void;
  /** Tasks whose work runs in this process. */
  private readonly running = new Map<string, Running>();

  constructor(options: TasksExtensionOptions = {}) {
    this.store = options.store ?? new InMemoryTaskStore();
    this.ttlMs = options.ttlMs === undefined ? DEFAULT_TASK_TTL_MS : options.ttlMs;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    const requester = options.requester;
    this.requesterOf = requester === undefined ? defaultRequester : (context) => requester(context) ?? null;
    this.onerror = options.onerror ?? (() => {});
  }

  /** Registers tasks/get, tasks/update and tasks/cancel (with their generated validators) on a Server. */
  install(endpoint: Endpoint): void {
    if (endpoint.protocol.side !== 'server') return;
    registerExtensionModule(endpoint, extensionModule);
    const own = (method: string) => (params: Params | undefined, context: RequestContext) => {
      // In 2025-11-25 these names are the core experimental tasks methods, a different protocol.
      if (endpoint.protocol.revision?.methods[method] !== undefined) {
        throw new ProtocolError(CoreErrorCode.METHOD_NOT_FOUND, `Method not found: ${method}`);
      }
      this.requireDeclared(endpoint, context, `${method} needs`);
      return params;
    };
    endpoint.protocol.setRequestHandler('tasks/get', async (params, context) => this.get(String(own('tasks/get')(params, context)?.taskId), context));
    endpoint.protocol.setRequestHandler('tasks/update', async (params, context) => {
      const checked = own('tasks/update')(params, context)!;
      return this.update(String(checked.taskId), isJsonObject(checked.inputResponses) ? checked.inputResponses : {}, context);
    });
    endpoint.protocol.setRequestHandler('tasks/cancel', async (params, context) => this.cancel(String(own('tasks/cancel')(params, context)?.taskId), context));
  }

  /** McpServer's hook: tools whose `execution.taskSupport` is `optional` or `required` run as tasks. */
  wrapToolCall(tool: ExtensionTool, context: RequestContext, run: (context: RequestContext) => Promise<unknown>): Promise<unknown> {
    const support = tool.execution?.taskSupport;
    if (support !== 'optional' && support !== 'required') return run(context);
    return this.run(context, run, { required: support === 'required' });
  }

  /** True when the client declared the extension for this request (per request in the stateless era). */
  accepts(context: RequestContext): boolean {
    return declaresTasks(context);
  }

  /**
   * Answers the current request with a task running `work` in the background, when the
   * client declared the extension; otherwise runs `work` inline (or, with `required`, refuses
   * with -32021). The task is in the store before this resolves. `work`'s questions
   * (`context.sendRequest('elicitation/create', …)`, McpContext's elicitForm and sample) put
   * the task in `input_required` until the client answers with `tasks/update`; its signal
   * aborts when the task is cancelled.
   *
   * @example
   * ```ts
   * server.setRequestHandler('tools/call', (params, context) =>
   *   tasks.run(context, async () => ({ content: [{ type: 'text', text: await slowWork(params.arguments) }] })));
   * ```
   */
  async run(context: RequestContext, work: TaskWork, options: TaskRunOptions = {}): Promise<unknown> {
    if (!declaresTasks(context)) {
      if (options.required === true) throw missingExtension(`${context.method} runs only as a task, which needs`);
      return work(context);
    }
    const created = Date.now();
    const now = new Date(created).toISOString();
    const task: StoredTask = {
      taskId: crypto.randomUUID(),
      owner: this.requesterOf(context),
      status: 'working',
      ...(options.statusMessage !== undefined ? { statusMessage: options.statusMessage } : {}),
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      expiresAt: this.ttlMs === null ? null : created + this.ttlMs,
    };
    await this.store.create(task);
    this.start(task, context, work);
    const handle: CreateTaskResult = {
      resultType: 'task',
      taskId: task.taskId,
      status: task.status,
      ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
      createdAt: task.createdAt,
      lastUpdatedAt: task.lastUpdatedAt,
      ttlMs: task.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
    return handle;
  }

  /** `tasks/get`: the task's state, with its questions, result or error inlined. */
  async get(taskId: string, context: RequestContext): Promise<GetTaskResult> {
    return detailed(await this.owned(taskId, context));
  }

  /** `tasks/update`: answers some of the task's questions; unknown keys are ignored. */
  async update(taskId: string, responses: Record<string, unknown>, context: RequestContext): Promise<{ resultType: 'complete' }> {
    const task = await this.owned(taskId, context);
    for (const [key, response] of Object.entries(responses)) {
      const question = task.inputRequests?.[key];
      if (question === undefined) continue;
      const validator = coreModule.methods[question.method]?.result;
      const issues = validator === null || validator === undefined ? null : checkValue(validator, response);
      if (issues !== null) {
        throw new ProtocolError(CoreErrorCode.INVALID_PARAMS, `Invalid params: inputResponses.${key} is not a ${question.method} result: ${describeIssues(issues, 'response')}`, { issues });
      }
    }
    await this.store.update(taskId, { answer: responses });
    this.running.get(taskId)?.wake();
    return { resultType: 'complete' };
  }

  /** `tasks/cancel`: the task becomes `cancelled` (a terminal task stays as it is) and its work is aborted. */
  async cancel(taskId: string, context: RequestContext): Promise<{ resultType: 'complete' }> {
    await this.owned(taskId, context);
    await this.store.update(taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client' });
    this.abortLocal(taskId);
    return { resultType: 'complete' };
  }

  /** The task if `context`'s requester may see it; an unknown id and another requester's task look the same. */
  private async owned(taskId: string, context: RequestContext): Promise<StoredTask> {
    const task = await this.store.get(taskId);
    if (task === undefined || (task.owner !== null && task.owner !== this.requesterOf(context))) {
      throw new ProtocolError(CoreErrorCode.INVALID_PARAMS, `Invalid params: unknown task ${JSON.stringify(taskId)}`);
    }
    return task;
  }

  private requireDeclared(endpoint: Endpoint, context: RequestContext, what: string): void {
    const stateful = (endpoint as { clientCapabilities?: unknown }).clientCapabilities;
    if (!declaresTasks(context) && !(context._meta?.[CLIENT_CAPABILITIES_META] === undefined && hasTasks(stateful))) throw missingExtension(what);
  }

  private start(task: StoredTask, request: RequestContext, work: TaskWork): void {
    const controller = new AbortController();
    let wakers: Array<() => void> = [];
    const running: Running = {
      controller,
      wake: () => {
        const current = wakers;
        wakers = [];
        for (const wake of current) wake();
      },
    };
    this.running.set(task.taskId, running);
    const waitForChange = (): Promise<void> =>
      new Promise((resolve) => {
        const timer = setTimeout(done, this.pollIntervalMs);
        function done(): void {
          clearTimeout(timer);
          controller.signal.removeEventListener('abort', done);
          resolve();
        }
        wakers.push(done);
        controller.signal.addEventListener('abort', done, { once: true });
      });
    // Another replica may cancel the task: its status in the store is what counts.
    const watcher = setInterval(() => {
      this.store.get(task.taskId).then((current) => {
        if (current === undefined || current.status === 'cancelled') controller.abort(new ProtocolError(CoreErrorCode.INTERNAL_ERROR, 'Task cancelled'));
      }, () => undefined);
    }, Math.max(this.pollIntervalMs, 250));
    (watcher as { unref?: () => void }).unref?.();
    let asked = 0;
    const ask = async (method: string, params: Params | undefined, key: string | undefined): Promise<unknown> => {
      const inputKey = key ?? `${method}-${++asked}`;
      const question: StoredInputRequest = params === undefined ? { method } : { method, params };
      await this.store.update(task.taskId, { ask: { [inputKey]: question } });
      for (;;) {
        if (controller.signal.aborted) throw controller.signal.reason ?? new Error('Task cancelled');
        const current = await this.store.get(task.taskId);
        if (current === undefined || TERMINAL_STATUSES.has(current.status)) {
          controller.abort(new ProtocolError(CoreErrorCode.INTERNAL_ERROR, 'Task ended'));
          continue;
        }
        if (current.inputResponses !== undefined && Object.hasOwn(current.inputResponses, inputKey)) return current.inputResponses[inputKey];
        await waitForChange();
      }
    };
    const context = new TaskContext(request, controller.signal, ask);
    void (async () => {
      try {
        const result = await work(context);
        const finished = isJsonObject(result) ? withoutEnvelope(result) : {};
        await this.store.update(task.taskId, { status: 'completed', result: finished });
      } catch (error) {
        if (controller.signal.aborted) {
          await this.store.update(task.taskId, { status: 'cancelled' });
        } else {
          const failure = error instanceof ProtocolError ? error : new ProtocolError(CoreErrorCode.INTERNAL_ERROR, messageOf(error));
          const { code, message, data } = failure.toJSON();
          await this.store.update(task.taskId, { status: 'failed', error: data === undefined ? { code, message } : { code, message, data } });
        }
      }
    })()
      .catch((error: unknown) => this.onerror(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        clearInterval(watcher);
        running.wake();
        this.running.delete(task.taskId);
      });
  }

  private abortLocal(taskId: string): void {
    const running = this.running.get(taskId);
    running?.controller.abort(new ProtocolError(CoreErrorCode.INTERNAL_ERROR, 'Task cancelled'));
  }
}

/**
 * The context a task's work runs with: the creating request's metadata and client
 * capabilities, the task's cancellation signal, and questions that become the task's input
 * requests. It outlives the request, so nothing is sent on the request's stream.
 */
class TaskContext extends StatelessContext {
  constructor(
    private readonly origin: RequestContext,
    private readonly taskSignal: AbortSignal,
    private readonly ask: (method: string, params: Params | undefined, key: string | undefined) => Promise<unknown>,
  ) {
    super(origin, undefined, coreModule, undefined);
  }

  override get signal(): AbortSignal {
    return this.taskSignal;
  }

  override get _meta(): Meta | undefined {
    return this.origin._meta;
  }

  override sendRequest<R = unknown>(method: string, params?: Params, options?: RequestOptions): Promise<R> {
    return this.ask(method, params, options?.inputKey) as Promise<R>;
  }

  override async sendNotification(): Promise<void> {}

  override async reportProgress(): Promise<void> {}

  override async log(): Promise<void> {}
}

function detailed(task: StoredTask): GetTaskResult {
  const base = {
    resultType: 'complete' as const,
    taskId: task.taskId,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    ...(task.pollIntervalMs !== undefined ? { pollIntervalMs: task.pollIntervalMs } : {}),
  };
  switch (task.status) {
    case 'input_required':
      return { ...base, status: 'input_required', inputRequests: (task.inputRequests ?? {}) as never };
    case 'completed':
      return { ...base, status: 'completed', result: task.result ?? {} };
    case 'failed':
      return { ...base, status: 'failed', error: task.error ?? { code: CoreErrorCode.INTERNAL_ERROR, message: 'Task failed' } };
    default:
      return { ...base, status: task.status };
  }
}

/** A handler's result without the envelope of the request that is long answered. */
function withoutEnvelope(result: { readonly [key: string]: unknown }): Record<string, unknown> {
  const { resultType: _type, ...rest } = result;
  return rest;
}

function hasTasks(capabilities: unknown): boolean {
  return isJsonObject(capabilities) && isJsonObject(capabilities.extensions) && capabilities.extensions[extensionId] !== undefined;
}

/** Whether the request's client declared the extension: on the request (stateless era) or in `initialize`. */
function declaresTasks(context: RequestContext): boolean {
  if (context instanceof StatelessContext) return hasTasks(context.clientCapabilities);
  return hasTasks(context._meta?.[CLIENT_CAPABILITIES_META]);
}

function missingExtension(what: string): ProtocolError {
  return new ProtocolError(CoreErrorCode.MISSING_REQUIRED_CLIENT_CAPABILITY, `${what} the client capability extensions["${extensionId}"]`, {
    requiredCapabilities: { extensions: { [extensionId]: {} } },
  });
}

function defaultRequester(context: RequestContext): string | null {
  const extra: MessageExtra | undefined = context.extra;
  const auth = extra?.authInfo;
  if (isJsonObject(auth)) {
    if (typeof auth.subject === 'string') return `subject:${auth.subject}`;
    if (typeof auth.clientId === 'string') return `client:${auth.clientId}`;
  }
  if (typeof extra?.sessionId === 'string') return `session:${extra.sessionId}`;
  return null;
}
