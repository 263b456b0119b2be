/**
 * Story: sampling and elicitation from a tool, the client side. The same handlers answer the
 * server's questions in both eras: as requests of their own in a 2025-11-25 session, and as
 * input requests of a multi round-trip `tools/call` in the 2026-07-28 era (the Client retries
 * the call with the answers by itself).
 *
 * Run it: `npx tsx examples/sampling-elicitation/client.ts [stdio|http|memory]`.
 */
import assert from 'node:assert/strict';
// #region client
import { Client, type ClientOptions } from '../../runtime/index.js';
// #endregion client
import { isMain, runStoryFromArgs, type Connect, type Story } from '../shared/harness.js';
import { createServer } from './server.js';

// #region client

/** A client that can answer elicitation and sampling; `asked` records what it was asked. */
function plannerClient(options: ClientOptions = {}) {
  const asked: Array<{ method: string; id: string | number }> = [];
  const client = new Client({ name: 'trip-client', version: '1.0.0' }, { ...options, capabilities: { elicitation: { form: {} }, sampling: {} } });
  client.setRequestHandler('elicitation/create', (params, context) => {
    asked.push({ method: 'elicitation/create', id: context.requestId });
    // A real client shows params.message and a form built from params.requestedSchema.
    return { action: 'accept', content: { from: '2026-09-01' } };
  });
  client.setRequestHandler('sampling/createMessage', (params, context) => {
    asked.push({ method: 'sampling/createMessage', id: context.requestId });
    return { role: 'assistant', model: 'example-model', content: { type: 'text', text: 'Ride tram 28.' } };
  });
  return { client, asked };
}
// #endregion client

export async function run(connect: Connect): Promise<void> {
  const expected = [{ type: 'text', text: 'Lisbon from 2026-09-01, 2 nights: Ride tram 28.' }];

  // #region client
  const modern = plannerClient(); // prefers 2026-07-28, which the server speaks
  const session = plannerClient({ protocolVersion: '2025-11-25' }); // a 2025-11-25 session
  // #endregion client
  await connect(modern.client);
  await connect(session.client);
  // #region client
  // … both connected to the trip-planner server over any transport …
  const modernResult = await modern.client.callTool({ name: 'plan-trip', arguments: { city: 'Lisbon' } });
  const sessionResult = await session.client.callTool({ name: 'plan-trip', arguments: { city: 'Lisbon' } });
  // Both: 'Lisbon from 2026-09-01, 2 nights: Ride tram 28.'
  // #endregion client

  assert.equal(modern.client.era, 'stateless');
  assert.equal(modern.client.protocolVersion, '2026-07-28');
  assert.deepEqual(modernResult.content, expected);
  // Input requests are answered under the keys the handler chose (`inputKey`), one round each.
  assert.deepEqual(modern.asked, [
    { method: 'elicitation/create', id: 'dates' },
    { method: 'sampling/createMessage', id: 'idea' },
  ]);

  // In the session the server sent real requests while the call was in progress.
  assert.equal(session.client.era, 'stateful');
  assert.equal(session.client.protocolVersion, '2025-11-25');
  assert.deepEqual(sessionResult.content, expected);
  assert.deepEqual(session.asked.map((entry) => entry.method), ['elicitation/create', 'sampling/createMessage']);
  // Real requests carry the server's JSON-RPC ids, not input keys.
  assert.ok(session.asked.every((entry) => typeof entry.id === 'number'), JSON.stringify(session.asked));
}

export const story: Story = { name: 'sampling-elicitation', serverModule: new URL('./server.ts', import.meta.url).href, createServer, run };

if (isMain(import.meta.url)) await runStoryFromArgs(story);
