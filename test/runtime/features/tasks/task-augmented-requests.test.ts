// 2025-11-25's task-augmented sampling and elicitation, the server as requestor and the client
// as receiver, in memory and over Streamable HTTP: TasksExtension.sample/elicit from an
// McpServer tool against mcpgen's Client with TasksClient (the task created, the handler run in
// the background, tasks/get, tasks/result, tasks/list and tasks/cancel served), against the
// official v1 client with its task store and the official v2 client with ext-tasks' receiver;
// the official v1 server's createMessageStream against mcpgen's Client; and the plain request
// for a client that declared no task support.
import { Client as V2Client, StreamableHTTPClientTransport as V2StreamableTransport } from '@modelcontextprotocol/client';
import { bindTaskReceiver } from '@modelcontextprotocol/ext-tasks/receiver';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTaskStore as V1TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { InMemoryTransport as V1InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server as V1Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { Client, createLinkedPair, McpServer, ProtocolError, StreamableHttpClientTransport, type Server, type Transport } from '../../../../runtime/index.js';
import { createMcpNodeServer } from '../../../../runtime/node.js';
import { TasksClient, TasksExtension } from '../../../../runtime/features/tasks/index.js';
import type { Task } from '../../../../generated/2025-11-25/index.js';

const REVISION = '2025-11-25';
const receives = { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } };
const prompt = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'A haiku' } }], maxTokens: 50 };

/** An McpServer whose tools ask the client as tasks; `created` and `polled` record what the requestor saw. */
function server(seen: { created: Task[]; polled: string[] }): McpServer {
  const tasks = new TasksExtension();
  const mcp = new McpServer({ name: 'requestor', version: '1.0.0' }, { extensions: [tasks] });
  const options = { ttlMs: 30_000, onTask: (task: Task) => seen.created.push(task), onStatus: (task: Task) => seen.polled.push(task.status) };
  mcp.registerTool('haiku', {}, async (_args, context) => {
    const reply = await tasks.sample(context, prompt, options);
    return { content: [reply.content as { type: 'text'; text: string }] };
  });
  mcp.registerTool('confirm', {}, async (_args, context) => {
    const answer = await tasks.elicit(context, { mode: 'form', message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }, options);
    return { content: [{ type: 'text', text: `${answer.action}:${String(answer.content?.ok)}` }] };
  });
  return mcp;
}

async function connect(mcp: McpServer, declareTasks: boolean): Promise<{ client: Client; handled: Array<{ task: unknown; signal: AbortSignal }> }> {
  const handled: Array<{ task: unknown; signal: AbortSignal }> = [];
  const client = new Client({ name: 'receiver', version: '1.0.0' }, {
    protocolVersion: REVISION,
    capabilities: { sampling: {}, elicitation: { form: {} }, ...(declareTasks ? { tasks: receives } : {}) },
    extensions: [new TasksClient({ pollIntervalMs: 5 })],
  });
  client.setRequestHandler('sampling/createMessage', async (params, context) => {
    handled.push({ task: (params as { task?: unknown }).task, signal: context.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { model: 'm', role: 'assistant', content: { type: 'text', text: 'Old pond, a frog' } };
  });
  client.setRequestHandler('elicitation/create', async (params, context) => {
    handled.push({ task: (params as { task?: unknown }).task, signal: context.signal });
    // 'Hold' waits for the task to be cancelled.
    if (params.message === 'Hold') await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
    return { action: 'accept', content: { ok: true } };
  });
  const [a, b] = createLinkedPair();
  await mcp.connect(a);
  await client.connect(b);
  return { client, handled };
}

const textOf = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]!.text;

describe('task-augmented sampling and elicitation (2025-11-25)', () => {
  it('samples through a task on a client that declared it: created, polled, fetched; the handler sees no task param', async () => {
    const seen = { created: [] as Task[], polled: [] as string[] };
    const { client, handled } = await connect(server(seen), true);
    expect(textOf(await client.callTool({ name: 'haiku', arguments: {} }))).toBe('Old pond, a frog');
    expect(seen.created).toHaveLength(1);
    expect(seen.created[0]).toMatchObject({ status: 'working', ttl: 30_000, pollInterval: 5 });
    expect(seen.polled.at(-1)).toBe('completed');
    expect(handled).toHaveLength(1);
    expect(handled[0]!.task).toBeUndefined();
    expect(textOf(await client.callTool({ name: 'confirm', arguments: {} }))).toBe('accept:true');
    expect(seen.created).toHaveLength(2);
    await client.close();
  });

  it('serves tasks/get, tasks/result, tasks/list and tasks/cancel to the server, bound to that connection', async () => {
    let rawServer: Server | undefined;
    const mcp = new McpServer({ name: 'raw', version: '1.0.0' }, { extensions: [new TasksExtension()], setupServer: (server) => (rawServer = server) });
    mcp.registerTool('noop', {}, () => ({ content: [] }));
    const { client, handled } = await connect(mcp, true);
    const send = (method: string, params: Record<string, unknown>): Promise<Record<string, any>> =>
      (rawServer!.request as (method: string, params: unknown) => Promise<Record<string, any>>)(method, params);
    const created = await send('sampling/createMessage', { ...prompt, task: { ttl: 1_000 } });
    const taskId = created.task.taskId as string;
    expect((await send('tasks/get', { taskId })).status).toBe('working');
    expect((await send('tasks/list', {})).tasks.map((task: Task) => task.taskId)).toEqual([taskId]);
    const result = await send('tasks/result', { taskId });
    expect(result.content.text).toBe('Old pond, a frog');
    expect(result._meta['io.modelcontextprotocol/related-task']).toEqual({ taskId });
    await expect(send('tasks/cancel', { taskId })).rejects.toMatchObject({ code: -32602 });
    await expect(send('tasks/get', { taskId: 'nope' })).rejects.toBeInstanceOf(ProtocolError);
    // A second request is cancelled while its handler runs: the handler's signal aborts.
    const second = await send('elicitation/create', { mode: 'form', message: 'Hold', requestedSchema: { type: 'object', properties: {} }, task: {} });
    await expect.poll(() => handled.length).toBe(2);
    const cancelled = await send('tasks/cancel', { taskId: second.task.taskId });
    expect(cancelled.status).toBe('cancelled');
    expect(handled.map((call) => call.signal.aborted)).toEqual([false, true]);
    await expect(send('tasks/result', { taskId: second.task.taskId })).rejects.toMatchObject({ code: -32603 });
    await client.close();
  });

  it('samples and elicits through tasks over Streamable HTTP: the questions and polls travel with the tool call', async () => {
    const seen = { created: [] as Task[], polled: [] as string[] };
    const mcp = server(seen);
    const node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
    const url = await node.listen();
    try {
      const client = new Client({ name: 'receiver', version: '1.0.0' }, { protocolVersion: REVISION, capabilities: { sampling: {}, elicitation: { form: {} }, tasks: receives }, extensions: [new TasksClient({ pollIntervalMs: 5 })] });
      client.setRequestHandler('sampling/createMessage', () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'over http' } }));
      client.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));
      await client.connect(new StreamableHttpClientTransport(url));
      expect(client.protocolVersion).toBe(REVISION);
      expect(textOf(await client.callTool({ name: 'haiku', arguments: {} }))).toBe('over http');
      expect(textOf(await client.callTool({ name: 'confirm', arguments: {} }))).toBe('decline:undefined');
      expect(seen.created).toHaveLength(2);
      await client.close();
    } finally {
      await node.close();
    }
  });

  it("cancels the client's task when the tool call is cancelled: tasks/cancel reaches the handler's signal", async () => {
    const tasks = new TasksExtension();
    const mcp = new McpServer({ name: 'requestor', version: '1.0.0' }, { extensions: [tasks] });
    let created: (task: Task) => void = () => undefined;
    const taskCreated = new Promise<Task>((resolve) => (created = resolve));
    mcp.registerTool('confirm', {}, async (_args, context) => {
      await tasks.elicit(context, { mode: 'form', message: 'Hold', requestedSchema: { type: 'object', properties: {} } }, { onTask: created });
      return { content: [] };
    });
    const { client, handled } = await connect(mcp, true);
    const controller = new AbortController();
    const call = client.callTool({ name: 'confirm', arguments: {} }, { signal: controller.signal });
    await taskCreated;
    controller.abort(new Error('user gave up'));
    await expect(call).rejects.toThrow('user gave up');
    await expect.poll(() => handled[0]?.signal.aborted).toBe(true);
    await client.close();
  });

  it('refuses a task beyond maxRunning with -32603 and takes it again once one has ended', async () => {
    let rawServer: Server | undefined;
    const mcp = new McpServer({ name: 'raw', version: '1.0.0' }, { extensions: [new TasksExtension()], setupServer: (server) => (rawServer = server) });
    mcp.registerTool('noop', {}, () => ({ content: [] }));
    const client = new Client({ name: 'receiver', version: '1.0.0' }, { protocolVersion: REVISION, capabilities: { elicitation: { form: {} }, tasks: receives }, extensions: [new TasksClient({ maxRunning: 1 })] });
    let release: () => void = () => undefined;
    client.setRequestHandler('elicitation/create', () => new Promise((resolve) => (release = () => resolve({ action: 'cancel' }))));
    const [a, b] = createLinkedPair();
    await mcp.connect(a);
    await client.connect(b);
    const send = (method: string, params: Record<string, unknown>): Promise<Record<string, any>> =>
      (rawServer!.request as (method: string, params: unknown) => Promise<Record<string, any>>)(method, params);
    const ask = { mode: 'form', message: 'Hold', requestedSchema: { type: 'object', properties: {} }, task: {} };
    const first = await send('elicitation/create', ask);
    await expect(send('elicitation/create', ask)).rejects.toMatchObject({ code: -32603 });
    release();
    expect((await send('tasks/result', { taskId: first.task.taskId })).action).toBe('cancel');
    expect((await send('elicitation/create', ask)).task.status).toBe('working');
    await client.close();
  });

  it('sends a plain request to a client that declared no task support', async () => {
    const seen = { created: [] as Task[], polled: [] as string[] };
    const { client, handled } = await connect(server(seen), false);
    expect(textOf(await client.callTool({ name: 'haiku', arguments: {} }))).toBe('Old pond, a frog');
    expect(seen.created).toEqual([]);
    expect(handled).toHaveLength(1);
    await client.close();
  });

  it('asks the official v1 client as a task: it creates the task in its own store, mcpgen polls and fetches it', async () => {
    const seen = { created: [] as Task[], polled: [] as string[] };
    const mcp = server(seen);
    const client = new V1Client({ name: 'v1', version: '1.0.0' }, { capabilities: { sampling: {}, tasks: { requests: { sampling: { createMessage: {} } } } }, taskStore: new V1TaskStore() });
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      if (request.params.task === undefined || extra.taskStore === undefined) throw new Error('expected a task-augmented request');
      const store = extra.taskStore;
      const task = await store.createTask({ ttl: extra.taskRequestedTtl ?? null, pollInterval: 10 });
      setTimeout(() => void store.storeTaskResult(task.taskId, 'completed', { model: 'v1', role: 'assistant', content: { type: 'text', text: 'from v1' } }), 30);
      return { task };
    });
    const [clientSide, serverSide] = V1InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide as unknown as Transport);
    await client.connect(clientSide);
    const result = await client.callTool({ name: 'haiku', arguments: {} });
    expect(textOf(result)).toBe('from v1');
    expect(seen.created).toHaveLength(1);
    // Polled with tasks/get until the v1 store reported the end, then fetched.
    expect(seen.polled.at(-1)).toBe('completed');
    await client.close();
  });

  it("asks the official v2 client with ext-tasks' receiver as a task over Streamable HTTP", async () => {
    const seen = { created: [] as Task[], polled: [] as string[] };
    const mcp = server(seen);
    const node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
    const url = await node.listen();
    const client = new V2Client({ name: 'v2', version: '1.0.0' }, { capabilities: { sampling: {}, tasks: receives }, supportedProtocolVersions: [REVISION] });
    const receiver = bindTaskReceiver(client, {
      methods: { 'sampling/createMessage': true },
      pollIntervalMs: 10,
      sampling: async () => ({ model: 'v2', role: 'assistant', content: { type: 'text', text: 'from ext-tasks' } }),
    });
    try {
      await client.connect(new V2StreamableTransport(url));
      expect(client.getNegotiatedProtocolVersion()).toBe(REVISION);
      expect(textOf(await client.callTool({ name: 'haiku', arguments: {} }))).toBe('from ext-tasks');
      // ext-tasks starts the task input_required: the requestor goes straight to tasks/result.
      expect(seen.created).toMatchObject([{ status: 'input_required', pollInterval: 10 }]);
      expect(seen.polled).toEqual([]);
    } finally {
      receiver.close();
      await client.close();
      await node.close();
    }
  });

  it("answers the official v1 server's createMessageStream with a task: taskCreated, taskStatus, result", async () => {
    const server = new V1Server({ name: 'v1', version: '1.0.0' }, { capabilities: {} });
    const { client, handled } = await (async () => {
      const handledCalls: Array<{ task: unknown; signal: AbortSignal }> = [];
      const mcpgen = new Client({ name: 'receiver', version: '1.0.0' }, { capabilities: { sampling: {}, tasks: receives }, extensions: [new TasksClient({ pollIntervalMs: 5 })] });
      mcpgen.setRequestHandler('sampling/createMessage', async (params, context) => {
        handledCalls.push({ task: (params as { task?: unknown }).task, signal: context.signal });
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { model: 'mcpgen', role: 'assistant', content: { type: 'text', text: 'from mcpgen' } };
      });
      const [clientSide, serverSide] = V1InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      await mcpgen.connect(clientSide as unknown as Transport);
      return { client: mcpgen, handled: handledCalls };
    })();
    expect(client.protocolVersion).toBe(REVISION);
    const kinds: string[] = [];
    let text = '';
    for await (const message of server.experimental.tasks.createMessageStream(prompt, { task: { ttl: 10_000 } })) {
      kinds.push(message.type);
      if (message.type === 'result') text = (message.result.content as { text: string }).text;
      if (message.type === 'error') throw message.error;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(kinds).toContain('taskStatus');
    expect(kinds.at(-1)).toBe('result');
    expect(text).toBe('from mcpgen');
    expect(handled).toHaveLength(1);
    await client.close();
  });
});
