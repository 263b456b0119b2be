// The tasks extension end to end: mcpgen's Client and McpServer over Streamable HTTP in the
// stateless era (each request a fresh Server; tasks live in the extension's store). A long tool
// runs as a task and is polled to the end, one asks for input mid-flight (answered by the
// client's elicitation handler through tasks/update), one is cancelled, a restarted client
// resumes by id, and another requester is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, McpServer, ProtocolError, SdkError, StreamableHttpClientTransport, type RequestContext } from '../../runtime/index.js';
import { isTaskHandle, TasksClient, TasksExtension } from '../../runtime/features/tasks/index.js';
import { createMcpNodeServer, type McpNodeServer } from '../../runtime/node.js';
import { registerTaskTools } from './fixtures/task-tools.js';

let node: McpNodeServer;
let url: URL;
let cancelledReason: Promise<unknown>;

/** Requests name their requester in clientInfo here; a real server binds tasks to the authenticated subject. */
const requester = (context: RequestContext): string | null => {
  const info = context._meta?.['io.modelcontextprotocol/clientInfo'] as { name?: string } | undefined;
  return info?.name ?? null;
};

beforeAll(async () => {
  const tasks = new TasksExtension({ pollIntervalMs: 20, requester });
  const mcp = new McpServer({ name: 'tasks-e2e', version: '1.0.0' }, { extensions: [tasks] });
  cancelledReason = registerTaskTools(mcp).cancelled;
  node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
  url = await node.listen();
});

afterAll(async () => {
  await node.close();
});

async function connect(name: string, withTasks = true): Promise<{ client: Client; tasks: TasksClient }> {
  const tasks = new TasksClient();
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, eraCache: false, extensions: withTasks ? [tasks] : [] });
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { day: 'Tuesday' } }));
  await client.connect(new StreamableHttpClientTransport(url));
  return { client, tasks };
}

const textOf = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]!.text;

describe('tasks extension over Streamable HTTP (2026-07-28)', () => {
  it('declares the extension, answers tools/call with a task and polls it to completion', async () => {
    const { client, tasks } = await connect('alice');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect((client.serverCapabilities as { extensions?: Record<string, unknown> }).extensions).toHaveProperty(['io.modelcontextprotocol/tasks']);
    const handle = await client.callTool({ name: 'compute', arguments: { ms: 50 } });
    expect(isTaskHandle(handle)).toBe(true);
    const statuses: string[] = [];
    const result = await tasks.wait(client, (handle as unknown as { taskId: string }).taskId, { onStatus: (task) => statuses.push(task.status) });
    expect(textOf(result)).toBe('computed in 50 ms');
    expect(statuses.at(-1)).toBe('completed');
    await client.close();
  });

  it('asks for input mid-flight: input_required, answered by the elicitation handler through tasks/update', async () => {
    const { client, tasks } = await connect('alice');
    const seen: string[] = [];
    const result = await tasks.callTool(client, { name: 'book', arguments: {} }, { onStatus: (task) => seen.push(task.status) });
    expect(textOf(result)).toBe('booked for Tuesday');
    expect(seen).toContain('input_required');
    await client.close();
  });

  it('refuses with -32602 a tasks/update answer that is no result of the question\'s method', async () => {
    const { client, tasks } = await connect('alice');
    const handle = (await client.callTool({ name: 'book', arguments: {} })) as unknown as { taskId: string };
    await expect.poll(async () => (await tasks.get(client, handle.taskId)).status).toBe('input_required');
    const task = (await tasks.get(client, handle.taskId)) as unknown as { inputRequests: Record<string, { method: string }> };
    const [key, question] = Object.entries(task.inputRequests)[0]!;
    expect(question.method).toBe('elicitation/create');
    const update = client.request as (method: string, params: unknown) => Promise<unknown>;
    // A roots/list result fits the schema's union of answers, but not the elicitation it answers.
    const refusal = await update.call(client, 'tasks/update', { taskId: handle.taskId, inputResponses: { [key]: { roots: [] } } }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ProtocolError);
    expect((refusal as ProtocolError).code).toBe(-32602);
    expect((refusal as ProtocolError).message).toContain(`inputResponses.${key} is not a elicitation/create result`);
    expect((await tasks.get(client, handle.taskId)).status).toBe('input_required');
    await tasks.cancel(client, handle.taskId);
    await client.close();
  });

  it('a client without the extension gets the plain result, or -32021 for a task-only tool', async () => {
    const { client } = await connect('bob', false);
    expect(textOf(await client.callTool({ name: 'compute', arguments: { ms: 1 } }))).toBe('computed in 1 ms');
    const refusal = await client.callTool({ name: 'book', arguments: {} }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ProtocolError);
    expect((refusal as ProtocolError).code).toBe(-32021);
    expect((refusal as ProtocolError).data).toEqual({ requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } });
    await client.close();
  });

  it('cancels cooperatively: the work sees its signal abort and the task ends cancelled', async () => {
    const { client, tasks } = await connect('alice');
    let taskId = '';
    const waiting = tasks.callTool(client, { name: 'forever', arguments: {} }, { onTask: (task) => (taskId = task.taskId) });
    await expect.poll(() => taskId).not.toBe('');
    await tasks.cancel(client, taskId);
    await expect(waiting).rejects.toSatisfy((error) => error instanceof SdkError && error.code === 'REQUEST_CANCELLED');
    await cancelledReason;
    expect((await tasks.get(client, taskId)).status).toBe('cancelled');
    await tasks.cancel(client, taskId); // idempotent on a finished task
    await client.close();
  });

  it('resumes by task id after a restart, and refuses another requester', async () => {
    const first = await connect('alice');
    const handle = (await first.client.callTool({ name: 'compute', arguments: { ms: 100 } })) as unknown as { taskId: string };
    await first.client.close();
    const restarted = await connect('alice');
    expect(textOf(await restarted.tasks.wait(restarted.client, handle.taskId))).toBe('computed in 100 ms');
    const other = await connect('mallory');
    for (const attempt of [() => other.tasks.get(other.client, handle.taskId), () => other.tasks.cancel(other.client, handle.taskId)]) {
      const error = await attempt().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32602);
    }
    await restarted.client.close();
    await other.client.close();
  });
});
