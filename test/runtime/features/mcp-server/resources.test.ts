import { describe, expect, expectTypeOf, it } from 'vitest';
import { McpServer } from '../../../../runtime/index.js';
import { connect, settle, until } from './harness.js';

const info = { name: 'resources-test', version: '1.0.0' };

function library(): McpServer {
  const mcp = new McpServer(info);
  mcp.registerResource(
    'readme',
    'file:///README.md',
    { title: 'Read me', description: 'Project readme', mimeType: 'text/markdown', size: 7, annotations: { audience: ['user'], priority: 0.5 }, _meta: { tag: 1 } },
    (uri) => ({ contents: [{ uri, mimeType: 'text/markdown', text: '# Hello' }] }),
  );
  mcp.registerResourceTemplate(
    'book',
    'books://{shelf}/{title}{?edition}',
    {
      title: 'Book',
      mimeType: 'text/plain',
      list: () => [{ uri: 'books://fiction/dune', name: 'Dune' }],
      complete: {
        shelf: (value) => ['fiction', 'fantasy', 'history'].filter((shelf) => shelf.startsWith(value)),
        title: (value, { arguments: given }) => (given.shelf === 'fiction' ? ['dune', 'emma'] : ['spqr']).filter((title) => title.startsWith(value)),
        edition: () => Array.from({ length: 150 }, (_, i) => String(i + 1)),
      },
    },
    (uri, { shelf, title, edition }) => {
      expectTypeOf(shelf).toEqualTypeOf<string>();
      expectTypeOf(edition).toEqualTypeOf<string | undefined>();
      return { contents: [{ uri, text: `${title} from ${shelf}${edition === undefined ? '' : `, edition ${edition}`}` }] };
    },
  );
  return mcp;
}

describe('resources', () => {
  it('lists fixed resources and what templates enumerate, and the templates', async () => {
    const { client } = await connect(library());
    expect(client.serverCapabilities).toMatchObject({ resources: { subscribe: true, listChanged: true }, completions: {} });
    expect((await client.listResources()).resources).toEqual([
      { uri: 'file:///README.md', name: 'readme', title: 'Read me', description: 'Project readme', mimeType: 'text/markdown', size: 7, annotations: { audience: ['user'], priority: 0.5 }, _meta: { tag: 1 } },
      { uri: 'books://fiction/dune', name: 'Dune' },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([{ uriTemplate: 'books://{shelf}/{title}{?edition}', name: 'book', title: 'Book', mimeType: 'text/plain' }]);
    await client.close();
  });

  it('reads fixed resources and template matches, and answers anything else with -32002', async () => {
    const { client } = await connect(library());
    expect(await client.readResource({ uri: 'file:///README.md' })).toEqual({ contents: [{ uri: 'file:///README.md', mimeType: 'text/markdown', text: '# Hello' }] });
    expect(await client.readResource({ uri: 'books://history/spqr%202?edition=2' })).toEqual({ contents: [{ uri: 'books://history/spqr%202?edition=2', text: 'spqr 2 from history, edition 2' }] });
    await expect(client.readResource({ uri: 'file:///missing' })).rejects.toMatchObject({ code: -32002, data: { uri: 'file:///missing' } });
    await client.close();
  });

  it('answers a hostile 60 KB URI (under the 64 KiB bound) quickly', async () => {
    const mcp = new McpServer(info);
    mcp.registerResourceTemplate('nested', 'x://{+a}/{+b}/{+c}/end', {}, (uri) => ({ contents: [{ uri, text: '' }] }));
    const { client } = await connect(mcp);
    const started = performance.now();
    await expect(client.readResource({ uri: `x://${'/'.repeat(60_000)}` })).rejects.toMatchObject({ code: -32002 });
    expect(performance.now() - started).toBeLessThan(2_000);
    await client.close();
  });

  it('refuses a template where a fixed URI is expected', () => {
    expect(() => new McpServer(info).registerResource('x', 'file:///{path}', {}, (uri) => ({ contents: [{ uri, text: '' }] }))).toThrow(/registerResourceTemplate/);
    expect(() => new McpServer(info).registerResourceTemplate('x', 'file:///{path', {}, (uri) => ({ contents: [{ uri, text: '' }] }))).toThrow(SyntaxError);
  });

  it('updates, hides and removes resources and templates through their handles', async () => {
    const mcp = new McpServer(info);
    const fixed = mcp.registerResource('a', 'mem://a', {}, (uri) => ({ contents: [{ uri, text: 'a' }] }));
    const template = mcp.registerResourceTemplate('t', 'mem://t/{id}', {}, (uri, { id }) => ({ contents: [{ uri, text: id }] }));
    const { client } = await connect(mcp);
    fixed.update({ uri: 'mem://b', description: 'moved', read: (uri) => ({ contents: [{ uri, text: 'b' }] }) });
    expect(fixed.uri).toBe('mem://b');
    expect((await client.listResources()).resources).toEqual([{ uri: 'mem://b', name: 'a', description: 'moved' }]);
    expect(await client.readResource({ uri: 'mem://b' })).toEqual({ contents: [{ uri: 'mem://b', text: 'b' }] });
    await expect(client.readResource({ uri: 'mem://a' })).rejects.toMatchObject({ code: -32002 });
    template.update({ description: 'by id' });
    expect((await client.listResourceTemplates()).resourceTemplates[0]).toEqual({ uriTemplate: 'mem://t/{id}', name: 't', description: 'by id' });
    template.disable();
    await expect(client.readResource({ uri: 'mem://t/1' })).rejects.toMatchObject({ code: -32002 });
    template.enable();
    expect(await client.readResource({ uri: 'mem://t/1' })).toEqual({ contents: [{ uri: 'mem://t/1', text: '1' }] });
    fixed.remove();
    template.remove();
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    await client.close();
  });
});

describe('subscriptions', () => {
  it('notify subscribed sessions only, until they unsubscribe', async () => {
    const mcp = library();
    const subscriber = await connect(mcp);
    const bystander = await connect(mcp);
    await subscriber.client.subscribe({ uri: 'file:///README.md' });
    await subscriber.client.subscribe({ uri: 'books://fiction/dune' });
    await mcp.notifyResourceUpdated('file:///README.md');
    await mcp.notifyResourceUpdated('books://fiction/dune');
    await mcp.notifyResourceUpdated('file:///other');
    await until(() => subscriber.notifications.length === 2);
    await settle();
    expect(subscriber.notifications).toEqual([
      { method: 'notifications/resources/updated', params: { uri: 'file:///README.md' } },
      { method: 'notifications/resources/updated', params: { uri: 'books://fiction/dune' } },
    ]);
    expect(bystander.notifications).toEqual([]);
    await subscriber.client.unsubscribe({ uri: 'file:///README.md' });
    await mcp.notifyResourceUpdated('file:///README.md');
    await settle();
    expect(subscriber.notifications).toHaveLength(2);
    await mcp.close();
  });

  it('notify through a resource handle, and refuse unknown URIs', async () => {
    const mcp = new McpServer(info);
    const readme = mcp.registerResource('readme', 'mem://readme', {}, (uri) => ({ contents: [{ uri, text: '' }] }));
    const { client, notifications } = await connect(mcp);
    await client.subscribe({ uri: 'mem://readme' });
    await readme.notifyUpdated();
    await until(() => notifications.length === 1);
    expect(notifications[0]).toEqual({ method: 'notifications/resources/updated', params: { uri: 'mem://readme' } });
    await expect(client.subscribe({ uri: 'mem://nothing' })).rejects.toMatchObject({ code: -32002 });
    await client.close();
  });

  it('are not offered when turned off', async () => {
    const mcp = new McpServer(info, { capabilities: { resources: { subscribe: false } } });
    mcp.registerResource('r', 'mem://r', {}, (uri) => ({ contents: [{ uri, text: '' }] }));
    const { client } = await connect(mcp);
    expect(client.serverCapabilities?.resources).toEqual({ subscribe: false, listChanged: true });
    await expect(client.subscribe({ uri: 'mem://r' })).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
    await client.close();
  });
});

describe('template completion', () => {
  it('completes variables, with earlier arguments as context, capped at 100 values', async () => {
    const { client } = await connect(library());
    const ref = { type: 'ref/resource', uri: 'books://{shelf}/{title}{?edition}' } as const;
    expect(await client.complete({ ref, argument: { name: 'shelf', value: 'f' } })).toEqual({ completion: { values: ['fiction', 'fantasy'], total: 2, hasMore: false } });
    expect(await client.complete({ ref, argument: { name: 'title', value: '' }, context: { arguments: { shelf: 'fiction' } } })).toEqual({
      completion: { values: ['dune', 'emma'], total: 2, hasMore: false },
    });
    const editions = await client.complete({ ref, argument: { name: 'edition', value: '' } });
    expect(editions.completion.values).toHaveLength(100);
    expect(editions.completion).toMatchObject({ total: 150, hasMore: true });
    expect(await client.complete({ ref, argument: { name: 'unknown', value: '' } })).toEqual({ completion: { values: [] } });
    await expect(client.complete({ ref: { type: 'ref/resource', uri: 'nope://{x}' }, argument: { name: 'x', value: '' } })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});
