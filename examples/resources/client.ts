/**
 * Story: resources and resource templates, the client side. Lists and reads resources, lists
 * templates, completes template variables, and subscribes to a resource (the subscription is
 * the stateful era's `resources/subscribe`, so that client pins 2025-11-25).
 *
 * Run it: `npx tsx examples/resources/client.ts [stdio|http|memory]`.
 */
import assert from 'node:assert/strict';
// #region client
import { Client, type Stateful, type Stateless } from '../../runtime/index.js';
// #endregion client
import { isMain, runStoryFromArgs, type Connect, type Story } from '../shared/harness.js';
import { createServer } from './server.js';

export async function run(connect: Connect): Promise<void> {
  // subscriptions/listen (below) exists only in the stateless era: this client is typed with and pinned to it.
  const client = new Client<Stateless.ProtocolTypes>({ name: 'notes-client', version: '1.0.0' }, { protocolVersion: '2026-07-28', negotiation: 'pin' });
  await connect(client);

  // #region read
  const resources = await client.listAll('resources/list');
  const templates = await client.listAll('resources/templates/list');
  const note = await client.readResource({ uri: 'notes://recipes/bread?format=upper' });
  const topics = await client.complete({ ref: { type: 'ref/resource', uri: 'notes://{topic}/{id}{?format}' }, argument: { name: 'topic', value: 'r' } });
  const ids = await client.complete({
    ref: { type: 'ref/resource', uri: 'notes://{topic}/{id}{?format}' },
    argument: { name: 'id', value: '' },
    context: { arguments: { topic: 'recipes' } },
  });
  // #endregion read

  assert.deepEqual(resources.map((resource) => resource.uri), [
    'notes://index',
    'notes://status',
    'notes://recipes/bread',
    'notes://recipes/soup',
    'notes://travel/lisbon',
  ]);
  assert.deepEqual(templates.map((template) => template.uriTemplate), ['notes://{topic}/{id}{?format}']);
  assert.deepEqual(note.contents, [{ uri: 'notes://recipes/bread?format=upper', mimeType: 'text/plain', text: 'FLOUR, WATER, SALT, YEAST.' }]);
  assert.deepEqual(topics.completion.values, ['recipes']);
  assert.deepEqual(ids.completion.values, ['bread', 'soup']);
  const index = await client.readResource({ uri: 'notes://index' });
  assert.deepEqual(index.contents[0], { uri: 'notes://index', mimeType: 'text/markdown', text: '- recipes\n- travel' });

  // The 2026-07-28 era has no sessions: a subscriptions/listen stream carries the notifications.
  assert.equal(client.era, 'stateless');
  // #region listen
  const changed = new Promise<string>((resolve) => client.setNotificationHandler('notifications/resources/updated', ({ uri }) => resolve(uri)));
  const subscription = await client.listen({ resourceSubscriptions: ['notes://status'] });
  await client.callTool({ name: 'set-status', arguments: { status: 'ready' } });
  assert.equal(await changed, 'notes://status');
  subscription.close();
  // #endregion listen
  assert.deepEqual(subscription.acknowledged.resourceSubscriptions, ['notes://status']);

  // A session client subscribes to a resource and hears about its changes.
  // #region subscribe
  const session = new Client<Stateful.ProtocolTypes>({ name: 'notes-watcher', version: '1.0.0' }, { protocolVersion: '2025-11-25' });
  // #endregion subscribe
  await connect(session);
  // #region subscribe
  const updated = new Promise<string>((resolve) => session.setNotificationHandler('notifications/resources/updated', ({ uri }) => resolve(uri)));
  await session.subscribe({ uri: 'notes://status' });
  await session.callTool({ name: 'set-status', arguments: { status: 'busy' } });
  assert.equal(await updated, 'notes://status');
  const status = await session.readResource({ uri: 'notes://status' });
  // #endregion subscribe
  assert.equal(session.era, 'stateful');
  assert.deepEqual(status.contents, [{ uri: 'notes://status', text: 'busy' }]);
}

export const story: Story = { name: 'resources', serverModule: new URL('./server.ts', import.meta.url).href, createServer, run };

if (isMain(import.meta.url)) await runStoryFromArgs(story);
