import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from '../../../../runtime/index.js';
import { connect } from './harness.js';

const info = { name: 'prompts-test', version: '1.0.0' };

function prompts(): McpServer {
  const mcp = new McpServer(info);
  mcp.registerPrompt(
    'review',
    {
      title: 'Code review',
      description: 'Reviews code',
      icons: [{ src: 'https://example.com/r.svg', mimeType: 'image/svg+xml', sizes: ['any'] }],
      argsSchema: z.object({
        language: z.string().describe('Programming language'),
        focus: z.enum(['style', 'bugs']).optional().meta({ title: 'Focus' }),
      }),
      complete: {
        language: (value) => ['go', 'rust', 'ruby', 'typescript'].filter((language) => language.startsWith(value)),
        focus: () => ({ values: ['style', 'bugs'], total: 2, hasMore: false }),
      },
    },
    ({ language, focus }) => {
      expectTypeOf(language).toEqualTypeOf<string>();
      expectTypeOf(focus).toEqualTypeOf<'style' | 'bugs' | undefined>();
      return { description: 'Review', messages: [{ role: 'user', content: { type: 'text', text: `Review my ${language} for ${focus ?? 'everything'}` } }] };
    },
  );
  mcp.registerPrompt('plain', { arguments: [{ name: 'topic', required: true }, { name: 'tone' }] }, (args) => {
    expectTypeOf(args).toEqualTypeOf<Record<string, string | undefined>>();
    return { messages: [{ role: 'assistant', content: { type: 'text', text: `${args.topic} (${args.tone ?? 'neutral'})` } }] };
  });
  mcp.registerPrompt(
    'json',
    { argsSchema: { type: 'object', properties: { n: { type: 'string', pattern: '^[0-9]+$' } }, required: ['n'] } },
    ({ n }) => ({ messages: [{ role: 'user', content: { type: 'text', text: n } }] }),
  );
  return mcp;
}

describe('prompts', () => {
  it('list their arguments from the schema', async () => {
    const { client } = await connect(prompts());
    expect(client.serverCapabilities).toMatchObject({ prompts: { listChanged: true }, completions: {} });
    expect((await client.listPrompts()).prompts).toEqual([
      {
        name: 'review',
        title: 'Code review',
        description: 'Reviews code',
        arguments: [
          { name: 'language', description: 'Programming language', required: true },
          { name: 'focus', title: 'Focus', required: false },
        ],
        icons: [{ src: 'https://example.com/r.svg', mimeType: 'image/svg+xml', sizes: ['any'] }],
      },
      { name: 'plain', arguments: [{ name: 'topic', required: true }, { name: 'tone' }] },
      { name: 'json', arguments: [{ name: 'n', required: true }] },
    ]);
    await client.close();
  });

  it('get with checked arguments; bad or missing ones are -32602 naming the field', async () => {
    const { client } = await connect(prompts());
    expect(await client.getPrompt({ name: 'review', arguments: { language: 'go' } })).toEqual({
      description: 'Review',
      messages: [{ role: 'user', content: { type: 'text', text: 'Review my go for everything' } }],
    });
    await expect(client.getPrompt({ name: 'review', arguments: { focus: 'speed' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid arguments for prompt review: arguments\/language: .*arguments\/focus: /),
    });
    await expect(client.getPrompt({ name: 'plain', arguments: { tone: 'dry' } })).rejects.toMatchObject({ code: -32602, message: 'Prompt plain needs the argument topic' });
    expect((await client.getPrompt({ name: 'plain', arguments: { topic: 'tea' } })).messages[0]?.content).toEqual({ type: 'text', text: 'tea (neutral)' });
    await expect(client.getPrompt({ name: 'json', arguments: { n: 'x' } })).rejects.toMatchObject({ message: 'Invalid arguments for prompt json: arguments/n: must match pattern "^[0-9]+$"' });
    await expect(client.getPrompt({ name: 'missing' })).rejects.toMatchObject({ code: -32602, message: 'Unknown prompt: missing' });
    await client.close();
  });

  it('complete arguments', async () => {
    const { client } = await connect(prompts());
    const ref = { type: 'ref/prompt', name: 'review' } as const;
    expect(await client.complete({ ref, argument: { name: 'language', value: 'r' } })).toEqual({ completion: { values: ['rust', 'ruby'], total: 2, hasMore: false } });
    expect(await client.complete({ ref, argument: { name: 'focus', value: '' } })).toEqual({ completion: { values: ['style', 'bugs'], total: 2, hasMore: false } });
    expect(await client.complete({ ref: { type: 'ref/prompt', name: 'plain' }, argument: { name: 'topic', value: 'x' } })).toEqual({ completion: { values: [] } });
    // Inherited members of the completer map are not completers.
    expect(await client.complete({ ref, argument: { name: 'constructor', value: '' } })).toEqual({ completion: { values: [] } });
    await expect(client.complete({ ref: { type: 'ref/prompt', name: 'missing' }, argument: { name: 'x', value: '' } })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('change through their handles', async () => {
    const mcp = new McpServer(info);
    const prompt = mcp.registerPrompt('p', { description: 'v1' }, () => ({ messages: [] }));
    const { client } = await connect(mcp);
    prompt.update({ name: 'p2', description: 'v2', callback: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'v2' } }] }) });
    expect((await client.listPrompts()).prompts).toEqual([{ name: 'p2', description: 'v2' }]);
    expect((await client.getPrompt({ name: 'p2' })).messages).toHaveLength(1);
    prompt.disable();
    await expect(client.getPrompt({ name: 'p2' })).rejects.toMatchObject({ code: -32602 });
    prompt.remove();
    expect(() => mcp.registerPrompt('p2', {}, () => ({ messages: [] }))).not.toThrow();
    await client.close();
  });

  it('type their arguments', () => {
    const mcp = new McpServer(info);
    mcp.registerPrompt('typed', { argsSchema: z.object({ n: z.string() }) }, ({ n }) => {
      // @ts-expect-error n is a string
      n.toFixed();
      return { messages: [] };
    });
    // @ts-expect-error completers are keyed by argument name
    mcp.registerPrompt('keys', { argsSchema: z.object({ n: z.string() }), complete: { m: () => [] } }, () => ({ messages: [] }));
  });
});
