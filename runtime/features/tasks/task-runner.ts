/**
 * The tasks running in this process: their background work, the wake-ups of what waits on
 * them, the questions their work asks (as input requests, or on a 2025-11-25 `tasks/result`),
 * and every change of their state in the store.
 */
import { Method } from '../../../generated/methods.js';
import { ErrorCodes } from '../../../generated/protocol/error-codes.js';
import type { CapabilityObject } from '../../era/capabilities.js';
import type { RevisionModule } from '../../core/contract.js';
import { messageOf, ProtocolError } from '../../core/errors.js';
import { isJsonObject } from '../../core/jsonrpc.js';
import type { Meta, Params, RequestContext, RequestOptions } from '../../core/request-context.js';
import { StatelessContext } from '../../era/stateless-request.js';
import type { ExtensionEndpoint as Endpoint } from '../../peers/extension.js';
import { TERMINAL_STATUSES, type StoredInputRequest, type StoredTask, type TaskChange, type TaskStore } from './task-store.js';
import { coreTask, RELATED_TASK_META, withoutEnvelope } from './task-views.js';

/** Work that may run as a task: it gets a context whose questions become the task's input requests. */
export type TaskWork = (context: RequestContext) => unknown;

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

interface Running {
  readonly controller: AbortController;
  /** Wakes whatever waits for this task's answers or its changes. */
  wake(): void;
  /** Calls `listener` at the next wake; returns the remover. */
  onWake(listener: () => void): () => void;
  /** 2025-11-25: the open `tasks/result` requests that questions to the client travel on. */
  readonly channels: Set<RequestContext>;
}

/** Runs tasks' work in this process and changes their state in the store. */
export class TaskRunner {
  private readonly running = new Map<string, Running>();
  /** 2025-11-25 tasks running here, and the Server whose client hears their status changes. */
  private readonly notifying = new Map<string, Endpoint>();

  constructor(
    private readonly store: TaskStore,
    private readonly pollIntervalMs: number,
    private readonly onerror: (error: Error) => void,
  ) {}

  /** Wakes what waits on the task here (its work, a `tasks/result`). */
  wake(taskId: string): void {
    this.running.get(taskId)?.wake();
  }

  /**
   * 2025-11-25: lets the task's questions travel on `request` (an open `tasks/result`) until
   * the returned function is called.
   */
  openChannel(taskId: string, request: RequestContext): () => void {
    const running = this.running.get(taskId);
    running?.channels.add(request);
    running?.wake();
    return () => running?.channels.delete(request);
  }

  /**
   * Changes a task in the store, wakes what waits on it here and, for a 2025-11-25 task
   * running here, tells the client with `notifications/tasks/status`.
   */
  async change(taskId: string, change: TaskChange): Promise<StoredTask | undefined> {
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
  nextChange(taskId: string, signal: AbortSignal): Promise<void> {
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
   * `tasks/update` (the extension, whose core revision's `module` the work's context speaks), or,
   * with `core` (a 2025-11-25 session), requests sent to the client on an open `tasks/result`,
   * tied to the task in `_meta`.
   */
  start(task: StoredTask, request: RequestContext, work: TaskWork, session: { readonly core: Endpoint } | { readonly module: RevisionModule }): void {
    const core = 'core' in session ? session.core : undefined;
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
        if (current === undefined || current.status === 'cancelled') controller.abort(new ProtocolError(ErrorCodes.INTERNAL_ERROR, 'Task cancelled'));
      }, () => undefined);
    }, Math.max(this.pollIntervalMs, 250));
    (watcher as { unref?: () => void }).unref?.();
    let asked = 0;
    const ended = (current: StoredTask | undefined): boolean => {
      if (current !== undefined && !TERMINAL_STATUSES.has(current.status)) return false;
      controller.abort(new ProtocolError(ErrorCodes.INTERNAL_ERROR, 'Task ended'));
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
    const context = 'core' in session
      ? new TaskContext(request, controller.signal, askCore, session.core.protocol.revision!, () => (session.core as { clientCapabilities?: CapabilityObject }).clientCapabilities)
      : new TaskContext(request, controller.signal, ask, session.module, undefined);
    void (async () => {
      try {
        const result = await work(context);
        const finished = isJsonObject(result) ? withoutEnvelope(result) : {};
        await this.change(task.taskId, { status: 'completed', result: finished });
      } catch (error) {
        if (controller.signal.aborted) {
          await this.change(task.taskId, { status: 'cancelled' });
        } else {
          const failure = error instanceof ProtocolError ? error : new ProtocolError(ErrorCodes.INTERNAL_ERROR, messageOf(error));
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

  abort(taskId: string): void {
    const running = this.running.get(taskId);
    running?.controller.abort(new ProtocolError(ErrorCodes.INTERNAL_ERROR, 'Task cancelled'));
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

/** True for the context a task's work runs with (its questions are the task's, not requests of their own). */
export function isTaskContext(context: RequestContext): boolean {
  return context instanceof TaskContext;
}
