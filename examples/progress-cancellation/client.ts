/**
 * Story: progress and cancellation, the client side: `onprogress` receives progress updates,
 * and aborting `signal` cancels the call (the server is told, and the call rejects with
 * SdkError('REQUEST_CANCELLED')). Runs in both eras.
 *
 * Run it: `npx tsx examples/progress-cancellation/client.ts [stdio|http|memory]`.
 */
import assert from 'node:assert/strict';
import { Client, type ClientOptions } from '../../runtime/index.js';
// #region client
import { SdkError, type Progress } from '../../runtime/index.js';
// #endregion client
import { isMain, runStoryFromArgs, type Connect, type Story } from '../shared/harness.js';
import { createServer } from './server.js';

async function exercise(connect: Connect, options: ClientOptions, era: 'stateful' | 'stateless'): Promise<void> {
  const client = new Client({ name: 'jobs-client', version: '1.0.0' }, options);
  await connect(client);
  assert.equal(client.era, era);

  // #region client
  const updates: Progress[] = [];
  const counted = await client.callTool({ name: 'count', arguments: { to: 3 } }, { onprogress: (progress) => updates.push(progress) });
  // #endregion client
  assert.deepEqual(counted.content, [{ type: 'text', text: 'counted to 3' }]);
  assert.deepEqual(updates, [
    { progress: 1, total: 3, message: 'step 1 of 3' },
    { progress: 2, total: 3, message: 'step 2 of 3' },
    { progress: 3, total: 3, message: 'step 3 of 3' },
  ]);

  // #region client

  // Cancel once the server reports that it started waiting.
  const controller = new AbortController();
  const outcome = await client
    .callTool({ name: 'wait', arguments: {} }, { signal: controller.signal, onprogress: () => controller.abort() })
    .catch((error: unknown) => error);
  assert.ok(outcome instanceof SdkError && outcome.code === 'REQUEST_CANCELLED');
  // #endregion client

  // The server saw the cancellation (its handler's signal aborted); it may take a moment to arrive.
  let seen = '0';
  for (let attempt = 0; attempt < 100 && seen === '0'; attempt++) {
    const answer = await client.callTool({ name: 'cancellations', arguments: {} });
    seen = (answer.content[0] as { text: string }).text;
    if (seen === '0') await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.notEqual(seen, '0', 'the server never saw the cancellation');
}

export async function run(connect: Connect): Promise<void> {
  await exercise(connect, {}, 'stateless');
  await exercise(connect, { protocolVersion: '2025-11-25' }, 'stateful');
}

export const story: Story = { name: 'progress-cancellation', serverModule: new URL('./server.ts', import.meta.url).href, createServer, run };

if (isMain(import.meta.url)) await runStoryFromArgs(story);
