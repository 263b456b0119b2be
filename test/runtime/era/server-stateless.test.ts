import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLinkedPair, McpServer, Server, type InMemoryTransport } from '../../../runtime/index.js';

const info = { name: 'stateless-test', version: '1.0.0' };
const V = '2026-07-28';

/** `_meta` of a stateless request. */
function meta(capabilities: Record<string, unknown> = { elicitation: {}, sampling: {}, roots: {} }, extra: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': V,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
    ...extra,
  };
}

/** A raw JSON-RPC peer: sends what it is told and collects everything the server sends. */
async function rawPeer(connect: (transport: InMemoryTransport) => Promise<unknown>) {
  const [a, b] = createLinkedPair();
  await connect(b);
  const received: Record<string, unknown>[] = [];
  const waiters = new Map<unknown, (message: Record<string, unknown>) => void>();
  a.onmessage = (message) => {
    const value = message as Record<string, unknown>;
    received.push(value);
    if ('id' in value && !('method' in value)) waiters.get(value.id)?.(value);
  };
  await a.start();
  let next = 1;
  return {
    received,
    async request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
      const id = next++;
      const reply = new Promise<Record<string, unknown>>((resolve) => waiters.set(id, resolve));
      await a.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
      return reply;
    },
    notifications: () => received.filter((message) => 'method' in message && !('id' in message)),
  };
}

function greeter(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const mcp = new McpServer(info, options);
  mcp.registerTool('greet', { description: 'asks for a name', inputSchema: z.object({ polite: z.boolean().optional() }) }, async ({ polite }, context) => {
    const answer = await context.elicitForm('What is your name?', z.object({ name: z.string() }), { inputKey: 'user_name' });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'no name' }] };
    await context.log('info', `greeting ${answer.content.name}`);
    return { content: [{ type: 'text', text: `${polite === true ? 'Good day' : 'Hello'}, ${answer.content.name}!` }] };
  });
  mcp.registerTool('two_steps', { description: 'asks twice' }, async (_args, context) => {
    const first = await context.elicitForm('Step 1', z.object({ name: z.string() }));
    const second = await context.elicitForm('Step 2', z.object({ color: z.string() }));
    if (first.action !== 'accept' || second.action !== 'accept') return { content: [{ type: 'text', text: 'incomplete' }] };
    return { content: [{ type: 'text', text: `${first.content.name} likes ${second.content.color}` }] };
  });
  mcp.registerTool('sample_and_roots', { description: 'asks two things at once' }, async (_args, context) => {
    const [sample, roots] = await Promise.all([
      context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }], maxTokens: 10 }),
      context.listRoots(),
    ]);
    const content = sample.content;
    const text = !Array.isArray(content) && content.type === 'text' ? content.text : '?';
    return { content: [{ type: 'text', text: `${text} / ${roots.map((root) => root.uri).join(',')}` }] };
  });
  return mcp;
}

describe('stateless era over one connection', () => {
  it('answers server/discover with versions, capabilities and serverInfo', async () => {
    const mcp = greeter();
    const peer = await rawPeer((transport) => mcp.connect(transport));
    const reply = await peer.request('server/discover', { _meta: meta() });
    const result = reply.result as Record<string, any>;
    expect(result.resultType).toBe('complete');
    expect(result.supportedVersions).toEqual([V]);
    expect(result.capabilities.tools).toBeDefined();
    expect(result._meta['io.modelcontextprotocol/serverInfo']).toEqual(info);
    expect(result.ttlMs).toBe(0);
    expect(result.cacheScope).toBe('private');
  });

  it('refuses an unsupported version with -32022 listing the supported ones', async () => {
    const peer = await rawPeer((transport) => greeter().connect(transport));
    const reply = await peer.request('tools/list', { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } });
    const error = reply.error as Record<string, any>;
    expect(error.code).toBe(-32022);
    expect(error.data.requested).toBe('1900-01-01');
    expect(error.data.supported).toContain(V);
    expect(error.data.supported).toEqual([V]);
  });

  it('names the missing _meta field with -32602', async () => {
    const peer = await rawPeer((transport) => greeter().connect(transport));
    await peer.request('server/discover', { _meta: meta() });
    const reply = await peer.request('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': V } });
    const error = reply.error as Record<string, any>;
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('clientCapabilities');
  });

  it('answers removed methods as unknown', async () => {
    const peer = await rawPeer((transport) => greeter().connect(transport));
    for (const method of ['ping', 'logging/setLevel', 'resources/subscribe']) {
      const reply = await peer.request(method, { _meta: meta(), level: 'info', uri: 'x://y' });
      expect((reply.error as Record<string, any>).code, method).toBe(-32601);
    }
  });

  it('lists tools in name order with resultType and cache hints', async () => {
    const peer = await rawPeer((transport) => greeter({ cache: { tools: { ttlMs: 5000, cacheScope: 'public' } } }).connect(transport));
    const result = (await peer.request('tools/list', { _meta: meta() })).result as Record<string, any>;
    expect(result.tools.map((tool: { name: string }) => tool.name)).toEqual(['greet', 'sample_and_roots', 'two_steps']);
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: 5000, cacheScope: 'public' });
  });

  it('runs an elicitation as a multi round-trip request, logging only when asked', async () => {
    const peer = await rawPeer((transport) => greeter().connect(transport));
    const first = (await peer.request('tools/call', { _meta: meta(), name: 'greet', arguments: { polite: true } })).result as Record<string, any>;
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests)).toEqual(['user_name']);
    expect(first.inputRequests.user_name).toMatchObject({ method: 'elicitation/create', params: { message: 'What is your name?', mode: 'form' } });
    expect(typeof first.requestState).toBe('string');
    const second = (await peer.request('tools/call', {
      _meta: meta(undefined, { 'io.modelcontextprotocol/logLevel': 'debug' }),
      name: 'greet',
      arguments: { polite: true },
      inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } }, extra: { action: 'decline' } },
      requestState: first.requestState,
    })).result as Record<string, any>;
    expect(second.resultType).toBe('complete');
    expect(second.content[0].text).toBe('Good day, Alice!');
    const logs = peer.notifications().filter((message) => message.method === 'notifications/message');
    expect(logs).toHaveLength(1);
  });

  it('ends the round with input_required even when the handler catches the question and returns', async () => {
    const mcp = new McpServer(info);
    let runs = 0;
    mcp.registerTool('careful', { description: 'wraps its question in try/catch, as stateful-era code does' }, async (_args, context) => {
      runs += 1;
      try {
        const answer = await context.elicitForm('Your name?', z.object({ name: z.string() }), { inputKey: 'name' });
        return { content: [{ type: 'text', text: answer.action === 'accept' ? `hi ${answer.content.name}` : 'declined' }] };
      } catch {
        return { content: [{ type: 'text', text: 'could not ask' }], isError: true };
      }
    });
    mcp.registerTool('rethrows', { description: 'turns the question into an error of its own' }, async (_args, context) => {
      try {
        await context.elicitForm('Your name?', z.object({ name: z.string() }), { inputKey: 'name' });
      } catch (error) {
        throw new Error(`asking failed: ${String(error)}`);
      }
      return { content: [{ type: 'text', text: 'asked' }] };
    });
    const peer = await rawPeer((transport) => mcp.connect(transport));
    const first = (await peer.request('tools/call', { _meta: meta(), name: 'careful', arguments: {} })).result as Record<string, any>;
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests)).toEqual(['name']);
    const second = (await peer.request('tools/call', {
      _meta: meta(),
      name: 'careful',
      arguments: {},
      inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
      requestState: first.requestState,
    })).result as Record<string, any>;
    expect(second).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'hi Ada' }] });
    expect(runs).toBe(2);
    const other = (await peer.request('tools/call', { _meta: meta(), name: 'rethrows', arguments: {} })).result as Record<string, any>;
    expect(other.resultType).toBe('input_required');
  });

  it('shapes the outcome of a handler that returns or throws without a promise as it does an async one', async () => {
    const server = new Server(info, { capabilities: { tools: {} } });
    const question = { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };
    server.setRequestHandler('tools/call', (params, context) => {
      const name = params.name;
      if (name === 'plain') return { content: [{ type: 'text', text: 'sync' }] };
      if (name === 'later') return Promise.resolve({ content: [{ type: 'text', text: 'async' }] });
      if (name === 'fails') throw new Error('sync failure');
      // Asks without awaiting, then returns or throws: the unanswered question ends the round.
      void context.sendRequest('elicitation/create', question, { inputKey: 'name' }).catch(() => undefined);
      if (name === 'asks_and_throws') throw new Error('gave up');
      return { content: [{ type: 'text', text: 'computed without the answer' }] };
    });
    const peer = await rawPeer((transport) => server.connect(transport));
    const call = async (name: string) => (await peer.request('tools/call', { _meta: meta(), name, arguments: {} })) as Record<string, any>;
    const identity = { 'io.modelcontextprotocol/serverInfo': info };
    expect((await call('plain')).result).toEqual({ content: [{ type: 'text', text: 'sync' }], resultType: 'complete', _meta: identity });
    expect((await call('later')).result).toEqual({ content: [{ type: 'text', text: 'async' }], resultType: 'complete', _meta: identity });
    expect((await call('fails')).error).toMatchObject({ code: -32603, message: 'sync failure' });
    for (const name of ['asks', 'asks_and_throws']) {
      const result = (await call(name)).result;
      expect(result).toMatchObject({ resultType: 'input_required', inputRequests: { name: { method: 'elicitation/create', params: question } } });
      expect(typeof result.requestState).toBe('string');
    }
  });

  it('never logs for a request without a log level', async () => {
    const peer = await rawPeer((transport) => greeter().connect(transport));
    await peer.request('tools/call', { _meta: meta(), name: 'greet', arguments: {}, inputResponses: { user_name: { action: 'accept', content: { name: 'Bo' } } } });
    expect(peer.notifications().filter((message) => message.method === 'notifications/message')).toHaveLength(0);
  });

  it('carries answers across rounds in a state that changes every round', async () => {
    const peer = await rawPeer((transport) => greeter().connect(transport));
    const call = (extra: Record<string, unknown>) => peer.request('tools/call', { _meta: meta(), name: 'two_steps', arguments: {}, ...extra }).then((reply) => reply.result as Record<string, any>);
    const r1 = await call({});
    const [key1] = Object.keys(r1.inputRequests);
    const r2 = await call({ inputResponses: { [key1!]: { action: 'accept', content: { name: 'Alice' } } }, requestState: r1.requestState });
    expect(r2.resultType).toBe('input_required');
    expect(r2.requestState).not.toBe(r1.requestState);
    const [key2] = Object.keys(r2.inputRequests);
    expect(key2).not.toBe(key1);
    const r3 = await call({ inputResponses: { [key2!]: { action: 'accept', content: { color: 'blue' } } }, requestState: r2.requestState });
    expect(r3.content[0].text).toBe('Alice likes blue');
  });

  it('asks several questions in one round', async () => {
    const peer = await rawPeer((transport) => greeter().connect(transport));
    const r1 = (await peer.request('tools/call', { _meta: meta(), name: 'sample_and_roots', arguments: {} })).result as Record<string, any>;
    const methods = Object.values(r1.inputRequests).map((request: any) => request.method).sort();
    expect(methods).toEqual(['roots/list', 'sampling/createMessage']);
    const answers: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(r1.inputRequests as Record<string, { method: string }>)) {
      answers[key] = request.method === 'roots/list'
        ? { roots: [{ uri: 'file:///r' }] }
        : { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' };
    }
    const r2 = (await peer.request('tools/call', { _meta: meta(), name: 'sample_and_roots', arguments: {}, inputResponses: answers, requestState: r1.requestState })).result as Record<string, any>;
    expect(r2.content[0].text).toBe('Paris / file:///r');
  });

  it('rejects a tampered or misbound request state with -32602', async () => {
    const peer = await rawPeer((transport) => greeter().connect(transport));
    const r1 = (await peer.request('tools/call', { _meta: meta(), name: 'two_steps', arguments: {} })).result as Record<string, any>;
    const [key] = Object.keys(r1.inputRequests);
    const answer = { [key!]: { action: 'accept', content: { name: 'A' } } };
    const tampered = await peer.request('tools/call', { _meta: meta(), name: 'two_steps', arguments: {}, inputResponses: answer, requestState: `${r1.requestState}x` });
    expect((tampered.error as Record<string, any>).code).toBe(-32602);
    expect((tampered.error as Record<string, any>).message).toContain('requestState');
    const elsewhere = await peer.request('tools/call', { _meta: meta(), name: 'greet', arguments: {}, inputResponses: answer, requestState: r1.requestState });
    expect((elsewhere.error as Record<string, any>).code).toBe(-32602);
  });

  it('refuses an answer of the wrong shape', async () => {
    const peer = await rawPeer((transport) => greeter().connect(transport));
    const reply = await peer.request('tools/call', { _meta: meta(), name: 'greet', arguments: {}, inputResponses: { user_name: 12345 } });
    expect((reply.error as Record<string, any>).code).toBe(-32602);
  });

  it('answers a question the client cannot take with -32021', async () => {
    const peer = await rawPeer((transport) => greeter().connect(transport));
    const reply = await peer.request('tools/call', { _meta: meta({ roots: {} }), name: 'greet', arguments: {} });
    const error = reply.error as Record<string, any>;
    expect(error.code).toBe(-32021);
    expect(error.data.requiredCapabilities).toEqual({ elicitation: {} });
  });

  it('tags list changes for a subscription and acknowledges it first', async () => {
    const mcp = greeter();
    const peer = await rawPeer((transport) => mcp.connect(transport));
    void peer.request('subscriptions/listen', { _meta: meta(), notifications: { toolsListChanged: true, promptsListChanged: true } });
    await vi_waitFor(() => peer.notifications().length >= 1);
    const [ack] = peer.notifications();
    expect(ack).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true } } });
    expect((ack!.params as any).notifications.promptsListChanged).toBeUndefined();
    mcp.registerTool('late', { description: 'added later' }, () => ({ content: [] }));
    await vi_waitFor(() => peer.notifications().some((message) => message.method === 'notifications/tools/list_changed'));
    const changed = peer.notifications().find((message) => message.method === 'notifications/tools/list_changed')!;
    expect((changed.params as any)._meta['io.modelcontextprotocol/subscriptionId']).toBe(1);
  });
});

describe('pinned servers', () => {
  it('a server pinned to 2026-07-28 refuses initialize naming its versions', async () => {
    const server = new Server(info, { supportedRevisions: [V] });
    const peer = await rawPeer((transport) => server.connect(transport));
    const reply = await peer.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: info });
    const error = reply.error as Record<string, any>;
    expect(error.code).toBe(-32022);
    expect(error.message).toContain(V);
  });

  it('a server pinned to the stateful era treats a stateless request as a legacy server does', async () => {
    const server = new Server(info, { supportedRevisions: ['2025-11-25'], capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: [] }));
    const peer = await rawPeer((transport) => server.connect(transport));
    const discover = await peer.request('server/discover', { _meta: meta() });
    expect((discover.error as Record<string, any>).code).toBe(-32601);
    const list = await peer.request('tools/list', { _meta: meta() });
    expect((list.error as Record<string, any>).message).toContain('before initialize');
  });

  it('a dual-era server still negotiates initialize', async () => {
    const peer = await rawPeer((transport) => greeter().connect(transport));
    const reply = await peer.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: info });
    expect((reply.result as Record<string, any>).protocolVersion).toBe('2025-06-18');
  });
});

async function vi_waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
