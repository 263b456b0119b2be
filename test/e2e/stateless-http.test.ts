// One McpServer behind one HTTP endpoint serves both eras at once: mcpgen's Client in its
// default (auto) mode and the official v2 client pinned to 2026-07-28 speak the stateless era,
// while mcpgen's Client pinned to 2025-11-25 and the v2 client's default mode hold sessions.
// The same tool code asks for elicitation in every case: a real request on a session, an
// input request of a multi round-trip request otherwise.
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, latestStatelessRevision, McpServer, StreamableHttpClientTransport, type Stateless } from '../../runtime/index.js';
import { InMemoryEraCache } from '../../runtime/advanced.js';
import { createMcpNodeServer, type McpNodeServer } from '../../runtime/node.js';

const info = { name: 'dual-era-e2e', version: '1.0.0' };

let node: McpNodeServer;
let url: URL;
let mcp: McpServer;
/** Resolves with the abort reason of the `slow` tool's signal, once a call was cancelled. */
let slowAborted: Promise<unknown>;
let onSlowAbort: (reason: unknown) => void;
let slowStarted: () => void = () => undefined;

beforeAll(async () => {
  slowAborted = new Promise((resolve) => {
    onSlowAbort = resolve;
  });
  mcp = new McpServer(info);
  mcp.registerTool('greet', { description: 'Asks for a name, then greets', inputSchema: z.object({ greeting: z.string() }) }, async ({ greeting }, context) => {
    const answer = await context.elicitForm('Who are you?', z.object({ name: z.string() }), { inputKey: 'name' });
    return { content: [{ type: 'text', text: answer.action === 'accept' ? `${greeting}, ${answer.content.name}!` : 'declined' }] };
  });
  mcp.registerTool('slow', { description: 'Waits until cancelled' }, async (_args, context) => {
    slowStarted();
    await new Promise<void>((resolve) => {
      context.signal.addEventListener('abort', () => {
        onSlowAbort(context.signal.reason);
        resolve();
      }, { once: true });
    });
    return { content: [] };
  });
  node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
  url = await node.listen();
});

afterAll(async () => {
  await node.close();
});

function mcpgenClient(options: ConstructorParameters<typeof Client>[1] = {}): Client {
  const client = new Client({ name: 'mcpgen-client', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, eraCache: false, ...options });
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada' } }));
  return client;
}

const textOf = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]!.text;

describe('one McpServer, one endpoint, both eras', () => {
  it('mcpgen Client (auto) speaks 2026-07-28 and completes an elicitation round trip', async () => {
    const client = mcpgenClient();
    await client.connect(new StreamableHttpClientTransport(url));
    expect(client.era).toBe('stateless');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverInfo).toEqual(info);
    expect(textOf(await client.callTool({ name: 'greet', arguments: { greeting: 'Hello' } }))).toBe('Hello, Ada!');
    await client.close();
  });

  it('mcpgen Client pinned to 2025-11-25 gets a session and a real elicitation request', async () => {
    const client = mcpgenClient({ protocolVersion: '2025-11-25' });
    const transport = new StreamableHttpClientTransport(url);
    await client.connect(transport);
    expect(client.era).toBe('stateful');
    expect(transport.sessionId).toMatch(/.+/);
    expect(textOf(await client.callTool({ name: 'greet', arguments: { greeting: 'Hi' } }))).toBe('Hi, Ada!');
    await client.close();
  });

  it.each([
    ['pinned to 2026-07-28', { versionNegotiation: { mode: { pin: '2026-07-28' } } }],
    ['in its default (legacy) mode', {}],
  ] as const)('the official v2 client %s calls the same tool', async (_label, versionOptions) => {
    const client = new V2Client({ name: 'v2', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, ...versionOptions });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Grace' } }));
    await client.connect(new V2Transport(url));
    const result = await client.callTool({ name: 'greet', arguments: { greeting: 'Hey' } });
    expect(textOf(result)).toBe('Hey, Grace!');
    await client.close();
  });

  it('remembers an era only from a probe: a client that chose a stateful version does not pin the next one', async () => {
    const eraCache = new InMemoryEraCache();
    const stateful = mcpgenClient({ protocolVersion: '2025-11-25', eraCache });
    await stateful.connect(new StreamableHttpClientTransport(url));
    await stateful.close();
    const auto = mcpgenClient({ eraCache });
    await auto.connect(new StreamableHttpClientTransport(url));
    expect(auto.era).toBe('stateless');
    await auto.close();
    expect(await eraCache.get(url.href)).toMatchObject({ era: 'stateless' });
  });

  it('delivers a tool list change to a subscriptions/listen stream, tagged and acknowledged', async () => {
    // subscriptions/listen is a stateless-era method: the client is typed with and pinned to that era.
    const client = new Client<Stateless.ProtocolTypes>({ name: 'mcpgen-client', version: '1.0.0' }, { protocolVersion: latestStatelessRevision, negotiation: 'pin', eraCache: false });
    await client.connect(new StreamableHttpClientTransport(url));
    const changed = new Promise<unknown>((resolve) => client.setNotificationHandler('notifications/tools/list_changed', (params) => resolve(params)));
    const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true });
    // The server has no prompts, so it agrees to tool changes only.
    expect(subscription.acknowledged).toEqual({ toolsListChanged: true });
    const added = mcp.registerTool('added_later', { description: 'Registered while a client listens' }, () => ({ content: [] }));
    const params = (await changed) as { _meta: Record<string, unknown> };
    expect(params._meta['io.modelcontextprotocol/subscriptionId']).toBeDefined();
    added.remove();
    subscription.close();
    await subscription.ended;
    await client.close();
  });

  it('aborts the handler when the client closes the response stream', async () => {
    const client = mcpgenClient();
    await client.connect(new StreamableHttpClientTransport(url));
    const started = new Promise<void>((resolve) => {
      slowStarted = resolve;
    });
    const abort = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: {} }, { signal: abort.signal }).catch((error: unknown) => error);
    await started;
    abort.abort('user gave up');
    expect(await call).toMatchObject({ code: 'REQUEST_CANCELLED' });
    await expect(slowAborted).resolves.toBeDefined();
    await client.close();
  });
});
