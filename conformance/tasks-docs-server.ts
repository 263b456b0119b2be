/**
 * The tasks conformance server written from docs/tasks.md alone: McpServer tools declared with
 * `execution.taskSupport`, one of them asking the user before its task starts, served over
 * Streamable HTTP. It has the fixtures the suite's tasks scenarios call (greet, slow_compute,
 * failing_job, protocol_error_job, confirm_delete, multi_input, test_tool_with_task) and no
 * other wiring, so that a scenario failing here and passing against the everything server
 * points at the docs or the documented API. The regions are the code blocks of docs/tasks.md.
 *
 * Run: node --import tsx conformance/tasks-docs-server.ts [--port N]
 */
import { pathToFileURL } from 'node:url';
// #region server
import { ErrorCodes, McpServer, ProtocolError } from '../runtime/index.js';
import { createMcpNodeServer } from '../runtime/node.js';
import { TasksExtension } from '../runtime/features/tasks/index.js';

const tasks = new TasksExtension({ pollIntervalMs: 200 });
const mcp = new McpServer({ name: 'jobs', version: '1.0.0' }, { extensions: [tasks] });

/** Resolves after `ms`, or rejects when `signal` aborts (the task was cancelled). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

// Runs inline for clients without the extension, as a task for the others.
mcp.registerTool('slow_compute', {
  inputSchema: { type: 'object', properties: { seconds: { type: 'number' }, label: { type: 'string' } } },
  execution: { taskSupport: 'optional' },
}, async ({ seconds = 1, label = 'result' }, context) => {
  await pause(seconds * 1000, context.signal);
  return text(`Computed ${label} after ${seconds}s`);
});

// Runs only as a task: other clients get -32021. A result with isError completes the task.
mcp.registerTool('failing_job', { execution: { taskSupport: 'required' } }, async (_args, context) => {
  await pause(1000, context.signal);
  return { ...text('The job failed: disk full'), isError: true };
});

// A ProtocolError fails the task with that error.
mcp.registerTool('protocol_error_job', { execution: { taskSupport: 'optional' } }, async (_args, context) => {
  await pause(200, context.signal);
  throw new ProtocolError(ErrorCodes.INTERNAL_ERROR, 'Internal error: the job backend is unavailable');
});
// #endregion server

// #region questions
// Inside a task, a question puts the task in input_required until the client answers it.
const confirmSchema = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const;
mcp.registerTool('confirm_delete', {
  inputSchema: { type: 'object', properties: { filename: { type: 'string' } } },
  execution: { taskSupport: 'optional' },
}, async ({ filename = 'the file' }, context) => {
  const answer = await context.elicitForm(`Delete ${filename}?`, confirmSchema);
  return text(answer.action === 'accept' && answer.content.confirm ? `Deleted ${filename}` : `Kept ${filename}`);
});

// Questions asked together are pending together; each answer is taken as it comes.
const nameSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const;
mcp.registerTool('multi_input', { execution: { taskSupport: 'optional' } }, async (_args, context) => {
  const [first, second] = await Promise.all([context.elicitForm('First input?', nameSchema), context.elicitForm('Second input?', nameSchema)]);
  const nameOf = (answer: typeof first): string => (answer.action === 'accept' ? answer.content.name : '-');
  return text(`Got ${nameOf(first)} and ${nameOf(second)}`);
});
// #endregion questions

// #region ask-first
mcp.registerTool('test_tool_with_task', { execution: { taskSupport: 'required' }, taskStart: 'handler' }, async (_args, context) => {
  // Before the task: in 2026-07-28 the call is answered with an InputRequiredResult.
  const answer = await context.elicitForm('What is your name?', nameSchema, { inputKey: 'user_name' });
  const name = answer.action === 'accept' ? answer.content.name : 'stranger';
  // The call is answered with the task handle; the rest runs as the task.
  const task = await tasks.startTask(context);
  await pause(100, task.signal);
  return text(`Hello, ${name}! Your task finished.`);
});
// #endregion ask-first

mcp.registerTool('greet', { inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }, ({ name = 'world' }) => text(`Hello, ${name}!`));

/** A running docs server. */
export interface RunningTasksDocsServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:41234/mcp. */
  readonly url: URL;
  close(): Promise<void>;
}

/** Serves the docs server over Streamable HTTP on 127.0.0.1; `onerror` gets what has no caller. */
export async function startTasksDocsServer(port = 0, onerror: (error: Error) => void = (error) => process.stderr.write(`tasks-docs-server: ${error.message}\n`)): Promise<RunningTasksDocsServer> {
  // #region serve
  const node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp', onerror });
  const url = await node.listen(port);
  // #endregion serve
  return { url, close: () => node.close() };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const index = process.argv.indexOf('--port');
  startTasksDocsServer(index === -1 ? 0 : Number(process.argv[index + 1])).then(
    (running) => process.stdout.write(`${running.url.href}\n`),
    (error: unknown) => {
      process.stderr.write(`tasks-docs-server: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
