// The Client and StreamableHttpClientTransport in the stateless era (2026-07-28) against a
// scripted HTTP server on 127.0.0.1: metadata headers, x-mcp-header mirroring and tool
// rejection, protocol errors in HTTP error bodies, the fallback to initialize, cancellation by
// closing the exchange, and no resumption.
import { afterEach, describe, expect, it } from 'vitest';
import { Client, findHttpTransportError, StreamableHttpClientTransport, type ClientOptions } from '../../../../runtime/index.js';
import { FallbackHttpClientTransport } from '../../../../runtime/http.js';
import { InMemoryEraCache } from '../../../../runtime/advanced.js';
import { FakeHttpServer, openSse, result, rpcIdOf, rpcMethodOf, sendJson, sendStatus, sleep, type FakeRequest } from './client-fake-server.js';
import { initializeResult } from './client-fake-server.js';
import type { ServerResponse } from 'node:http';

const DISCOVER = { resultType: 'complete', ttlMs: 0, cacheScope: 'public', supportedVersions: ['2026-07-28'], capabilities: { tools: {}, resources: {}, prompts: {} } };

const TOOLS = [
  { name: 'weather', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, days: { type: 'integer', 'x-mcp-header': 'Days' }, opts: { type: 'object', properties: { metric: { type: 'boolean', 'x-mcp-header': 'Metric' } } }, note: { type: 'string' } } } },
  { name: 'bad_number', inputSchema: { type: 'object', properties: { score: { type: 'number', 'x-mcp-header': 'Score' } } } },
  { name: 'bad_nested', inputSchema: { type: 'object', properties: { list: { type: 'array', items: { type: 'object', properties: { id: { type: 'string', 'x-mcp-header': 'Id' } } } } } } },
];

let fake: FakeHttpServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

type Handler = (request: FakeRequest, res: ServerResponse) => void | Promise<void>;

/** A 2026-07-28 server: discover, tools/list with TOOLS, and per-method overrides. */
function modern(overrides: Record<string, Handler> = {}): Handler {
  return (request, res) => {
    const method = rpcMethodOf(request.body);
    const override = method === undefined ? undefined : overrides[method];
    if (override !== undefined) return override(request, res);
    if (method === 'server/discover') return sendJson(res, 200, result(rpcIdOf(request.body), DISCOVER));
    if (method === 'tools/list') return sendJson(res, 200, result(rpcIdOf(request.body), { resultType: 'complete', ttlMs: 0, cacheScope: 'private', tools: TOOLS }));
    if (method === 'tools/call' || method === 'prompts/get' || method === 'resources/read') {
      return sendJson(res, 200, result(rpcIdOf(request.body), { resultType: 'complete', ttlMs: 0, cacheScope: 'private', content: [], messages: [], contents: [] }));
    }
    return sendJson(res, 404, { jsonrpc: '2.0', id: rpcIdOf(request.body), error: { code: -32601, message: 'Method not found' } });
  };
}

function newClient(errors: Error[] = [], options: ClientOptions = {}): Client {
  return new Client({ name: 'http-stateless', version: '1.0.0' }, { eraCache: false, onerror: (error) => errors.push(error), ...options });
}

describe('Streamable HTTP in the stateless era', () => {
  it('sends the metadata headers, mirrors x-mcp-header parameters and drops invalid tools', async () => {
    fake = await FakeHttpServer.start(modern());
    const errors: Error[] = [];
    const client = newClient(errors);
    const transport = new StreamableHttpClientTransport(fake.url());
    await client.connect(transport);
    expect(client.era).toBe('stateless');
    const tools = await client.listAll('tools/list');
    expect(tools.map((tool) => tool.name)).toEqual(['weather']);
    expect(errors.map((error) => error.message).join('\n')).toMatch(/bad_number[\s\S]*bad_nested/);

    await client.callTool({ name: 'weather', arguments: { region: 'Zürich', days: 3, opts: { metric: false }, note: 'n' } });
    await client.getPrompt({ name: 'plain-prompt' });
    await client.readResource({ uri: 'file:///a%20b.txt?x=1' });
    await client.callTool({ name: '=?base64?x?=', arguments: {} });
    await client.close();

    const [discover, list, call, prompt, read, sentinel] = fake.find('POST');
    for (const request of [discover!, list!, call!, prompt!, read!]) {
      expect(request.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(request.headers['mcp-method']).toBe(rpcMethodOf(request.body));
      expect(request.headers['mcp-session-id']).toBeUndefined();
    }
    expect(discover!.headers['mcp-name']).toBeUndefined();
    expect(call!.headers).toMatchObject({
      'mcp-name': 'weather',
      'mcp-param-region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
      'mcp-param-days': '3',
      'mcp-param-metric': 'false',
    });
    expect(Object.keys(call!.headers).filter((name) => name.startsWith('mcp-param-')).sort()).toEqual(['mcp-param-days', 'mcp-param-metric', 'mcp-param-region']);
    expect(prompt!.headers['mcp-name']).toBe('plain-prompt');
    expect(read!.headers['mcp-name']).toBe('file:///a%20b.txt?x=1');
    expect(sentinel!.headers['mcp-name']).toBe(`=?base64?${Buffer.from('=?base64?x?=').toString('base64')}?=`);
    // No GET stream and no DELETE in this era.
    expect(fake.requests.filter((request) => request.method !== 'POST')).toEqual([]);
  });

  it('delivers a JSON-RPC error in an HTTP error body, and retries discover after UnsupportedProtocolVersion', async () => {
    let refused = false;
    fake = await FakeHttpServer.start(modern({
      'server/discover': (request, res) => {
        if (refused) return sendJson(res, 200, result(rpcIdOf(request.body), DISCOVER));
        refused = true;
        return sendJson(res, 400, { jsonrpc: '2.0', id: rpcIdOf(request.body), error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2026-07-28' } } });
      },
      'tools/call': (request, res) => sendJson(res, 400, { jsonrpc: '2.0', id: rpcIdOf(request.body), error: { code: -32020, message: 'Header mismatch' } }),
    }));
    const client = newClient();
    await client.connect(new StreamableHttpClientTransport(fake.url()));
    expect(fake.find('POST', 'server/discover')).toHaveLength(2);
    await expect(client.callTool({ name: 'weather', arguments: {} })).rejects.toMatchObject({ name: 'ProtocolError', code: -32020 });
    await client.close();
  });

  it('falls back to initialize on the same transport when the server is older', async () => {
    fake = await FakeHttpServer.start((request, res) => {
      const method = rpcMethodOf(request.body);
      if (request.method === 'GET') return sendStatus(res, 405);
      if (request.method === 'DELETE') return sendStatus(res, 200);
      if (method === 'initialize') return sendJson(res, 200, initializeResult(request.body), { 'mcp-session-id': 'legacy-session' });
      if (method === 'notifications/initialized') return sendStatus(res, 202);
      if (request.headers['mcp-session-id'] === undefined) {
        return sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Server not initialized' } });
      }
      return sendJson(res, 200, result(rpcIdOf(request.body), { tools: [] }));
    });
    const client = newClient();
    const transport = new StreamableHttpClientTransport(fake.url());
    await client.connect(transport);
    expect(client.era).toBe('stateful');
    expect(transport.sessionId).toBe('legacy-session');
    expect(await client.listAll('tools/list')).toEqual([]);
    const posts = fake.find('POST');
    expect(posts.map((request) => rpcMethodOf(request.body))).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/list']);
    // Nothing of the probe leaks into the handshake.
    expect(posts[1]!.headers['mcp-protocol-version']).toBeUndefined();
    expect(posts[1]!.headers['mcp-method']).toBeUndefined();
    expect(posts[3]!.headers['mcp-protocol-version']).toBe('2025-11-25');
    await client.close();
  });

  it('falls back through FallbackHttpClientTransport too', async () => {
    fake = await FakeHttpServer.start((request, res) => {
      const method = rpcMethodOf(request.body);
      if (method === 'initialize') return sendJson(res, 200, initializeResult(request.body));
      if (method === 'server/discover') return sendStatus(res, 404);
      if (request.method === 'GET') return sendStatus(res, 405);
      return sendStatus(res, 202);
    });
    const client = newClient();
    const transport = new FallbackHttpClientTransport(fake.url());
    await client.connect(transport);
    expect(client.era).toBe('stateful');
    expect(transport.kind).toBe('streamable-http');
    await client.close();
  });

  it('gives every request sent while the first one is failing its own HTTP error through FallbackHttpClientTransport', async () => {
    fake = await FakeHttpServer.start((request, res) => (rpcMethodOf(request.body) === 'server/discover' ? modern()(request, res) : sendStatus(res, 401)));
    // A server this process already knows speaks the stateless era: connecting sends nothing.
    const eraCache = new InMemoryEraCache();
    const warm = newClient([], { eraCache });
    await warm.connect(new FallbackHttpClientTransport(fake.url()));
    await warm.close();
    const client = newClient([], { eraCache });
    await client.connect(new FallbackHttpClientTransport(fake.url()));
    expect(client.era).toBe('stateless');
    const failures = await Promise.all([1, 2, 3].map(() => client.listTools().catch((error: unknown) => error)));
    for (const failure of failures) expect(findHttpTransportError(failure)?.status).toBe(401);
    await client.close();
  });

  it('cancels by closing the exchange, and never resumes a lost stream', async () => {
    fake = await FakeHttpServer.start(modern({
      'tools/call': (request, res) => {
        const sse = openSse(res);
        sse.message({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: (request.body as { params: { _meta: { progressToken: number } } }).params._meta.progressToken, progress: 1 } }, 'e1');
        if ((request.body as { params: { name: string } }).params.name === 'drop') setTimeout(() => sse.end(), 20);
      },
    }));
    const client = newClient();
    await client.connect(new StreamableHttpClientTransport(fake.url(), { reconnect: { initialDelayMs: 10 } }));
    const controller = new AbortController();
    const progress: number[] = [];
    const pending = client.callTool({ name: 'hang', arguments: {} }, { signal: controller.signal, onprogress: (update) => progress.push(update.progress) });
    await sleep(50);
    controller.abort(new Error('enough'));
    await expect(pending).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    expect(progress).toEqual([1]);
    await expect(client.callTool({ name: 'drop', arguments: {} }, { onprogress: () => undefined })).rejects.toMatchObject({ message: expect.stringContaining('not resumable') });
    await sleep(30);
    expect(fake.find('POST').map((request) => rpcMethodOf(request.body))).toEqual(['server/discover', 'tools/call', 'tools/call']);
    expect(fake.find('GET')).toEqual([]);
    await client.close();
  });
});
