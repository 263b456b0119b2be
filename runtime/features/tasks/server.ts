/**
 * The server half of the tasks extension (io.modelcontextprotocol/tasks, SEP-2663): a request
 * handler may answer with a task handle and finish the work in the background; clients poll
 * `tasks/get`, answer the task's questions with `tasks/update` and stop it with `tasks/cancel`.
 */
import { validateCreateTaskResult as validateCoreCreateTaskResult, type CreateTaskResult as CoreCreateTaskResult, type ListTasksResult as CoreListTasksResult, type Task as CoreTask } from '../../../generated/2025-11-25/index.js';
import { ErrorCode as CoreErrorCode, revisionModule as coreModule } from '../../../generated/2026-07-28/index.js';
import { extensionId, extensionModule, type CreateTaskResult, type GetTaskResult } from '../../../generated/extensions/tasks/index.js';
import type { CapabilityObject } from '../../core/capabilities.js';
import type { RevisionModule } from '../../core/contract.js';
import type { ExtensionEndpoint as Endpoint } from '../../peers/extension.js';
import { messageOf, ProtocolError } from '../../core/errors.js';
import { isJsonObject } from '../../core/jsonrpc.js';
import type { Meta, Params, RequestContext, RequestOptions } from '../../core/request-context.js';
import { CLIENT_CAPABILITIES_META } from '../../era/meta.js';
import { StatelessContext } from '../../era/stateless-request.js';
import type { MessageExtra } from '../../core/transport.js';
import { checkValue, describeIssues } from '../../core/validation.js';
import { registerExtensionModule, type Extension, type ExtensionTool, type ExtensionToolCall } from '../../peers/extension.js';
import { InMemoryTaskStore } from './memory-store.js';
import { TERMINAL_STATUSES, type StoredInputRequest, type StoredTask, type TaskChange, type TaskStore } from './task-store.js';
import { Method } from '../../../generated/methods.js';

/** Default time a task is kept: one hour. */
export const DEFAULT_TASK_TTL_MS = 3_600_000;
/** Default poll interval suggested to clients: one second. */
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** `_meta` key tying a 2025-11-25 message to its task. */
const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';
/** Tasks per `tasks/list` page (2025-11-25). */
const LIST_PAGE = 50;

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
  /**
   * The request's params: on a 2025-11-25 session a `task` member asks for a task (the core
   * experimental tasks); without it the work runs inline (or, with `required`, is refused).
   */
  readonly params?: Params | undefined;
  /** The Server serving the request, needed on 2025-11-25 sessions (McpServer passes it). */
  readonly endpoint?: Endpoint | undefined;
}

/** Work that may run as a task: it gets a context whose questions become the task's input requests. */
export type TaskWork = (context: RequestContext) => unknown;

interface Running {
  readonly controller: AbortController;
  /** Wakes whatever waits for this task's answers or its changes. */
  wake(): void;
  /** Calls `listener` at the next wake; returns the remover. */
  onWake(listener: () => void): () => void;
  /** 2025-11-25: the open `tasks/result` requests that questions to the client travel on. */
  readonly channels: Set<RequestContext>;
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
  /** 2025-11-25 tasks running here, with the Server their status notifications go out on. */
  private readonly notifying = new Map<string, Endpoint>();

  constructor(options: TasksExtensionOptions = {}) {
    this.store = options.store ?? new InMemoryTaskStore();
    this.ttlMs = options.ttlMs === undefined ? DEFAULT_TASK_TTL_MS : options.ttlMs;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    const requester = options.requester;
    this.requesterOf = requester === undefined ? defaultRequester : (context) => requester(context) ?? null;
    this.onerror = options.onerror ?? (() => {});
  }

  /**
   * Registers tasks/get, tasks/update and tasks/cancel (with their generated validators) on a
   * Server, and on sessions of a revision with the core experimental tasks (2025-11-25) serves
   * those instead: tasks/get, tasks/result, tasks/list and tasks/cancel of that revision.
   */
  install(endpoint: Endpoint): void {
    if (endpoint.protocol.side !== 'server') return;
    registerExtensionModule(endpoint, extensionModule);
    endpoint.protocol.addResultMember(Method.ToolsCall, 'task', validateCoreCreateTaskResult);
    const own = (method: string) => (params: Params | undefined, context: RequestContext) => {
      this.requireDeclared(endpoint, context, `${method} needs`);
      return params;
    };
    const taskIdOf = (params: Params | undefined): string => String(params?.taskId);
    endpoint.protocol.setRequestHandler(Method.TasksGet, async (params, context) =>
      speaksCoreTasks(endpoint) ? this.coreGet(endpoint, taskIdOf(params), context) : this.get(String(own(Method.TasksGet)(params, context)?.taskId), context));
    endpoint.protocol.setRequestHandler(Method.TasksUpdate, async (params, context) => {
      if (speaksCoreTasks(endpoint)) throw new ProtocolError(codesOf(endpoint).METHOD_NOT_FOUND!, 'Method not found: tasks/update');
      const checked = own(Method.TasksUpdate)(params, context)!;
      return this.update(String(checked.taskId), isJsonObject(checked.inputResponses) ? checked.inputResponses : {}, context);
    });
    endpoint.protocol.setRequestHandler(Method.TasksCancel, async (params, context) =>
      speaksCoreTasks(endpoint) ? this.coreCancel(endpoint, taskIdOf(params), context) : this.cancel(String(own(Method.TasksCancel)(params, context)?.taskId), context));
  }

  /**
   * A stateful session settled on `revision`: with the core tasks (2025-11-25) it gets
   * tasks/result and tasks/list, and the `tasks` capability of a server that runs tools as tasks.
   */
  negotiated(endpoint: Endpoint, revision: RevisionModule): CapabilityObject | undefined {
    if (endpoint.protocol.side !== 'server' || revision.era !== 'stateful' || revision.methods[Method.TasksResult] === undefined) return undefined;
    // Registered only now: a stateless-era Server must not look as if it served them.
    endpoint.protocol.setRequestHandler(Method.TasksResult, async (params, context) => this.coreResult(endpoint, String(params?.taskId), context));
    if (this.store.list !== undefined) endpoint.protocol.setRequestHandler(Method.TasksList, async (params, context) => this.coreList(endpoint, params?.cursor, context));
    return { tasks: { ...(this.store.list !== undefined ? { list: {} } : {}), cancel: {}, requests: { tools: { call: {} } } } };
  }

  /** McpServer's hook: tools whose `execution.taskSupport` is `optional` or `required` run as tasks. */
  wrapToolCall(tool: ExtensionTool, context: RequestContext, run: (context: RequestContext) => Promise<unknown>, call?: ExtensionToolCall): Promise<unknown> {
    const support = tool.execution?.taskSupport;
    const where = call === undefined ? {} : { params: call.params, endpoint: call.endpoint };
    if (support !== 'optional' && support !== 'required') {
      // 2025-11-25: a task asked of a tool that does not run as one is refused (-32601).
      if (call !== undefined && speaksCoreTasks(call.endpoint) && isJsonObject(call.params.task)) {
        return Promise.reject(new ProtocolError(codesOf(call.endpoint).METHOD_NOT_FOUND!, `Tool ${tool.name} does not run as a task`));
      }
      return run(context);
    }
    return this.run(context, run, { required: support === 'required', ...where });
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
    const endpoint = options.endpoint;
    if (endpoint !== undefined && speaksCoreTasks(endpoint)) {
      if (isJsonObject(options.params?.task)) return this.createCoreTask(endpoint, context, work, options);
      if (options.required === true) throw new ProtocolError(codesOf(endpoint).METHOD_NOT_FOUND!, `${context.method} runs only as a task here: send it with params.task`);
      return work(context);
    }
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

  /** 2025-11-25: stores a task for a request with `params.task` and answers with its CreateTaskResult. */
  private async createCoreTask(endpoint: Endpoint, context: RequestContext, work: TaskWork, options: TaskRunOptions): Promise<CoreCreateTaskResult> {
    const requested = (options.params?.task as { ttl?: unknown } | undefined)?.ttl;
    // The requested TTL is honoured up to the server's own.
    const ttlMs = typeof requested === 'number' && requested >= 0 ? (this.ttlMs === null ? requested : Math.min(requested, this.ttlMs)) : this.ttlMs;
    const created = Date.now();
    const now = new Date(created).toISOString();
    const task: StoredTask = {
      taskId: crypto.randomUUID(),
      owner: this.requesterOf(context),
      status: 'working',
      ...(options.statusMessage !== undefined ? { statusMessage: options.statusMessage } : {}),
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      expiresAt: ttlMs === null ? null : created + ttlMs,
    };
    await this.store.create(task);
    this.start(task, context, work, endpoint);
    return { task: coreTask(task) };
  }

  /** 2025-11-25 `tasks/get`: the task's state. */
  private async coreGet(endpoint: Endpoint, taskId: string, context: RequestContext): Promise<CoreTask> {
    return coreTask(await this.owned(taskId, context, codesOf(endpoint)));
  }

  /**
   * 2025-11-25 `tasks/result`: blocks until the task ends, then answers what the request would
   * have: its result (tied to the task in `_meta`) or its error. Meanwhile the task's questions
   * to the client travel on this request (the task must run in this process for that).
   */
  private async coreResult(endpoint: Endpoint, taskId: string, context: RequestContext): Promise<Record<string, unknown>> {
    const codes = codesOf(endpoint);
    let task = await this.owned(taskId, context, codes);
    const running = this.running.get(taskId);
    running?.channels.add(context);
    running?.wake();
    try {
      while (!TERMINAL_STATUSES.has(task.status)) {
        await this.nextChange(taskId, context.signal);
        context.signal.throwIfAborted();
        const current = await this.store.get(taskId);
        if (current === undefined) throw new ProtocolError(codes.INVALID_PARAMS!, `Invalid params: task ${JSON.stringify(taskId)} expired`);
        task = current;
      }
    } finally {
      running?.channels.delete(context);
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
  private async coreList(endpoint: Endpoint, cursor: unknown, context: RequestContext): Promise<CoreListTasksResult> {
    const codes = codesOf(endpoint);
    if (this.store.list === undefined) throw new ProtocolError(codes.METHOD_NOT_FOUND!, 'Method not found: tasks/list (the task store cannot list)');
    let page;
    try {
      page = await this.store.list(this.requesterOf(context), typeof cursor === 'string' ? cursor : undefined, LIST_PAGE);
    } catch (error) {
      if (error instanceof RangeError) throw new ProtocolError(codes.INVALID_PARAMS!, `Invalid params: unknown cursor ${JSON.stringify(cursor)}`);
      throw error;
    }
    return { tasks: page.tasks.map(coreTask), ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
  }

  /** 2025-11-25 `tasks/cancel`: refused for a finished task (-32602), else the task is cancelled and its work aborted. */
  private async coreCancel(endpoint: Endpoint, taskId: string, context: RequestContext): Promise<CoreTask> {
    const codes = codesOf(endpoint);
    const task = await this.owned(taskId, context, codes);
    if (TERMINAL_STATUSES.has(task.status)) throw new ProtocolError(codes.INVALID_PARAMS!, `Invalid params: task ${JSON.stringify(taskId)} is already ${task.status}`);
    const after = await this.change(taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client' });
    this.abortLocal(taskId);
    return coreTask(after ?? task);
  }

  /** The task if `context`'s requester may see it; an unknown id and another requester's task look the same. */
  private async owned(taskId: string, context: RequestContext, codes: { readonly [name: string]: number } = CoreErrorCode): Promise<StoredTask> {
    const task = await this.store.get(taskId);
    if (task === undefined || (task.owner !== null && task.owner !== this.requesterOf(context))) {
      throw new ProtocolError(codes.INVALID_PARAMS!, `Invalid params: unknown task ${JSON.stringify(taskId)}`);
    }
    return task;
  }

  private requireDeclared(endpoint: Endpoint, context: RequestContext, what: string): void {
    const stateful = (endpoint as { clientCapabilities?: unknown }).clientCapabilities;
    if (!declaresTasks(context) && !(context._meta?.[CLIENT_CAPABILITIES_META] === undefined && hasTasks(stateful))) throw missingExtension(what);
  }

  /**
   * Changes a task in the store, wakes what waits on it here and, for a 2025-11-25 task
   * running here, tells the client with `notifications/tasks/status`.
   */
  private async change(taskId: string, change: TaskChange): Promise<StoredTask | undefined> {
    const after = await this.store.update(taskId, change);
    const running = this.running.get(taskId);
    running?.wake();
    const endpoint = this.notifying.get(taskId);
    if (after !== undefined && endpoint !== undefined) {
      // Optional for the server, and the client may have no stream for it: a failed send is no failure of the task.
      endpoint.protocol.notification(Method.NotificationsTasksStatus, coreTask(after) as unknown as Params).catch(() => undefined);
    }
    return after;
  }

  /** Resolves at the next local change of the task, after a poll interval, or when `signal` aborts. */
  private nextChange(taskId: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const running = this.running.get(taskId);
      let remove: () => void = () => undefined;
      const done = (): void => {
        clearTimeout(timer);
        remove();
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, this.pollIntervalMs);
      if (running !== undefined) remove = running.onWake(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /**
   * Runs `work` in the background. Its questions become input requests answered with
   * `tasks/update` (the extension), or, with `core` (a 2025-11-25 session), requests sent to the
   * client on an open `tasks/result`, tied to the task in `_meta`.
   */
  private start(task: StoredTask, request: RequestContext, work: TaskWork, core?: Endpoint): void {
    const controller = new AbortController();
    let wakers = new Set<() => void>();
    const running: Running = {
      controller,
      wake: () => {
        const current = wakers;
        wakers = new Set();
        for (const wake of current) wake();
      },
      onWake: (listener) => {
        wakers.add(listener);
        return () => wakers.delete(listener);
      },
      channels: new Set(),
    };
    this.running.set(task.taskId, running);
    if (core !== undefined) this.notifying.set(task.taskId, core);
    const waitForChange = (): Promise<void> => this.nextChange(task.taskId, controller.signal);
    // Another replica may cancel the task: its status in the store is what counts.
    const watcher = setInterval(() => {
      this.store.get(task.taskId).then((current) => {
        if (current === undefined || current.status === 'cancelled') controller.abort(new ProtocolError(CoreErrorCode.INTERNAL_ERROR, 'Task cancelled'));
      }, () => undefined);
    }, Math.max(this.pollIntervalMs, 250));
    (watcher as { unref?: () => void }).unref?.();
    let asked = 0;
    const ended = (current: StoredTask | undefined): boolean => {
      if (current !== undefined && !TERMINAL_STATUSES.has(current.status)) return false;
      controller.abort(new ProtocolError(CoreErrorCode.INTERNAL_ERROR, 'Task ended'));
      return true;
    };
    const ask = async (method: string, params: Params | undefined, key: string | undefined): Promise<unknown> => {
      const inputKey = key ?? `${method}-${++asked}`;
      const question: StoredInputRequest = params === undefined ? { method } : { method, params };
      await this.change(task.taskId, { ask: { [inputKey]: question } });
      for (;;) {
        if (controller.signal.aborted) throw controller.signal.reason ?? new Error('Task cancelled');
        const current = await this.store.get(task.taskId);
        if (ended(current)) continue;
        if (current!.inputResponses !== undefined && Object.hasOwn(current!.inputResponses, inputKey)) return current!.inputResponses[inputKey];
        await waitForChange();
      }
    };
    const askCore = async (method: string, params: Params | undefined, key: string | undefined): Promise<unknown> => {
      const inputKey = key ?? `${method}-${++asked}`;
      const question: StoredInputRequest = params === undefined ? { method } : { method, params };
      const meta = isJsonObject(params?._meta) ? params._meta : {};
      const tied: Params = { ...params, _meta: { ...meta, [RELATED_TASK_META]: { taskId: task.taskId } } };
      if (ended(await this.change(task.taskId, { ask: { [inputKey]: question } }))) throw controller.signal.reason;
      for (;;) {
        if (controller.signal.aborted) throw controller.signal.reason ?? new Error('Task cancelled');
        const channel = [...running.channels].find((open) => !open.signal.aborted);
        if (channel === undefined) {
          await waitForChange();
          continue;
        }
        let response: unknown;
        try {
          response = await channel.sendRequest(method, tied, { signal: controller.signal });
        } catch (error) {
          // The tasks/result it travelled on ended: the next one carries the question again.
          if (channel.signal.aborted && !controller.signal.aborted) continue;
          throw error;
        }
        await this.change(task.taskId, { answer: { [inputKey]: response } });
        return response;
      }
    };
    const context = core === undefined
      ? new TaskContext(request, controller.signal, ask, coreModule, undefined)
      : new TaskContext(request, controller.signal, askCore, core.protocol.revision!, () => (core as { clientCapabilities?: CapabilityObject }).clientCapabilities);
    void (async () => {
      try {
        const result = await work(context);
        const finished = isJsonObject(result) ? withoutEnvelope(result) : {};
        await this.change(task.taskId, { status: 'completed', result: finished });
      } catch (error) {
        if (controller.signal.aborted) {
          await this.change(task.taskId, { status: 'cancelled' });
        } else {
          const failure = error instanceof ProtocolError ? error : new ProtocolError(CoreErrorCode.INTERNAL_ERROR, messageOf(error));
          const { code, message, data } = failure.toJSON();
          await this.change(task.taskId, { status: 'failed', error: data === undefined ? { code, message } : { code, message, data } });
        }
      }
    })()
      .catch((error: unknown) => this.onerror(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        clearInterval(watcher);
        running.wake();
        this.running.delete(task.taskId);
        this.notifying.delete(task.taskId);
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
    module: RevisionModule,
    /** A stateful session's client capabilities (2025-11-25); otherwise those of the request's `_meta`. */
    private readonly sessionCapabilities: (() => CapabilityObject | undefined) | undefined,
  ) {
    super(origin, undefined, module, undefined);
  }

  override get signal(): AbortSignal {
    return this.taskSignal;
  }

  override get _meta(): Meta | undefined {
    return this.origin._meta;
  }

  override get clientCapabilities(): CapabilityObject | undefined {
    return this.sessionCapabilities === undefined ? super.clientCapabilities : this.sessionCapabilities();
  }

  override sendRequest<R = unknown>(method: string, params?: Params, options?: RequestOptions): Promise<R> {
    return this.ask(method, params, options?.inputKey) as Promise<R>;
  }

  override async sendNotification(): Promise<void> {}

  override async reportProgress(): Promise<void> {}

  override async log(): Promise<void> {}
}

/** A task as 2025-11-25 shows it; a tool result with `isError` is a failed task there. */
function coreTask(task: StoredTask): CoreTask {
  const failedTool = task.status === 'completed' && task.result?.isError === true;
  return {
    taskId: task.taskId,
    status: failedTool ? 'failed' : task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: task.ttlMs,
    ...(task.pollIntervalMs !== undefined ? { pollInterval: task.pollIntervalMs } : {}),
  };
}

/** True when the session's revision has the core experimental tasks (2025-11-25). */
function speaksCoreTasks(endpoint: Endpoint): boolean {
  return endpoint.protocol.revision?.era === 'stateful' && endpoint.protocol.revision.methods[Method.TasksResult] !== undefined;
}

function codesOf(endpoint: Endpoint): { readonly [name: string]: number } {
  return endpoint.protocol.revision?.errorCodes ?? CoreErrorCode;
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
