// Interop with the official MCP Apps SDK (@modelcontextprotocol/ext-apps 2.0.4) over a
// MessageChannel: its App (a View written with the official SDK) against mcpgen's AppHost, and
// mcpgen's AppClient against its AppBridge (the official host side).
import type { MessagePort } from 'node:worker_threads';
import { App } from '@modelcontextprotocol/ext-apps';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import { afterEach, describe, expect, it } from 'vitest';
import { AppClient, AppHost, PostMessageTransport, type MessageEndpoint } from '../../../../runtime/features/apps/index.js';
import { fixture, type Fixture } from './fixture.js';

/** The official SDK's Transport contract over a MessagePort. */
function sdkTransport(port: MessagePort) {
  const transport = {
    onmessage: undefined as ((message: any) => void) | undefined,
    onclose: undefined as (() => void) | undefined,
    onerror: undefined as ((error: Error) => void) | undefined,
    async start() {
      port.on('message', (data) => transport.onmessage?.(data));
    },
    async send(message: unknown) {
      port.postMessage(message);
    },
    async close() {
      port.close();
      transport.onclose?.();
    },
  };
  return transport;
}

let current: Fixture | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe('the official App (ext-apps) against mcpgen\'s AppHost', () => {
  it('initializes, receives tool input and result, calls app-visible tools and is refused the others', async () => {
    const f = (current = await fixture());
    const host = new AppHost({ client: f.client, hostInfo: { name: 'mcpgen-host', version: '1.0.0' }, hostContext: { theme: 'dark' }, openLink: () => {} });
    await host.connect(new PostMessageTransport(f.hostPort as unknown as MessageEndpoint));

    const app = new App({ name: 'official-view', version: '1.0.0' }, {}, { autoResize: false });
    const inputs: unknown[] = [];
    const results: unknown[] = [];
    app.ontoolinput = (params) => void inputs.push(params.arguments);
    app.ontoolresult = (params) => void results.push(params.content);
    await app.connect(sdkTransport(f.appPort) as never);
    expect(app.getHostVersion()).toMatchObject({ name: 'mcpgen-host' });
    expect(app.getHostContext()).toMatchObject({ theme: 'dark' });
    expect((await host.initialized).appInfo).toEqual({ name: 'official-view', version: '1.0.0' });

    await host.sendToolInput({ name: 'Ada' });
    await host.sendToolResult({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    const greeted = await app.callServerTool({ name: 'greet', arguments: { name: 'Lin' } });
    expect(greeted.content).toEqual([{ type: 'text', text: 'Hello, Lin!' }]);
    expect(inputs).toEqual([{ name: 'Ada' }]);
    expect(results).toEqual([[{ type: 'text', text: 'Hello, Ada!' }]]);
    await expect(app.callServerTool({ name: 'erase', arguments: {} })).rejects.toThrow(/not callable by apps/);
    expect(f.calls).toEqual([{ name: 'greet', args: { name: 'Lin' } }]);
    await app.openLink({ url: 'https://example.com' });
  });
});

describe('mcpgen\'s AppClient against the official AppBridge (ext-apps)', () => {
  it('initializes, gets tool input and result, and has its messages answered by the bridge', async () => {
    const f = (current = await fixture());
    const bridge = new AppBridge(null, { name: 'official-host', version: '2.0.0' }, { openLinks: {}, serverTools: {} }, { hostContext: { theme: 'light', displayMode: 'inline' } });
    const links: string[] = [];
    const sizes: unknown[] = [];
    bridge.onopenlink = async ({ url }) => {
      links.push(url);
      return {};
    };
    bridge.onsizechange = (size) => void sizes.push(size);
    bridge.oncalltool = async (params) => ({ content: [{ type: 'text', text: `bridge ran ${params.name}` }] });
    let initialized!: () => void;
    const ready = new Promise<void>((resolve) => (initialized = resolve));
    bridge.oninitialized = () => initialized();
    await bridge.connect(sdkTransport(f.hostPort) as never);

    const seen: string[] = [];
    const app = new AppClient({ name: 'mcpgen-view', version: '1.0.0' }, {
      onToolInput: (args) => seen.push(`input ${JSON.stringify(args)}`),
      onToolResult: (result) => seen.push(`result ${JSON.stringify(result.content)}`),
    });
    const result = await app.connect(new PostMessageTransport(f.appPort as unknown as MessageEndpoint));
    expect(result.hostInfo).toEqual({ name: 'official-host', version: '2.0.0' });
    expect(app.hostContext).toMatchObject({ theme: 'light' });
    await ready;
    expect(bridge.getAppVersion()).toEqual({ name: 'mcpgen-view', version: '1.0.0' });

    await bridge.sendToolInput({ arguments: { name: 'Ada' } });
    await bridge.sendToolResult({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    expect((await app.callTool('greet', { name: 'x' })).content).toEqual([{ type: 'text', text: 'bridge ran greet' }]);
    expect(seen).toEqual(['input {"name":"Ada"}', 'result [{"type":"text","text":"Hello, Ada!"}]']);
    await app.openLink('https://example.com/a');
    await app.reportSize({ width: 320, height: 200 });
    await app.callTool('greet', { name: 'y' });
    expect(links).toEqual(['https://example.com/a']);
    expect(sizes).toEqual([{ width: 320, height: 200 }]);
  });
});
