/**
 * Story: a server that asks the client's model as a task (2025-11-25). The client declared that
 * it takes `sampling/createMessage` as a task, so `tasks.sample` sends it with `params.task`:
 * the client answers at once with a task handle, and the server polls the task and fetches its
 * result, with no request held open while the user reviews the prompt. A client that declared
 * no such thing gets a plain request; the tool's code is the same.
 *
 * Run it: `npx tsx examples/tasks/server.ts` (stdio) or `… --http`.
 */
// #region server
import { McpServer } from '../../runtime/index.js';
import { TasksExtension } from '../../runtime/features/tasks/index.js';
// #endregion server
import { isMain, serveFromArgs } from '../shared/harness.js';

// #region server

export function createServer(): McpServer {
  const tasks = new TasksExtension();
  const mcp = new McpServer({ name: 'poet', version: '1.0.0' }, { extensions: [tasks] });

  mcp.registerTool('write-haiku', {}, async (_args, context) => {
    let asTask = false;
    const reply = await tasks.sample(
      context,
      { messages: [{ role: 'user', content: { type: 'text', text: 'A haiku about autumn' } }], maxTokens: 100 },
      { ttlMs: 60_000, onTask: () => (asTask = true) },
    );
    const [block] = Array.isArray(reply.content) ? reply.content : [reply.content];
    const haiku = block?.type === 'text' ? block.text : '(no text)';
    return { content: [{ type: 'text', text: `${haiku} (${asTask ? 'asked as a task' : 'asked plainly'})` }] };
  });

  return mcp;
}
// #endregion server

if (isMain(import.meta.url)) await serveFromArgs(createServer());
