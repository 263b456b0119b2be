/**
 * Fixtures of the tasks extension scenarios (io.modelcontextprotocol/tasks, SEP-2663): a
 * synchronous tool, tools that run as tasks when the client declared the extension (and two
 * that require it), tasks that fail in either way a task can, tasks that ask for input, and a
 * tool that gathers input with a multi round-trip request before it becomes a task.
 */
import { ProtocolError, type RequestContext } from '../runtime/index.js';
// Values of the newest revisions (error codes) come from their modules; the root entry exports their types only.
import { Stateful } from '../generated/latest.js';
import type { TasksExtension } from '../runtime/features/tasks/index.js';

type JsonObject = Record<string, unknown>;

/** A tool served with the tasks extension at hand. */
export interface TaskToolFixture {
  readonly tool: Stateful.Tool;
  call(args: JsonObject, context: RequestContext, tasks: TasksExtension): unknown;
}

const text = (value: string): Stateful.CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** Waits `ms`, or rejects when the task is cancelled. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const confirmSchema = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const;
const nameSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const;

function accepted(answer: unknown): JsonObject | undefined {
  const result = answer as Stateful.ElicitResult;
  return result.action === 'accept' ? (result.content ?? {}) : undefined;
}

const optional = { taskSupport: 'optional' } as const;
const required = { taskSupport: 'required' } as const;

/** The tools of the tasks scenarios. */
export const taskTools: readonly TaskToolFixture[] = [
  {
    tool: {
      name: 'greet',
      description: 'Greets by name, synchronously',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
    },
    call: (args) => text(`Hello, ${typeof args.name === 'string' ? args.name : 'world'}!`),
  },
  {
    tool: {
      name: 'slow_compute',
      description: 'Sleeps for `seconds`, then reports `label`; a task when the client declared the tasks extension',
      inputSchema: { type: 'object', properties: { seconds: { type: 'number' }, label: { type: 'string' } } },
      execution: optional,
    },
    call: (args, context, tasks) =>
      tasks.run(context, async (task) => {
        const seconds = typeof args.seconds === 'number' ? args.seconds : 1;
        await pause(seconds * 1000, task.signal);
        return text(`Computed ${typeof args.label === 'string' ? args.label : 'result'} after ${seconds}s`);
      }),
  },
  {
    tool: {
      name: 'failing_job',
      description: 'A task (only) whose tool fails after about a second: completed with isError',
      inputSchema: { type: 'object', properties: {} },
      execution: required,
    },
    call: (_args, context, tasks) =>
      tasks.run(context, async (task) => {
        await pause(1000, task.signal);
        return { content: [{ type: 'text', text: 'The job failed: disk full' }], isError: true };
      }, { required: true }),
  },
  {
    tool: {
      name: 'protocol_error_job',
      description: 'A task that ends with a protocol error: failed, with the error inlined',
      inputSchema: { type: 'object', properties: {} },
      execution: optional,
    },
    call: (_args, context, tasks) =>
      tasks.run(context, async (task) => {
        await pause(200, task.signal);
        throw new ProtocolError(Stateful.ErrorCode.INTERNAL_ERROR, 'Internal error: the job backend is unavailable');
      }),
  },
  {
    tool: {
      name: 'confirm_delete',
      description: 'A task that asks the user to confirm deleting `filename`',
      inputSchema: { type: 'object', properties: { filename: { type: 'string' } } },
      execution: optional,
    },
    call: (args, context, tasks) =>
      tasks.run(context, async (task) => {
        const filename = typeof args.filename === 'string' ? args.filename : 'the file';
        const answer = await task.sendRequest('elicitation/create', { mode: 'form', message: `Delete ${filename}?`, requestedSchema: confirmSchema }, { inputKey: 'confirm' });
        const content = accepted(answer);
        return text(content?.confirm === true ? `Deleted ${filename}` : `Kept ${filename}`);
      }),
  },
  {
    tool: {
      name: 'multi_input',
      description: 'A task that asks two questions at once',
      inputSchema: { type: 'object', properties: {} },
      execution: optional,
    },
    call: (_args, context, tasks) =>
      tasks.run(context, async (task) => {
        const [first, second] = await Promise.all([
          task.sendRequest('elicitation/create', { mode: 'form', message: 'First input?', requestedSchema: nameSchema }, { inputKey: 'first' }),
          task.sendRequest('elicitation/create', { mode: 'form', message: 'Second input?', requestedSchema: nameSchema }, { inputKey: 'second' }),
        ]);
        return text(`Got ${String(accepted(first)?.name ?? '-')} and ${String(accepted(second)?.name ?? '-')}`);
      }),
  },
  {
    tool: {
      name: 'test_tool_with_task',
      description: 'Asks for user_name with a multi round-trip request, then continues as a task',
      inputSchema: { type: 'object', properties: {} },
      execution: required,
    },
    call: async (_args, context, tasks) => {
      if (!tasks.accepts(context)) return tasks.run(context, () => undefined, { required: true });
      const answer = await context.sendRequest('elicitation/create', { mode: 'form', message: 'What is your name?', requestedSchema: nameSchema }, { inputKey: 'user_name' });
      const name = String(accepted(answer)?.name ?? 'stranger');
      return tasks.run(context, async (task) => {
        await pause(100, task.signal);
        return text(`Hello, ${name}! Your task finished.`);
      }, { required: true });
    },
  },
];
