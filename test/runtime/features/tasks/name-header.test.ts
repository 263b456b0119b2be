/**
 * The tasks extension's requests carry `Mcp-Name` (the task id) in the stateless era: a
 * generated fact of the extension's methods (MethodInfo.nameHeader) that the server reads when
 * it registers them, so a tasks/get without the header, or with another id, is refused with
 * -32020 before it reaches the handler. Raw fetch over node:http.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../../../runtime/index.js';
import { TasksExtension } from '../../../../runtime/features/tasks/index.js';
import { createMcpNodeServer, type McpNodeServer } from '../../../../runtime/node.js';
import { postStateless } from '../../transports/http/server-support.js';

const STATELESS_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

let node: McpNodeServer;
let url: URL;

beforeAll(async () => {
  const mcp = new McpServer({ name: 'tasks-headers', version: '1.0.0' }, { extensions: [new TasksExtension()] });
  node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
  url = await node.listen();
});

afterAll(async () => {
  await node.close();
});

const post = (method: string, params: Record<string, unknown>, name?: string) => postStateless(url, STATELESS_META, method, params, name);

describe('tasks requests in the stateless era', () => {
  it('refuses tasks/get without Mcp-Name, or naming another task, with -32020', async () => {
    const missing = await post('tasks/get', { taskId: 'task-1' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: -32020, message: 'Header mismatch: the Mcp-Name header is required for this method' });
    const wrong = await post('tasks/cancel', { taskId: 'task-1' }, 'task-2');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe('Header mismatch: the Mcp-Name header "task-2" does not match the body value "task-1"');
  });

  it('serves tasks/get whose Mcp-Name names its task (an unknown one is -32602)', async () => {
    const named = await post('tasks/get', { taskId: 'task-1' }, 'task-1');
    expect(named.body.error).toMatchObject({ code: -32602, message: 'Invalid params: unknown task "task-1"' });
  });
});
