// The tasks extension on a 2025-11-25 session with a low-level Server (in-memory transport):
// TasksExtension.run with the request's params and the Server serves the core experimental
// tasks (CreateTaskResult, tasks/get, tasks/result, tasks/list paging, tasks/cancel, status
// notifications), and InMemoryTaskStore.list pages by owner.
import { describe, expect, it } from 'vitest';
import { Client, Server } from '../../../../runtime/index.js';
import { createLinkedPair } from '../../../../runtime/core/in-memory.js';
import { InMemoryTaskStore, TasksClient, TasksExtension, type StoredTask } from '../../../../runtime/features/tasks/index.js';
import type { CallToolResult, Task } from '../../../../generated/2025-11-25/index.js';

async function pair(store = new InMemoryTaskStore()): Promise<{ client: Client; server: Server; tasks: TasksClient; statuses: Task[] }> {
  const extension = new TasksExtension({ store, pollIntervalMs: 10 });
  const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} }, extensions: [extension] });
  server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'slow', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } }] }));
  // A task handle or the inline result: the same handler serves both.
  server.setRequestHandler('tools/call', async (params, context) =>
    (await extension.run(context, async (task) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (task.signal.aborted) throw task.signal.reason;
      return { content: [{ type: 'text', text: `done ${String(params.arguments?.n ?? '')}` }] };
    }, { params: params as unknown as Record<string, unknown>, endpoint: server })) as CallToolResult);
  const tasks = new TasksClient();
  const client = new Client({ name: 'c', version: '1' }, { protocolVersion: '2025-11-25', extensions: [tasks] });
  const statuses: Task[] = [];
  client.setNotificationHandler('notifications/tasks/status', (params) => {
    statuses.push(params as unknown as Task);
  });
  const [a, b] = createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  return { client, server, tasks, statuses };
}

const send = (client: Client, method: string, params: Record<string, unknown>): Promise<Record<string, any>> =>
  (client.request as (method: string, params: unknown) => Promise<Record<string, any>>)(method, params);

describe('core (2025-11-25) tasks with a low-level Server', () => {
  it('runs a task-augmented tools/call as a task, notifies its status and answers tasks/result', async () => {
    const { client, tasks, statuses } = await pair();
    const created = await send(client, 'tools/call', { name: 'slow', arguments: { n: 1 }, task: { ttl: 5_000 } });
    expect(created.task).toMatchObject({ status: 'working', ttl: 5_000, pollInterval: 10 });
    const result = await send(client, 'tasks/result', { taskId: created.task.taskId });
    expect(result.content[0].text).toBe('done 1');
    expect(statuses.map((status) => status.status)).toContain('completed');
    // Without params.task the same handler answers inline.
    expect((await send(client, 'tools/call', { name: 'slow', arguments: { n: 2 } })).content[0].text).toBe('done 2');
    expect((await tasks.callTool(client, { name: 'slow', arguments: { n: 3 } })).content).toEqual([{ type: 'text', text: 'done 3' }]);
    await client.close();
  });

  it('pages tasks/list with an opaque cursor and refuses a bad one with -32602', async () => {
    const store = new InMemoryTaskStore();
    const { client } = await pair(store);
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) ids.push((await send(client, 'tools/call', { name: 'slow', arguments: {}, task: {} })).task.taskId);
    const first = await send(client, 'tasks/list', {});
    expect(first.tasks).toHaveLength(50);
    const second = await send(client, 'tasks/list', { cursor: first.nextCursor });
    expect([...first.tasks, ...second.tasks].map((task: Task) => task.taskId)).toEqual(ids);
    expect(second.nextCursor).toBeUndefined();
    await expect(send(client, 'tasks/list', { cursor: 'nonsense' })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('cancels a working task and reports it cancelled to tasks/get and tasks/result', async () => {
    const { client } = await pair();
    const created = await send(client, 'tools/call', { name: 'slow', arguments: {}, task: {} });
    const cancelled = await send(client, 'tasks/cancel', { taskId: created.task.taskId });
    expect(cancelled.status).toBe('cancelled');
    expect((await send(client, 'tasks/get', { taskId: created.task.taskId })).status).toBe('cancelled');
    await expect(send(client, 'tasks/result', { taskId: created.task.taskId })).rejects.toMatchObject({ code: -32603 });
    await expect(send(client, 'tasks/get', { taskId: 'nope' })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});

describe('InMemoryTaskStore.list', () => {
  it("pages an owner's live tasks in creation order", async () => {
    let now = 0;
    const store = new InMemoryTaskStore(() => now);
    const task = (taskId: string, owner: string | null, expiresAt: number | null): StoredTask => ({ taskId, owner, status: 'working', createdAt: 'T', lastUpdatedAt: 'T', ttlMs: expiresAt, expiresAt });
    for (const [id, owner, expires] of [['a', 'x', 100], ['b', 'y', 100], ['c', 'x', 10], ['d', 'x', null], ['e', null, 100]] as const) await store.create(task(id, owner, expires));
    now = 10;
    const page = await store.list('x', undefined, 1);
    expect(page.tasks.map((each) => each.taskId)).toEqual(['a']);
    expect((await store.list('x', page.nextCursor, 5)).tasks.map((each) => each.taskId)).toEqual(['d']);
    expect((await store.list(null, undefined, 5)).tasks.map((each) => each.taskId)).toEqual(['e']);
  });
});
