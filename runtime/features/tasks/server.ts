/**
 * The server half of the tasks extension (io.modelcontextprotocol/tasks, SEP-2663): a request
 * handler may answer with a task handle and finish the work in the background; clients poll
 * `tasks/get`, answer the task's questions with `tasks/update` and stop it with `tasks/cancel`.
 */
import { extensionId, extensionModule, type CreateTaskResult, type GetTaskResult } from '../../../generated/extensions/tasks/index.js';
import { ErrorCodes } from '../../../generated/protocol/error-codes.js';
import type { CapabilityObject } from '../../era/capabilities.js';
import type { RevisionModule } from '../../core/contract.js';
import type { ExtensionEndpoint as Endpoint } from '../../peers/extension.js';
import { ProtocolError } from '../../core/errors.js';
import { isJsonObject } from '../../core/jsonrpc.js';
import type { Params, RequestContext } from '../../core/request-context.js';
import { CLIENT_CAPABILITIES_META } from '../../era/meta.js';
import { StatelessContext } from '../../era/stateless-request.js';
import { principalOf } from '../../era/principal.js';
import type { MessageExtra } from '../../core/transport.js';
import { checkValue, describeIssues } from '../../core/validation.js';
import { registerExtensionModule, type Extension, type ExtensionTool, type ExtensionToolCall } from '../../peers/extension.js';
import { coreRevisionModule } from './core-module.js';
import { codesOf, CoreTasks, speaksCoreTasks } from './core-tasks.js';
import type * as Stateful from '../../../generated/protocol/stateful.js';
import { HandlerStarts } from './handler-start.js';
import { requestAsTask, type TaskRequestOptions } from './requestor.js';
import type { McpContext } from '../mcp-server/context.js';
import { InMemoryTaskStore } from './memory-store.js';
import { Method } from '../../../generated/methods.js';
import { sessionDefinition } from './session-definition.js';
import { TaskRunner, type TaskRunOptions, type TaskWork } from './task-runner.js';
import type { StoredTask, TaskStore } from './task-store.js';
import { detailed } from './task-views.js';

export type { TaskRunOptions, TaskWork } from './task-runner.js';
export type { TaskRequestOptions } from './requestor.js';

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

/**
 * The tasks extension for servers. Give it to a Server or McpServer (`extensions`); one
 * instance serves every Server it is given to and keeps their tasks in one store.
 *
 * McpServer tools opt in with `execution: { taskSupport: 'optional' | 'required' }` (with
 * `taskStart: 'handler'` the handler asks first and then calls {@link startTask}); low-level
 * handlers call {@link run}. In 2025-11-25, {@link sample} and {@link elicit} ask the client as
 * a task.
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
  /** Tasks whose work runs in this process. */
  private readonly runner: TaskRunner;
  /** The 2025-11-25 core tasks, served from the same store and runner. */
  private readonly core: CoreTasks;
  /** Calls of `taskStart: 'handler'` tools whose handler has not started its task yet. */
  private readonly handlerStarts = new HandlerStarts();

  constructor(options: TasksExtensionOptions = {}) {
    this.store = options.store ?? new InMemoryTaskStore();
    this.ttlMs = options.ttlMs === undefined ? DEFAULT_TASK_TTL_MS : options.ttlMs;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    const requester = options.requester;
    this.requesterOf = requester === undefined ? defaultRequester : (context) => requester(context) ?? null;
    this.runner = new TaskRunner(this.store, this.pollIntervalMs, options.onerror ?? (() => {}));
    this.core = new CoreTasks({
      store: this.store,
      runner: this.runner,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      requesterOf: this.requesterOf,
      owned: (taskId, context, codes) => this.owned(taskId, context, codes),
    });
  }

  /**
   * Registers tasks/get, tasks/update and tasks/cancel (with their generated validators) on a
   * Server, and on sessions of a revision with the core experimental tasks (2025-11-25) serves
   * those instead: tasks/get, tasks/result, tasks/list and tasks/cancel of that revision.
   */
  install(endpoint: Endpoint): void {
    if (endpoint.protocol.side !== 'server') return;
    registerExtensionModule(endpoint, extensionModule);
    // Results of tools called as tasks here, and of requests this server sends as tasks (2025-11-25).
    for (const method of [Method.ToolsCall, Method.SamplingCreateMessage, Method.ElicitationCreate]) endpoint.protocol.addResultMember(method, 'task', sessionDefinition(endpoint, 'CreateTaskResult'));
    const own = (method: string) => (params: Params | undefined, context: RequestContext) => {
      this.requireDeclared(endpoint, context, `${method} needs`);
      return params;
    };
    const taskIdOf = (params: Params | undefined): string => String(params?.taskId);
    endpoint.protocol.setRequestHandler(Method.TasksGet, async (params, context) =>
      speaksCoreTasks(endpoint) ? this.core.get(endpoint, taskIdOf(params), context) : this.get(String(own(Method.TasksGet)(params, context)?.taskId), context));
    endpoint.protocol.setRequestHandler(Method.TasksUpdate, async (params, context) => {
      if (speaksCoreTasks(endpoint)) throw new ProtocolError(codesOf(endpoint).METHOD_NOT_FOUND!, 'Method not found: tasks/update');
      const checked = own(Method.TasksUpdate)(params, context)!;
      return this.update(String(checked.taskId), isJsonObject(checked.inputResponses) ? checked.inputResponses : {}, context, endpoint);
    });
    endpoint.protocol.setRequestHandler(Method.TasksCancel, async (params, context) =>
      speaksCoreTasks(endpoint) ? this.core.cancel(endpoint, taskIdOf(params), context) : this.cancel(String(own(Method.TasksCancel)(params, context)?.taskId), context));
  }

  /**
   * A stateful session settled on `revision`: with the core tasks (2025-11-25) it gets
   * tasks/result and tasks/list, and the `tasks` capability of a server that runs tools as tasks.
   */
  negotiated(endpoint: Endpoint, revision: RevisionModule): CapabilityObject | undefined {
    if (endpoint.protocol.side !== 'server' || revision.era !== 'stateful' || revision.methods[Method.TasksResult] === undefined) return undefined;
    // Registered only now: a stateless-era Server must not look as if it served them.
    endpoint.protocol.setRequestHandler(Method.TasksResult, async (params, context) => this.core.result(endpoint, String(params?.taskId), context));
    if (this.store.list !== undefined) endpoint.protocol.setRequestHandler(Method.TasksList, async (params, context) => this.core.list(endpoint, params?.cursor, context));
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
    const options = { required: support === 'required', ...where };
    if (tool.taskStart === 'handler' && this.wantsTask(context, call)) {
      return this.handlerStarts.call(context, run, (work) => this.run(context, work, options));
    }
    return this.run(context, run, options);
  }

  /**
   * Starts the task of a tool registered with `taskStart: 'handler'`, from its handler: the
   * `tools/call` is answered with the task handle, and the rest of the handler runs as the
   * task with the context this resolves with (use it, not the request's, from here on: its
   * signal aborts when the task is cancelled and its questions become the task's input
   * requests). What the handler asked before went to the user as part of the call (an
   * `InputRequiredResult` in the stateless era). When the client runs the tool without a task
   * (it asked for none, and the tool's `taskSupport` is `optional`), this resolves with
   * `context` itself and the call is answered with the handler's result.
   *
   * @example
   * ```ts
   * mcp.registerTool('greet', { execution: { taskSupport: 'required' }, taskStart: 'handler' }, async (_args, context) => {
   *   const answer = await context.elicitForm('What is your name?', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
   *   const name = answer.action === 'accept' ? answer.content.name : 'stranger';
   *   const task = await tasks.startTask(context);
   *   await slowWork(task.signal);
   *   return { content: [{ type: 'text', text: `Hello, ${name}!` }] };
   * });
   * ```
   */
  async startTask(context: McpContext): Promise<McpContext> {
    const started = this.handlerStarts.start(context.request);
    return started === undefined ? context : context.withRequest(await started);
  }

  /**
   * Asks the client to sample (`sampling/createMessage`), as a task when the session is a
   * 2025-11-25 one and the client declared `capabilities.tasks.requests.sampling.createMessage`:
   * the request is answered with a task handle at once, and the task is polled (`tasks/get`, at
   * the client's pace) and its result fetched (`tasks/result`), so no request stays open while
   * the user reviews it. Otherwise, and inside a task, a plain request (`context.sample`). The
   * signal (the handler's, and `options.signal`) cancels the task on the client.
   *
   * @example
   * ```ts
   * mcp.registerTool('haiku', {}, async (_args, context) => {
   *   const reply = await tasks.sample(context, { messages: [{ role: 'user', content: { type: 'text', text: 'A haiku' } }], maxTokens: 100 }, { ttlMs: 60_000 });
   *   return { content: [reply.content as { type: 'text'; text: string }] };
   * });
   * ```
   */
  sample(context: McpContext, params: Stateful.CreateMessageRequestParams, options: TaskRequestOptions = {}): Promise<Stateful.CreateMessageResult> {
    return requestAsTask(context, Method.SamplingCreateMessage, params as unknown as Params, options) as Promise<Stateful.CreateMessageResult>;
  }

  /**
   * Asks the user through the client (`elicitation/create`, `params` as they go on the wire),
   * as a task when the client declared `capabilities.tasks.requests.elicitation.create` on a
   * 2025-11-25 session; see {@link sample}.
   */
  elicit(context: McpContext, params: Stateful.ElicitRequestParams, options: TaskRequestOptions = {}): Promise<Stateful.ElicitResult> {
    return requestAsTask(context, Method.ElicitationCreate, params as unknown as Params, options) as Promise<Stateful.ElicitResult>;
  }

  /** Whether the client asked for a task: declared the extension, or (2025-11-25) sent `params.task`. */
  private wantsTask(context: RequestContext, call: ExtensionToolCall | undefined): boolean {
    if (call !== undefined && speaksCoreTasks(call.endpoint)) return isJsonObject(call.params.task);
    return declaresTasks(context);
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
      if (isJsonObject(options.params?.task)) return this.core.create(endpoint, context, work, options);
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
    const core = await coreRevisionModule(endpoint);
    await this.store.create(task);
    this.runner.start(task, context, work, { module: core });
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
  async update(taskId: string, responses: Record<string, unknown>, context: RequestContext, endpoint: Endpoint): Promise<{ resultType: 'complete' }> {
    const task = await this.owned(taskId, context);
    let core: RevisionModule | undefined;
    for (const [key, response] of Object.entries(responses)) {
      const question = task.inputRequests?.[key];
      if (question === undefined) continue;
      core ??= await coreRevisionModule(endpoint);
      const validator = core.methods[question.method]?.result;
      const issues = validator === null || validator === undefined ? null : checkValue(validator, response);
      if (issues !== null) {
        throw new ProtocolError(ErrorCodes.INVALID_PARAMS, `Invalid params: inputResponses.${key} is not a ${question.method} result: ${describeIssues(issues, 'response')}`, { issues });
      }
    }
    await this.store.update(taskId, { answer: responses });
    this.runner.wake(taskId);
    return { resultType: 'complete' };
  }

  /** `tasks/cancel`: the task becomes `cancelled` (a terminal task stays as it is) and its work is aborted. */
  async cancel(taskId: string, context: RequestContext): Promise<{ resultType: 'complete' }> {
    await this.owned(taskId, context);
    await this.store.update(taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client' });
    this.runner.abort(taskId);
    return { resultType: 'complete' };
  }

  /** The task if `context`'s requester may see it; an unknown id and another requester's task look the same. */
  private async owned(taskId: string, context: RequestContext, codes: { readonly [name: string]: number } = ErrorCodes): Promise<StoredTask> {
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
  return new ProtocolError(ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY, `${what} the client capability extensions["${extensionId}"]`, {
    requiredCapabilities: { extensions: { [extensionId]: {} } },
  });
}

function defaultRequester(context: RequestContext): string | null {
  const extra: MessageExtra | undefined = context.extra;
  const principal = principalOf(extra);
  if (principal !== undefined) return principal;
  if (typeof extra?.sessionId === 'string') return `session:${extra.sessionId}`;
  return null;
}
