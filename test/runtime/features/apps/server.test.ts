// registerApp / registerAppTool / registerAppResource through a real Client: what tools/list,
// resources/list and resources/read show, and the metadata and URIs they refuse.
import { describe, expect, it } from 'vitest';
import { Client, McpServer } from '../../../../runtime/index.js';
import { createLinkedPair } from '../../../../runtime/core/in-memory.js';
import { registerApp, registerAppResource, registerAppTool } from '../../../../runtime/features/apps/index.js';
import { fixture } from './fixture.js';

describe('app tools and resources on McpServer', () => {
  it('lists the tool with _meta.ui (and the flat legacy key) and the resource with the app MIME type and its _meta.ui', async () => {
    const f = await fixture();
    const tools = await f.client.listAll('tools/list');
    expect(tools.find((tool) => tool.name === 'greet')?._meta).toEqual({ ui: { resourceUri: 'ui://greeter/form' }, 'ui/resourceUri': 'ui://greeter/form' });
    expect(tools.find((tool) => tool.name === 'shout')?._meta?.ui).toEqual({ resourceUri: 'ui://greeter/form', visibility: ['app'] });
    const resources = await f.client.listAll('resources/list');
    expect(resources).toEqual([expect.objectContaining({ uri: 'ui://greeter/form', name: 'greet', mimeType: 'text/html;profile=mcp-app', _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] } } } })]);
    const read = (await f.client.request('resources/read', { uri: 'ui://greeter/form' })) as unknown as { contents: Record<string, unknown>[] };
    expect(read.contents).toEqual([{ uri: 'ui://greeter/form', mimeType: 'text/html;profile=mcp-app', text: expect.stringContaining('<form>'), _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] } } } }]);
    await f.close();
  });

  it('reads HTML from a function on each read', async () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    let version = 1;
    const handle = registerAppResource(mcp, 'view', 'ui://s/view', { html: () => `<!doctype html><p>v${version++}</p>` });
    expect(handle.definition).toMatchObject({ uri: 'ui://s/view', mimeType: 'text/html;profile=mcp-app' });
    const [clientSide, serverSide] = createLinkedPair();
    await mcp.connect(serverSide);
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(clientSide);
    const text = async () => ((await client.request('resources/read', { uri: 'ui://s/view' })) as { contents: { text: string }[] }).contents[0]!.text;
    expect([await text(), await text()]).toEqual(['<!doctype html><p>v1</p>', '<!doctype html><p>v2</p>']);
    await client.close();
  });

  it('refuses URIs outside ui:// and metadata the extension schema refuses, naming the field', () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    expect(() => registerAppResource(mcp, 'v', 'https://example.com/view', { html: '' })).toThrow(/must start with ui:\/\//);
    expect(() => registerAppResource(mcp, 'v', 'ui://s/v', { html: '', csp: { connectDomains: 'https://x' as unknown as string[] } })).toThrow(/_meta\.ui.*\/csp\/connectDomains must be array|\/csp\/connectDomains must be array/);
    expect(() => registerAppTool(mcp, 't', { resourceUri: 'ui://s/v', visibility: ['agent' as 'model'] }, () => ({ content: [] }))).toThrow(/visibility/);
    expect(() => registerAppTool(mcp, 't', { resourceUri: 'file:///v' }, () => ({ content: [] }))).toThrow(/ui:\/\//);
  });

  it('leaves no resource behind when the tool of registerApp cannot be registered', () => {
    const mcp = new McpServer({ name: 's', version: '1' });
    mcp.registerTool('taken', {}, () => ({ content: [] }));
    expect(() => registerApp(mcp, 'taken', { resourceUri: 'ui://s/taken', resource: { html: '' } }, () => ({ content: [] }))).toThrow();
    // The URI is free again: registering it succeeds.
    expect(() => registerAppResource(mcp, 'again', 'ui://s/taken', { html: '' })).not.toThrow();
  });
});
