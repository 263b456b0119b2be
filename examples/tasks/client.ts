/**
 * Story: a client that takes the server's sampling requests as tasks (2025-11-25). It declares
 * `tasks.requests.sampling.createMessage` and passes a TasksClient: a task-augmented request is
 * answered with a task handle at once, the sampling handler runs in the background, and the
 * server follows the task with `tasks/get` and `tasks/result`, served by the TasksClient.
 *
 * Run it: `npx tsx examples/tasks/client.ts [stdio|http|memory]`.
 */
import assert from 'node:assert/strict';
// #region client
import { Client } from '../../runtime/index.js';
import { TasksClient } from '../../runtime/features/tasks/index.js';
// #endregion client
import { isMain, runStoryFromArgs, type Connect, type Story } from '../shared/harness.js';
import { createServer } from './server.js';

/** A 2025-11-25 client that takes sampling requests as tasks. */
function poetClient(): Client {
  // #region client
  const client = new Client({ name: 'poetry-reader', version: '1.0.0' }, {
    protocolVersion: '2025-11-25',
    capabilities: { sampling: {}, tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} } } } },
    extensions: [new TasksClient()],
  });
  // The same handler either way; as a task, its signal aborts if the server cancels the task.
  client.setRequestHandler('sampling/createMessage', async () => ({
    role: 'assistant',
    model: 'example-model',
    content: { type: 'text', text: 'Leaves drift on the pond' },
  }));
  // #endregion client
  return client;
}

export async function run(connect: Connect): Promise<void> {
  const client = poetClient();
  // Without `tasks` in its capabilities, the server asks with a plain request.
  const plain = new Client({ name: 'plain-reader', version: '1.0.0' }, { protocolVersion: '2025-11-25', capabilities: { sampling: {} } });
  plain.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', model: 'example-model', content: { type: 'text', text: 'Leaves drift on the pond' } }));
  await connect(client);
  await connect(plain);
  // #region client
  // … connected to the poet server over any transport …
  const result = await client.callTool({ name: 'write-haiku', arguments: {} });
  // 'Leaves drift on the pond (asked as a task)'
  // #endregion client
  assert.equal(client.protocolVersion, '2025-11-25');
  assert.deepEqual(result.content, [{ type: 'text', text: 'Leaves drift on the pond (asked as a task)' }]);
  assert.deepEqual((await plain.callTool({ name: 'write-haiku', arguments: {} })).content, [{ type: 'text', text: 'Leaves drift on the pond (asked plainly)' }]);
}

export const story: Story = { name: 'tasks', serverModule: new URL('./server.ts', import.meta.url).href, createServer, run };

if (isMain(import.meta.url)) await runStoryFromArgs(story);
