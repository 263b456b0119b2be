/**
 * Tools that start their task from the handler (McpServer's `taskStart: 'handler'`): the
 * handler runs in the request first, so it can ask the user before any task exists (an
 * `InputRequiredResult` in the stateless era, a request of its own in 2025-11-25); when it
 * calls `TasksExtension.startTask`, the request is answered with the task handle and the rest
 * of the handler runs as the task, its return value the task's result.
 */
import type { RequestContext } from '../../core/request-context.js';
import type { TaskWork } from './task-runner.js';

/** Creates the task around `work` and resolves with the request's answer (the task handle). */
export type CreateTask = (work: TaskWork) => Promise<unknown>;

/** The calls whose handler may still start their task, by the request they arrived with. */
export class HandlerStarts {
  /** Weak: an entry lives as long as its request's context, however the handler ends. */
  private readonly pending = new WeakMap<RequestContext, () => Promise<RequestContext>>();

  /**
   * Runs the handler (`run`) in the request. The call is answered with what the handler
   * returns or throws, unless it starts the task first: then with the task handle, whatever
   * the handler does afterwards (its outcome is the task's).
   */
  call(context: RequestContext, run: (context: RequestContext) => Promise<unknown>, create: CreateTask): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let outcome: Promise<unknown> | undefined;
      let handle: Promise<unknown> | undefined;
      let starting: Promise<RequestContext> | undefined;
      this.pending.set(context, () => {
        starting ??= new Promise<RequestContext>((resolveContext, rejectContext) => {
          handle = create((taskContext) => {
            resolveContext(taskContext);
            // The rest of the handler is the task's work; `outcome` is set before any task exists.
            return Promise.resolve().then(() => outcome);
          });
          // A task that could not be created fails the handler's startTask and the call alike.
          handle.then(resolve, (error: unknown) => {
            rejectContext(error);
            reject(error);
          });
        });
        return starting;
      });
      outcome = run(context);
      // Once the task is started, the call's answer is its handle, even when the handler ends first.
      outcome.then(
        (result) => (handle === undefined ? resolve(result) : undefined),
        (error: unknown) => (handle === undefined ? reject(error) : undefined),
      ).finally(() => this.pending.delete(context));
    });
  }

  /**
   * Starts the task of the call that arrived with `request`; resolves with the task's context.
   * Calling it again resolves with the same context. Undefined when there is nothing to
   * start: the tool runs inline (the client asked for no task), its whole handler already is
   * the task, or the handler has ended.
   */
  start(request: RequestContext): Promise<RequestContext> | undefined {
    return this.pending.get(request)?.();
  }
}
