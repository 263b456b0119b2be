/**
 * Story: pinning a protocol revision, the client side. A default client meets the pinned
 * server at 2025-06-18 (its `server/discover` probe is refused, so it falls back to
 * `initialize`); a client pinned the same way speaks 2025-06-18 from the start, and the
 * revision's generated validators check messages by hand.
 *
 * Run it: `npx tsx examples/pinned-revision/client.ts [stdio|http|memory]`.
 */
import assert from 'node:assert/strict';
// #region client
import { Client, createLinkedPair } from '../../runtime/index.js';
import { revisionModule, validateCallToolRequest, type ProtocolTypes } from '../../generated/2025-06-18/index.js';
import { createLowLevelServer } from './server.js'; // a low-level Server pinned the same way
// #endregion client
import { isMain, runStoryFromArgs, type Connect, type Story } from '../shared/harness.js';
import { createServer } from './server.js';

export async function run(connect: Connect): Promise<void> {
  const client = new Client({ name: 'any-client', version: '1.0.0' });
  await connect(client);
  assert.equal(client.protocolVersion, '2025-06-18');
  assert.equal(client.era, 'stateful');
  const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
  assert.deepEqual(echoed.content, [{ type: 'text', text: 'hi' }]);

  // #region client
  // The pinned Server and a pinned, typed Client, over an in-memory pair.
  const [transport, serverEnd] = createLinkedPair();
  const server = createLowLevelServer();
  await server.connect(serverEnd);

  const pinned = new Client<ProtocolTypes>({ name: 'pinned-client', version: '1.0.0' }, { revisions: [revisionModule] });
  await pinned.connect(transport); // any transport works the same way
  const result = await pinned.request('tools/call', { name: 'echo', arguments: { text: 'hello' } });

  // Each revision's validators are plain functions (compiled ahead of time, no eval).
  const message = { method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' } } };
  if (!validateCallToolRequest(message)) throw new Error(JSON.stringify(validateCallToolRequest.errors));
  // #endregion client
  assert.equal(pinned.protocolVersion, '2025-06-18');
  assert.deepEqual(result.content, [{ type: 'text', text: 'hello' }]);
  assert.equal(validateCallToolRequest({ method: 'tools/call', params: {} }), false);
  assert.ok((validateCallToolRequest.errors?.length ?? 0) > 0);
  await pinned.close();
  await server.close();
}

export const story: Story = { name: 'pinned-revision', serverModule: new URL('./server.ts', import.meta.url).href, createServer, run };

if (isMain(import.meta.url)) await runStoryFromArgs(story);
