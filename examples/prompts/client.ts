/**
 * Story: prompts with argument completion, the client side. Lists the prompt, completes its
 * arguments the way a UI would as the user types, gets it, and sees a missing argument refused.
 *
 * Run it: `npx tsx examples/prompts/client.ts [stdio|http|memory]`.
 */
import assert from 'node:assert/strict';
// #region client
import { Client, ProtocolError } from '../../runtime/index.js';
// #endregion client
import { isMain, runStoryFromArgs, type Connect, type Story } from '../shared/harness.js';
import { createServer } from './server.js';

export async function run(connect: Connect): Promise<void> {
  const client = new Client({ name: 'review-client', version: '1.0.0' });
  await connect(client);

  // #region client
  const [review] = await client.listAll('prompts/list');
  const languages = await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'language', value: 'ty' } });
  const frameworks = await client.complete({
    ref: { type: 'ref/prompt', name: 'review' },
    argument: { name: 'framework', value: 'h' },
    context: { arguments: { language: 'typescript' } },
  });
  const prompt = await client.getPrompt({ name: 'review', arguments: { language: 'typescript', framework: 'hono' } });
  // #endregion client

  assert.equal(review?.name, 'review');
  assert.deepEqual(review?.arguments, [
    { name: 'language', description: 'Programming language', required: true },
    { name: 'framework', description: 'Framework, if any', required: false },
  ]);
  assert.deepEqual(languages.completion.values, ['typescript']);
  assert.deepEqual(frameworks.completion.values, ['hono']);
  assert.equal(prompt.description, 'Review of typescript code');
  assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: 'Review this typescript (hono) code for bugs and style.' } }]);

  // A missing required argument is refused with -32602 naming it.
  const refused = await client.getPrompt({ name: 'review', arguments: {} }).catch((error: unknown) => error);
  assert.ok(refused instanceof ProtocolError, `expected a ProtocolError, got ${String(refused)}`);
  assert.equal(refused.code, -32602);
  assert.match(refused.message, /language/);
}

export const story: Story = { name: 'prompts', serverModule: new URL('./server.ts', import.meta.url).href, createServer, run };

if (isMain(import.meta.url)) await runStoryFromArgs(story);
