// AppHost (the host's bridge) and AppClient (the View's side) over a MessageChannel, with an
// McpServer behind the host's Client: the handshake and host context, tool input and results,
// the View's tool calls relayed only for tools visible to apps, and bad input from a View
// answered with JSON-RPC errors.
import type { MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { AppClient, AppHost, MAX_QUEUED_NOTIFICATIONS, PostMessageTransport, type MessageEndpoint } from '../../../../runtime/features/apps/index.js';
import { fixture, nextMessage, type Fixture } from './fixture.js';

const endpoint = (port: MessagePort) => port as unknown as MessageEndpoint;
let current: Fixture | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function connected(options: Partial<ConstructorParameters<typeof AppHost>[0]> = {}, appOptions: ConstructorParameters<typeof AppClient>[1] = {}) {
  const f = (current = await fixture());
  const host = new AppHost({ client: f.client, hostInfo: { name: 'test-host', version: '1.0.0' }, hostContext: { theme: 'dark', displayMode: 'inline' }, ...options });
  await host.connect(new PostMessageTransport(endpoint(f.hostPort)));
  const app = new AppClient({ name: 'greeter-view', version: '1.0.0' }, appOptions);
  return { f, host, app };
}

describe('AppHost with AppClient', () => {
  it('completes the handshake: the View gets host info, capabilities and context; the host gets the View', async () => {
    const { host, app } = await connected({ openLink: () => {} });
    const result = await app.connect(new PostMessageTransport(endpoint(current!.appPort)));
    expect(result).toMatchObject({ protocolVersion: '2026-01-26', hostInfo: { name: 'test-host' }, hostContext: { theme: 'dark' } });
    expect(app.hostCapabilities).toEqual({ serverTools: {}, serverResources: {}, openLinks: {} });
    expect((await host.initialized).appInfo).toEqual({ name: 'greeter-view', version: '1.0.0' });
  });

  it('holds tool input and result until the View is initialized, then delivers them in order', async () => {
    const seen: string[] = [];
    const { host, app } = await connected({}, {
      onToolInput: (args) => seen.push(`input ${JSON.stringify(args)}`),
      onToolResult: (result) => seen.push(`result ${JSON.stringify(result.content)}`),
    });
    const input = host.sendToolInput({ name: 'Ada' });
    const output = host.sendToolResult({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    await app.connect(new PostMessageTransport(endpoint(current!.appPort)));
    await Promise.all([input, output]);
    await app.callTool('shout', { text: 'sync' }); // a round trip: the notifications arrived before its answer
    expect(seen).toEqual(['input {"name":"Ada"}', 'result [{"type":"text","text":"Hello, Ada!"}]']);
  });

  it('refuses notifications beyond its bound while the View is not initialized', async () => {
    const { host } = await connected();
    const waiting = Array.from({ length: MAX_QUEUED_NOTIFICATIONS }, (_, i) => host.sendToolInputPartial({ i }));
    await expect(host.sendToolInput({})).rejects.toMatchObject({ code: 'SEND_FAILED' });
    await host.close();
    await expect(host.initialized).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    const outcomes = await Promise.allSettled(waiting);
    expect(outcomes.every((outcome) => outcome.status === 'rejected' && (outcome.reason as { code?: string }).code === 'CONNECTION_CLOSED')).toBe(true);
  });

  it('relays the View\'s tools/call to the server for app-visible tools and refuses the others', async () => {
    const { f, app } = await connected();
    await app.connect(new PostMessageTransport(endpoint(f.appPort)));
    expect((await app.callTool('greet', { name: 'Ada' })).structuredContent).toEqual({ greeting: 'Hello, Ada!' });
    expect((await app.callTool('shout', { text: 'hi' })).content).toEqual([{ type: 'text', text: 'HI' }]);
    expect((await app.callTool('plain')).content).toEqual([{ type: 'text', text: 'plain' }]);
    await expect(app.callTool('erase')).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/erase.*not callable by apps/) });
    await expect(app.callTool('nope')).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/no tool "nope"/) });
    expect(f.calls).toEqual([{ name: 'greet', args: { name: 'Ada' } }, { name: 'shout', args: { text: 'hi' } }]);
    const read = await app.readResource('ui://greeter/form');
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app', _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] } } } });
  });

  it('cancels the relayed tools/call on the server when the View cancels its call', async () => {
    const { f, app } = await connected();
    await app.connect(new PostMessageTransport(endpoint(f.appPort)));
    const abort = new AbortController();
    const call = app.callTool('hang', {}, { signal: abort.signal });
    await f.hangs;
    abort.abort('the user closed the form');
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    await f.hangAborted;
  });

  it('fetches the tool list again on a miss at most once per toolListTtlMs', async () => {
    let listings = 0;
    const f = (current = await fixture());
    const host = new AppHost({
      client: f.client,
      hostInfo: { name: 'h', version: '1' },
      toolListTtlMs: 60_000,
      listTools: async () => {
        listings++;
        return f.client.listAll('tools/list');
      },
    });
    await host.connect(new PostMessageTransport(endpoint(f.hostPort)));
    const app = new AppClient({ name: 'v', version: '1' });
    await app.connect(new PostMessageTransport(endpoint(f.appPort)));
    await app.callTool('plain');
    for (let i = 0; i < 5; i++) await expect(app.callTool(`missing-${i}`)).rejects.toMatchObject({ code: -32602 });
    await app.callTool('greet', { name: 'x' });
    expect(listings).toBe(1);
  });

  it('passes size changes, links and display mode requests to the host, and tears the View down', async () => {
    const sizes: unknown[] = [];
    const links: string[] = [];
    let tornDown = false;
    const { host, app } = await connected(
      { sizeChanged: (size) => sizes.push(size), openLink: (url) => void links.push(url), requestDisplayMode: (mode) => (mode === 'pip' ? 'inline' : mode) },
      { onTeardown: () => void (tornDown = true) },
    );
    await app.connect(new PostMessageTransport(endpoint(current!.appPort)));
    await app.reportSize({ width: 300, height: 120 });
    await app.openLink('https://example.com/docs');
    expect(links).toEqual(['https://example.com/docs']);
    expect(sizes).toEqual([{ width: 300, height: 120 }]);
    await host.updateHostContext({ theme: 'light' });
    await app.callTool('plain');
    expect(app.hostContext).toMatchObject({ theme: 'light', displayMode: 'inline' });
    await host.teardown();
    expect(tornDown).toBe(true);
  });

  it('answers ui/* requests the host does not offer with -32601', async () => {
    const { app } = await connected();
    await app.connect(new PostMessageTransport(endpoint(current!.appPort)));
    await expect(app.openLink('https://example.com')).rejects.toMatchObject({ code: -32601 });
    await expect(app.sendMessage([{ type: 'text', text: 'hi' }])).rejects.toMatchObject({ code: -32601 });
  });
});

describe('AppHost on bad input from a View', () => {
  async function raw() {
    const errors: Error[] = [];
    const { f } = await connected({ onerror: (error) => errors.push(error) });
    const send = async (message: unknown) => {
      const reply = nextMessage(f.appPort);
      f.appPort.postMessage(message);
      return reply;
    };
    return { f, send, errors };
  }

  it('answers invalid ui/initialize params with -32602 naming the field', async () => {
    const { send } = await raw();
    const reply = await send({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { appInfo: { name: 'x' }, appCapabilities: {}, protocolVersion: '2026-01-26' } });
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: expect.stringContaining('/appInfo') } });
  });

  it('answers an unknown method with -32601, a malformed message with -32600 and a cycle-free non-JSON value with -32700', async () => {
    const { send } = await raw();
    expect(await send({ jsonrpc: '2.0', id: 2, method: 'ui/no-such-thing', params: {} })).toMatchObject({ id: 2, error: { code: -32601 } });
    expect(await send({ jsonrpc: '1.0', id: 3, method: 'ping' })).toMatchObject({ error: { code: -32600 } });
    expect(await send({ jsonrpc: '2.0', id: 4, method: 'ping', params: { n: 10n } })).toMatchObject({ id: null, error: { code: -32700 } });
    // The connection still serves.
    expect(await send({ jsonrpc: '2.0', id: 5, method: 'ping' })).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
  });

  it('answers tools/call params the core schema refuses with -32602 before asking the server', async () => {
    const { f, send } = await raw();
    const reply = await send({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 42 } });
    expect(reply).toMatchObject({ id: 6, error: { code: -32602, message: expect.stringContaining('/name') } });
    expect(f.calls).toEqual([]);
  });

  it('refuses an oversized message with the request\'s own id', async () => {
    const f = (current = await fixture());
    const host = new AppHost({ client: f.client, hostInfo: { name: 'h', version: '1' } });
    await host.connect(new PostMessageTransport(endpoint(f.hostPort), { maxMessageChars: 200 }));
    const reply = nextMessage(f.appPort);
    f.appPort.postMessage({ jsonrpc: '2.0', id: 7, method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: 'x'.repeat(500) }] } });
    expect(await reply).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid Request: The message exceeds 200 characters of JSON' } });
  });

  it('drops an invalid notification and reports it, answering nothing', async () => {
    const { send, errors } = await raw();
    const reply = send({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 'wide' } });
    current!.appPort.postMessage({ jsonrpc: '2.0', id: 8, method: 'ping' });
    expect(await reply).toEqual({ jsonrpc: '2.0', id: 8, result: {} });
    expect(errors.map((error) => error.message).join('\n')).toMatch(/size-changed/);
  });

  it('drops a View\'s notifications/message (a server-to-client notification on this connection) and reports it', async () => {
    const { send, errors } = await raw();
    const reply = send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hello' } });
    current!.appPort.postMessage({ jsonrpc: '2.0', id: 9, method: 'ping' });
    expect(await reply).toEqual({ jsonrpc: '2.0', id: 9, result: {} });
    expect(errors.map((error) => error.message).join('\n')).toMatch(/notifications\/message/);
  });
});
