// The Client in the stateless era (2026-07-28) against a scripted server: era negotiation and
// its cache, the per-request _meta, multi round-trip requests and the response cache.
import { describe, expect, it } from 'vitest';
import { Client, ProtocolError, SdkError, type ClientOptions } from '../../../runtime/index.js';
import { InMemoryEraCache } from '../../../runtime/advanced.js';
// Values of the newest revisions (error codes) come from their modules; the root entry exports their types only.
import { Stateless } from '../../../generated/latest.js';
import { complete, DISCOVER, ScriptedServerTransport, type ScriptReply, type SeenRequest } from './client-fixtures.js';

const info = { name: 'stateless-client-test', version: '1.0.0' };
const CODES = Stateless.ErrorCode;

function newClient(options: ClientOptions = {}): Client {
  return new Client(info, { eraCache: false, capabilities: { elicitation: {}, roots: {}, sampling: {} }, ...options });
}

/** A script answering discover and delegating the rest. */
function server(rest: (request: SeenRequest) => ScriptReply | Promise<ScriptReply> = () => undefined): ScriptedServerTransport {
  return new ScriptedServerTransport((request) => (request.method === 'server/discover' ? { result: DISCOVER } : rest(request)));
}

function textResult(text: string): ScriptReply {
  return complete({ content: [{ type: 'text', text }] });
}

describe('negotiation', () => {
  it('speaks 2026-07-28 after server/discover and sends the _meta on every request', async () => {
    const transport = server((request) => (request.method === 'tools/call' ? { result: { content: [{ type: 'text', text: 'ok' }] } } : undefined));
    const client = newClient({ logLevel: 'info' });
    await client.connect(transport);
    expect(client.era).toBe('stateless');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverCapabilities).toEqual(DISCOVER.capabilities);
    expect(client.serverInfo).toEqual({ name: 'scripted', version: '2.0.0' });
    expect(client.instructions).toBe('Use the tools.');

    const result = await client.callTool({ name: 'echo', arguments: {} }, { onprogress: () => undefined });
    // A result without resultType is a complete result.
    expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'ok' }] });
    const [discover, call] = transport.requests;
    for (const request of [discover!, call!]) {
      expect(request.params._meta).toMatchObject({
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, roots: {}, sampling: {} },
        'io.modelcontextprotocol/clientInfo': info,
        'io.modelcontextprotocol/logLevel': 'info',
      });
    }
    expect(call!.params._meta?.progressToken).toBe(call!.id);
    expect(transport.requests.map((request) => request.method)).toEqual(['server/discover', 'tools/call']);
    // Methods the era removed are not callable on the default Client's type, and a call anyway
    // is refused locally, naming the method, the negotiated revision and how to pin.
    // @ts-expect-error ping exists only in the stateful era
    const failure = await (client.ping() as Promise<unknown>).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect(failure).toMatchObject({ code: 'UNKNOWN_METHOD', data: { method: 'ping', protocolVersion: '2026-07-28', era: 'stateless' } });
    expect((failure as SdkError).message).toContain('ping does not exist in 2026-07-28 (stateless era)');
    expect((failure as SdkError).message).toContain("new Client<ProtocolTypes>(info, { protocolVersion: '2025-11-25' }) with ProtocolTypes imported from 'mcpgen/2025-11-25'");
    expect(transport.requests.map((request) => request.method)).toEqual(['server/discover', 'tools/call']);
    await client.close();
  });

  it('falls back to initialize when server/discover is unknown, and remembers it', async () => {
    const cache = new InMemoryEraCache();
    const legacy = (): ScriptedServerTransport => {
      const transport = new ScriptedServerTransport((request) => {
        if (request.method === 'initialize') {
          return complete({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'old', version: '1' } });
        }
        if (request.method === 'tools/list') return { result: { tools: [] } };
        return { error: { code: CODES.METHOD_NOT_FOUND, message: `Method not found: ${request.method}` } };
      });
      transport.serverKey = 'legacy-server';
      return transport;
    };
    const first = legacy();
    const client = newClient({ eraCache: cache });
    await client.connect(first);
    expect(client.era).toBe('stateful');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(first.requests.map((request) => request.method)).toEqual(['server/discover', 'initialize']);
    expect(first.notifications.map((notification) => notification.method)).toEqual(['notifications/initialized']);
    // The initialize request carries no stateless-era _meta.
    expect(first.requests[1]!.params._meta).toBeUndefined();
    expect(await client.listAll('tools/list')).toEqual([]);
    await client.close();

    const second = legacy();
    const again = newClient({ eraCache: cache });
    await again.connect(second);
    expect(second.requests.map((request) => request.method)).toEqual(['initialize']);
    await again.close();
  });

  it('never falls back when pinned', async () => {
    const transport = new ScriptedServerTransport(() => ({ error: { code: CODES.METHOD_NOT_FOUND, message: 'Method not found' } }));
    const client = newClient({ negotiation: 'pin', protocolVersion: '2026-07-28' });
    await expect(client.connect(transport)).rejects.toMatchObject({ code: 'UNSUPPORTED_VERSION' });
    expect(transport.requests.map((request) => request.method)).toEqual(['server/discover']);
    expect(client.era).toBeUndefined();
  });

  it('goes straight to initialize when the preferred version is stateful', async () => {
    const transport = new ScriptedServerTransport((request) =>
      request.method === 'initialize' ? complete({ protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'old', version: '1' } }) : undefined,
    );
    const client = newClient({ protocolVersion: '2025-06-18' });
    await client.connect(transport);
    expect(transport.requests.map((request) => request.method)).toEqual(['initialize']);
    expect(client.protocolVersion).toBe('2025-06-18');
    await client.close();
  });

  it('retries discover once with a version the server names in UnsupportedProtocolVersion', async () => {
    let refused = false;
    const transport = new ScriptedServerTransport(() => {
      if (!refused) {
        refused = true;
        return { error: { code: CODES.UNSUPPORTED_PROTOCOL_VERSION, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2026-07-28' } } };
      }
      return { result: DISCOVER };
    });
    const client = newClient();
    await client.connect(transport);
    expect(client.era).toBe('stateless');
    expect(transport.requests.map((request) => request.method)).toEqual(['server/discover', 'server/discover']);
    expect(transport.requests[0]!.id).not.toBe(transport.requests[1]!.id);
    await client.close();
  });

  it('surfaces errors of the stateless era instead of falling back', async () => {
    const transport = new ScriptedServerTransport(() => ({ error: { code: CODES.MISSING_REQUIRED_CLIENT_CAPABILITY, message: 'needs sampling' } }));
    const client = newClient();
    const failure = await client.connect(transport).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as ProtocolError).code).toBe(CODES.MISSING_REQUIRED_CLIENT_CAPABILITY);
    expect(transport.requests.map((request) => request.method)).toEqual(['server/discover']);
  });

  it('skips the probe when the era cache knows the server speaks the stateless era', async () => {
    const cache = new InMemoryEraCache();
    const make = (): ScriptedServerTransport => {
      const transport = server(() => complete({ tools: [], ttlMs: 0, cacheScope: 'public' }));
      transport.serverKey = 'modern-server';
      return transport;
    };
    const first = make();
    const client = newClient({ eraCache: cache });
    await client.connect(first);
    await client.close();
    const second = make();
    const again = newClient({ eraCache: cache });
    await again.connect(second);
    expect(again.serverCapabilities).toEqual(DISCOVER.capabilities);
    await again.listAll('tools/list');
    expect(second.requests.map((request) => request.method)).toEqual(['tools/list']);
    await again.close();
  });
});

describe('multi round-trip requests', () => {
  const elicit = { method: 'elicitation/create', params: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } };

  it('fulfils input requests with the registered handlers and echoes requestState exactly', async () => {
    const transport = server((request) => {
      if (request.method !== 'tools/call') return undefined;
      const round = transport.requests.filter((seen) => seen.method === 'tools/call').length;
      if (round === 1) {
        return { result: { resultType: 'input_required', inputRequests: { who: elicit, roots: { method: 'roots/list' } }, requestState: 'opaque+state/1==' } };
      }
      if (round === 2) {
        // Asks again without state: the retry must carry none.
        return { result: { resultType: 'input_required', inputRequests: { model: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } } } };
      }
      return textResult('done');
    });
    const client = newClient();
    client.setRequestHandler('elicitation/create', (params) => ({ action: 'accept', content: { name: params.message === 'Name?' ? 'Ada' : '?' } }));
    client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///home' }] }));
    client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' }));
    await client.connect(transport);
    const result = await client.callTool({ name: 'ask', arguments: { x: 1 } });
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    const calls = transport.requests.filter((request) => request.method === 'tools/call');
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((call) => call.id)).size).toBe(3);
    expect(calls[0]!.params).not.toHaveProperty('inputResponses');
    expect(calls[1]!.params).toMatchObject({
      name: 'ask',
      arguments: { x: 1 },
      requestState: 'opaque+state/1==',
      inputResponses: { who: { action: 'accept', content: { name: 'Ada' } }, roots: { roots: [{ uri: 'file:///home' }] } },
    });
    expect(calls[2]!.params).not.toHaveProperty('requestState');
    expect(calls[2]!.params.inputResponses).toEqual({ model: { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' } });
    for (const call of calls) expect(call.params._meta?.['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    await client.close();
  });

  it('retries at once with the state alone when no input is requested', async () => {
    const transport = server((request) =>
      request.params.requestState === undefined ? { result: { resultType: 'input_required', requestState: 's1' } } : complete({ messages: [] }),
    );
    const client = newClient();
    await client.connect(transport);
    expect(await client.getPrompt({ name: 'p' })).toMatchObject({ resultType: 'complete' });
    const gets = transport.requests.filter((request) => request.method === 'prompts/get');
    expect(gets[1]!.params).toMatchObject({ name: 'p', requestState: 's1' });
    expect(gets[1]!.params).not.toHaveProperty('inputResponses');
    await client.close();
  });

  it('gives up after maxInputRounds with INPUT_ROUNDS_EXCEEDED', async () => {
    const transport = server(() => ({ result: { resultType: 'input_required', requestState: 'again' } }));
    const client = newClient({ maxInputRounds: 3 });
    await client.connect(transport);
    const failure = await client.readResource({ uri: 'mem://x' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).code).toBe('INPUT_ROUNDS_EXCEEDED');
    expect(transport.requests.filter((request) => request.method === 'resources/read')).toHaveLength(3);
    await client.close();
  });

  it('refuses input requests for capabilities the client did not declare', async () => {
    const transport = server(() => ({ result: { resultType: 'input_required', inputRequests: { who: elicit } } }));
    const client = newClient({ capabilities: {} });
    await client.connect(transport);
    await expect(client.callTool({ name: 'ask' })).rejects.toMatchObject({ code: 'CAPABILITY_MISSING', message: expect.stringContaining('elicitation') });
    await client.close();
  });

  it('rejects a handler result that does not fit the schema', async () => {
    const transport = server(() => ({ result: { resultType: 'input_required', inputRequests: { who: elicit } } }));
    const client = newClient();
    client.setRequestHandler('elicitation/create', () => ({ action: 'maybe' }) as never);
    await client.connect(transport);
    await expect(client.callTool({ name: 'ask' })).rejects.toMatchObject({ code: 'INVALID_RESULT' });
    await client.close();
  });

  it('honours the caller’s signal and timeout while a handler waits', async () => {
    const transport = server(() => ({ result: { resultType: 'input_required', inputRequests: { who: elicit } } }));
    const client = newClient();
    client.setRequestHandler('elicitation/create', (_params, context) => new Promise((resolve) => context.signal.addEventListener('abort', () => resolve({ action: 'cancel' }))));
    await client.connect(transport);
    const controller = new AbortController();
    const aborted = client.callTool({ name: 'ask' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user gave up')), 20);
    await expect(aborted).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    const started = Date.now();
    await expect(client.callTool({ name: 'ask' }, { timeout: 50 })).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(1_000);
    await client.close();
  });
});

describe('response cache', () => {
  it('answers fresh cacheable results locally until their ttl or a change notification', async () => {
    let now = 1_000;
    const transport = server((request) => {
      if (request.method === 'tools/list') return complete({ ttlMs: 60_000, cacheScope: 'private', tools: [{ name: 't', inputSchema: { type: 'object' } }] });
      if (request.method === 'resources/read') return complete({ ttlMs: 5_000, cacheScope: 'public', contents: [{ uri: request.params.uri, text: 'x' }] });
      return undefined;
    });
    const client = newClient({ responseCache: { now: () => now } });
    await client.connect(transport);
    const count = (method: string): number => transport.requests.filter((request) => request.method === method).length;
    await client.listAll('tools/list');
    await client.listAll('tools/list');
    expect(count('tools/list')).toBe(1);
    transport.notify('notifications/tools/list_changed');
    await client.listAll('tools/list');
    expect(count('tools/list')).toBe(2);

    await client.readResource({ uri: 'mem://a' });
    await client.readResource({ uri: 'mem://a' });
    await client.readResource({ uri: 'mem://b' });
    expect(count('resources/read')).toBe(2);
    transport.notify('notifications/resources/updated', { uri: 'mem://a' });
    await client.readResource({ uri: 'mem://a' });
    expect(count('resources/read')).toBe(3);
    now += 10_000;
    await client.readResource({ uri: 'mem://b' });
    expect(count('resources/read')).toBe(4);
    await client.close();
  });

  it('can be turned off', async () => {
    const transport = server(() => complete({ ttlMs: 60_000, cacheScope: 'public', tools: [] }));
    const client = newClient({ responseCache: false });
    await client.connect(transport);
    await client.listAll('tools/list');
    await client.listAll('tools/list');
    expect(transport.requests.filter((request) => request.method === 'tools/list')).toHaveLength(2);
    expect(client.responseCache).toBeUndefined();
    await client.close();
  });
});
