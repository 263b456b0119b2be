// 2025-11-25's experimental tasks behind the tasks extension's API, end to end over Streamable
// HTTP with stateful sessions: the same McpServer tools and TasksExtension as the 2026 e2e, and
// mcpgen's TasksClient (task-augmented tools/call, tasks/get polling, tasks/result) as well as
// the official v1 client's experimental tasks API as the requestors. Covers a task polled to
// completion, one that asks for input over tasks/result, one cancelled, tasks/list, status
// notifications, the -32601 rules of tool-level negotiation and the binding of tasks to their
// session.
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1StreamableTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, McpServer, ProtocolError, SdkError, StreamableHttpClientTransport } from '../../runtime/index.js';
import { TasksClient, TasksExtension } from '../../runtime/features/tasks/index.js';
import { validateCreateTaskResult, validateGetTaskResult, validateListTasksResult, type Task } from '../../generated/2025-11-25/index.js';
import { createMcpNodeServer, type McpNodeServer } from '../../runtime/node.js';
import { registerTaskTools } from './fixtures/task-tools.js';

const REVISION = '2025-11-25';
const RELATED = 'io.modelcontextprotocol/related-task';
let node: McpNodeServer;
let url: URL;
let cancelledReason: Promise<unknown>;
let release: () => void;

beforeAll(async () => {
  const tasks = new TasksExtension({ pollIntervalMs: 20 });
  const mcp = new McpServer({ name: 'tasks-2025', version: '1.0.0' }, { extensions: [tasks] });
  ({ cancelled: cancelledReason, release } = registerTaskTools(mcp));
  mcp.registerTool('broken', { execution: { taskSupport: 'optional' } }, async () => ({ content: [{ type: 'text', text: 'no luck' }], isError: true }));
  mcp.registerTool('plain', {}, async () => ({ content: [{ type: 'text', text: 'plain' }] }));
  node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
  url = await node.listen();
});

afterAll(async () => {
  await node.close();
});

interface Connected {
  client: Client;
  tasks: TasksClient;
  elicitations: Array<Record<string, unknown>>;
  statuses: Task[];
}

async function connect(): Promise<Connected> {
  const tasks = new TasksClient();
  const client = new Client({ name: 'requestor', version: '1.0.0' }, { protocolVersion: REVISION, capabilities: { elicitation: { form: {} } }, extensions: [tasks] });
  const elicitations: Array<Record<string, unknown>> = [];
  const statuses: Task[] = [];
  client.setRequestHandler('elicitation/create', (params) => {
    elicitations.push(params as unknown as Record<string, unknown>);
    return { action: 'accept', content: { day: 'Tuesday' } };
  });
  client.setNotificationHandler('notifications/tasks/status', (params) => {
    statuses.push(params as unknown as Task);
  });
  await client.connect(new StreamableHttpClientTransport(url));
  return { client, tasks, elicitations, statuses };
}

const textOf = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]!.text;
const raw = (client: Client, method: string, params: Record<string, unknown>, timeout?: number): Promise<Record<string, any>> =>
  (client.request as (method: string, params: unknown, options?: object) => Promise<Record<string, any>>)(method, params, timeout === undefined ? {} : { timeout });

describe('2025-11-25 tasks through the tasks extension (Streamable HTTP, stateful)', () => {
  it('declares the tasks capability and answers a task-augmented tools/call with CreateTaskResult', async () => {
    const { client } = await connect();
    expect(client.protocolVersion).toBe(REVISION);
    expect(client.serverCapabilities).toMatchObject({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
    const created = await raw(client, 'tools/call', { name: 'held', arguments: {}, task: { ttl: 60_000 } });
    expect(validateCreateTaskResult(created)).toBe(true);
    expect(created.task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 20 });
    const taskId = created.task.taskId as string;
    const polled = await raw(client, 'tasks/get', { taskId });
    expect(validateGetTaskResult(polled)).toBe(true);
    expect(polled.status).toBe('working');
    // tasks/result blocks until the task ends, then answers the tool result tied to the task.
    const pending = raw(client, 'tasks/result', { taskId });
    release();
    const result = await pending;
    expect(textOf(result)).toBe('released');
    expect(result._meta[RELATED]).toEqual({ taskId });
    expect((await raw(client, 'tasks/get', { taskId })).status).toBe('completed');
    const listed = await raw(client, 'tasks/list', {});
    expect(validateListTasksResult(listed)).toBe(true);
    expect(listed.tasks.map((task: Task) => task.taskId)).toContain(taskId);
    await client.close();
  });

  it('TasksClient calls with params.task, polls tasks/get and fetches tasks/result; status notifications arrive', async () => {
    const { client, tasks, statuses } = await connect();
    const seen: string[] = [];
    let created = '';
    const result = await tasks.callTool(client, { name: 'compute', arguments: { ms: 60 } }, { onTask: (task) => (created = task.taskId), onStatus: (task) => seen.push(task.status) });
    expect(textOf(result)).toBe('computed in 60 ms');
    expect(created).not.toBe('');
    expect(seen.at(-1)).toBe('completed');
    await expect.poll(() => statuses.map((status) => `${status.taskId}:${status.status}`)).toContain(`${created}:completed`);
    // The same high-level shape as the extension's tasks/get.
    const detailed = await tasks.get(client, created);
    expect(detailed).toMatchObject({ taskId: created, status: 'completed', ttlMs: 3_600_000, pollIntervalMs: 20 });
    expect(textOf((detailed as { result: unknown }).result)).toBe('computed in 60 ms');
    await client.close();
  });

  it('asks for input mid-flight: input_required, the elicitation travels on tasks/result tied to the task', async () => {
    const { client, tasks, elicitations } = await connect();
    const seen: string[] = [];
    let taskId = '';
    const result = await tasks.callTool(client, { name: 'book', arguments: {} }, { onTask: (task) => (taskId = task.taskId), onStatus: (task) => seen.push(task.status) });
    expect(textOf(result)).toBe('booked for Tuesday');
    expect(seen).toContain('input_required');
    expect(elicitations).toHaveLength(1);
    expect((elicitations[0]!._meta as Record<string, unknown>)[RELATED]).toEqual({ taskId });
    await client.close();
  });

  it('a tool result with isError is a failed task whose tasks/result is that result', async () => {
    const { client, tasks } = await connect();
    const created = await raw(client, 'tools/call', { name: 'broken', arguments: {}, task: {} });
    const result = await raw(client, 'tasks/result', { taskId: created.task.taskId });
    expect(result.isError).toBe(true);
    expect((await raw(client, 'tasks/get', { taskId: created.task.taskId })).status).toBe('failed');
    expect((await tasks.callTool(client, { name: 'broken', arguments: {} })).isError).toBe(true);
    await client.close();
  });

  it('cancels: the work sees its signal abort, the task ends cancelled, a second tasks/cancel is -32602', async () => {
    const { client, tasks } = await connect();
    let taskId = '';
    const waiting = tasks.callTool(client, { name: 'forever', arguments: {} }, { onTask: (task) => (taskId = task.taskId) });
    await expect.poll(() => taskId).not.toBe('');
    const cancelled = await raw(client, 'tasks/cancel', { taskId });
    expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
    await expect(waiting).rejects.toSatisfy((error) => error instanceof SdkError && error.code === 'REQUEST_CANCELLED');
    await cancelledReason;
    const again = await raw(client, 'tasks/cancel', { taskId }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(ProtocolError);
    expect((again as ProtocolError).code).toBe(-32602);
    await tasks.cancel(client, taskId); // TasksClient stays idempotent
    await client.close();
  });

  it('follows tool-level negotiation: -32601 for a required tool called plainly and for a task asked of a plain tool', async () => {
    const { client, tasks } = await connect();
    const required = await raw(client, 'tools/call', { name: 'book', arguments: {} }).catch((error: unknown) => error);
    expect((required as ProtocolError).code).toBe(-32601);
    const forbidden = await raw(client, 'tools/call', { name: 'plain', arguments: {}, task: {} }).catch((error: unknown) => error);
    expect((forbidden as ProtocolError).code).toBe(-32601);
    expect(textOf(await tasks.callTool(client, { name: 'plain', arguments: {} }))).toBe('plain');
    await client.close();
  });

  it("binds tasks to their session: another session can neither read, list, fetch nor cancel them", async () => {
    const owner = await connect();
    const other = await connect();
    const created = await raw(owner.client, 'tools/call', { name: 'compute', arguments: { ms: 30 }, task: {} });
    const taskId = created.task.taskId as string;
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const error = await raw(other.client, method, { taskId }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32602);
    }
    expect((await raw(other.client, 'tasks/list', {})).tasks.map((task: Task) => task.taskId)).not.toContain(taskId);
    expect(textOf(await owner.tasks.wait(owner.client, taskId))).toBe('computed in 30 ms');
    await owner.client.close();
    await other.client.close();
  });

  it('serves the official v1 client\'s experimental tasks API (callToolStream, getTask, listTasks)', async () => {
    const client = new V1Client({ name: 'v1', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new V1StreamableTransport(url));
    await client.listTools();
    const kinds: string[] = [];
    let result: unknown;
    let taskId = '';
    for await (const message of client.experimental.tasks.callToolStream({ name: 'compute', arguments: { ms: 40 } })) {
      kinds.push(message.type);
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      if (message.type === 'result') result = message.result;
      if (message.type === 'error') throw message.error;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(kinds.at(-1)).toBe('result');
    expect(textOf(result)).toBe('computed in 40 ms');
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('completed');
    expect((await client.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toContain(taskId);
    await client.close();
  });
});
