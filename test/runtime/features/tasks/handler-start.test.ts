// Tools registered with `taskStart: 'handler'`: the handler asks the user in the request, then
// starts its task with TasksExtension.startTask. Over Streamable HTTP in the stateless era
// (round 1 an InputRequiredResult without a task, round 2 the task handle, the task's result
// carrying the answer), for clients without the extension (-32021 before the handler runs, or
// inline for an optional tool), and on 2025-11-25 sessions, in memory with mcpgen's client and
// over HTTP with the official v1 client and ext-tasks' session on the official v2 client (the
// question a request of its own, then CreateTaskResult).
import { Client as V2Client, StreamableHTTPClientTransport as V2StreamableTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1StreamableTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createLinkedPair, McpServer, ProtocolError, StreamableHttpClientTransport } from '../../../../runtime/index.js';
import { TasksClient, TasksExtension } from '../../../../runtime/features/tasks/index.js';
import { createMcpNodeServer, type McpNodeServer } from '../../../../runtime/node.js';

const nameSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const;

/** Handlers that ran, by tool: a refused call must not reach its handler. */
const ran: string[] = [];
/** Whether each handler's context after startTask was another one than the request's. */
const movedToTask: boolean[] = [];

function serve(tasks: TasksExtension): McpServer {
  const mcp = new McpServer({ name: 'handler-start', version: '1.0.0' }, { extensions: [tasks] });
  mcp.registerTool('greet', { execution: { taskSupport: 'required' }, taskStart: 'handler' }, async (_args, context) => {
    ran.push('greet');
    const answer = await context.elicitForm('What is your name?', nameSchema, { inputKey: 'user_name' });
    const name = answer.action === 'accept' ? answer.content.name : 'stranger';
    const task = await tasks.startTask(context);
    movedToTask.push(task !== context);
    await new Promise((resolve) => setTimeout(resolve, 10));
    return { content: [{ type: 'text', text: `Hello, ${name}!` }] };
  });
  mcp.registerTool('quick', { execution: { taskSupport: 'optional' }, taskStart: 'handler' }, async (_args, context) => {
    ran.push('quick');
    const task = await tasks.startTask(context);
    movedToTask.push(task !== context);
    return { content: [{ type: 'text', text: 'quick' }] };
  });
  return mcp;
}

const textOf = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]!.text;

describe('taskStart: handler over Streamable HTTP (2026-07-28)', () => {
  let node: McpNodeServer;
  let url: URL;
  beforeAll(async () => {
    const mcp = serve(new TasksExtension({ pollIntervalMs: 10 }));
    node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
    url = await node.listen();
  });
  afterAll(async () => {
    await node.close();
  });

  /** A client whose transport records the `resultType` (and taskId) of every tools/call answer. */
  async function connect(withTasks: boolean): Promise<{ client: Client; tasks: TasksClient; answers: Array<Record<string, unknown>> }> {
    const answers: Array<Record<string, unknown>> = [];
    const recording = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const response = await fetch(input, init);
      const sent = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
      if (sent.method === 'tools/call') {
        const text = await response.clone().text();
        const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
        const result = (JSON.parse(json) as { result?: Record<string, unknown> }).result;
        if (result !== undefined) answers.push({ resultType: result.resultType, hasTaskId: 'taskId' in result, hasRequestState: 'requestState' in result });
      }
      return response;
    };
    const tasks = new TasksClient();
    const client = new Client({ name: 'c', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, eraCache: false, extensions: withTasks ? [tasks] : [] });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Alice' } }));
    await client.connect(new StreamableHttpClientTransport(url, { fetch: recording }));
    return { client, tasks, answers };
  }

  it('answers round 1 with InputRequiredResult, round 2 with the task handle, and the task ends with the answer', async () => {
    const { client, tasks, answers } = await connect(true);
    expect(client.protocolVersion).toBe('2026-07-28');
    movedToTask.length = 0;
    let taskId = '';
    const result = await tasks.callTool(client, { name: 'greet', arguments: {} }, { onTask: (task) => (taskId = task.taskId) });
    expect(textOf(result)).toBe('Hello, Alice!');
    expect(answers).toEqual([
      { resultType: 'input_required', hasTaskId: false, hasRequestState: expect.any(Boolean) },
      { resultType: 'task', hasTaskId: true, hasRequestState: false },
    ]);
    expect(movedToTask).toEqual([true]);
    expect((await tasks.get(client, taskId)).status).toBe('completed');
    await client.close();
  });

  it('refuses a required tool with -32021 before its handler runs when the client lacks the extension', async () => {
    const { client } = await connect(false);
    ran.length = 0;
    const refusal = await client.callTool({ name: 'greet', arguments: {} }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ProtocolError);
    expect((refusal as ProtocolError).code).toBe(-32021);
    expect(ran).toEqual([]);
    await client.close();
  });

  it('runs an optional tool inline when the client lacks the extension: startTask hands back the same context', async () => {
    const { client, answers } = await connect(false);
    movedToTask.length = 0;
    expect(textOf(await client.callTool({ name: 'quick', arguments: {} }))).toBe('quick');
    expect(answers).toEqual([{ resultType: 'complete', hasTaskId: false, hasRequestState: false }]);
    expect(movedToTask).toEqual([false]);
    await client.close();
  });

  it("serves ext-tasks' requester session on the official v2 client (2025-11-25): the question, then the task's outcome", async () => {
    const client = new V2Client({ name: 'v2', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, supportedProtocolVersions: ['2025-11-25'] });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { name: 'Dee' } };
    });
    await client.connect(new V2StreamableTransport(url));
    const session = createTaskSessionFromClient(client, { endpointId: 'handler-start' });
    try {
      const execution = await session.callTool('greet', {});
      const { outcome } = await execution.settle();
      expect(textOf(resultFromTaskOutcome(outcome))).toBe('Hello, Dee!');
      expect(asked).toEqual(['What is your name?']);
    } finally {
      await session.close();
      await client.close();
    }
  });

  it("serves the official v1 client's callToolStream (2025-11-25): taskCreated after the question, then the result", async () => {
    const client = new V1Client({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Cy' } }));
    await client.connect(new V1StreamableTransport(url));
    await client.listTools();
    const kinds: string[] = [];
    let result: unknown;
    for await (const message of client.experimental.tasks.callToolStream({ name: 'greet', arguments: {} })) {
      kinds.push(message.type);
      if (message.type === 'result') result = message.result;
      if (message.type === 'error') throw message.error;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(kinds.at(-1)).toBe('result');
    expect(textOf(result)).toBe('Hello, Cy!');
    await client.close();
  });
});

describe('taskStart: handler on a 2025-11-25 session (in memory)', () => {
  it('asks with a request of its own, then answers CreateTaskResult; TasksClient gets the final result', async () => {
    const mcp = serve(new TasksExtension({ pollIntervalMs: 10 }));
    const tasks = new TasksClient();
    const client = new Client({ name: 'c', version: '1' }, { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} } }, extensions: [tasks] });
    const asked: unknown[] = [];
    client.setRequestHandler('elicitation/create', (params) => {
      asked.push((params as { _meta?: unknown })._meta);
      return { action: 'accept', content: { name: 'Bea' } };
    });
    const [a, b] = createLinkedPair();
    await mcp.connect(a);
    await client.connect(b);
    let taskId = '';
    const result = await tasks.callTool(client, { name: 'greet', arguments: {} }, { onTask: (task) => (taskId = task.taskId) });
    expect(textOf(result)).toBe('Hello, Bea!');
    expect(taskId).not.toBe('');
    // Asked before the task existed: not tied to it.
    expect(asked).toEqual([undefined]);
    const plain = await client.callTool({ name: 'greet', arguments: {} }).catch((error: unknown) => error);
    expect((plain as ProtocolError).code).toBe(-32601);
    await client.close();
  });

});
