/**
 * Sessions belong to the identity that opened them: with any valid token of its own and another
 * user's session id, a request is answered 404 on every leg (POST, the GET stream, resumption
 * with Last-Event-ID, DELETE, and the legacy HTTP+SSE message endpoint), in one process and
 * across replicas sharing a Redis session store, while the owner's refreshed token keeps working.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../../runtime/http.js';
import { McpServer, type McpHttpHandlerOptions } from '../../../../runtime/index.js';
import type { AuthInfo } from '../../../../runtime/features/auth/index.js';
import '../../../../runtime/features/auth/index.js';
import { RedisConnection, RedisSessionStore } from '../../../../runtime/features/redis/index.js';
import { createMcpNodeServer, type McpNodeServer } from '../../../../runtime/node.js';
import { sessionOwnerOf } from '../../../../runtime/transports/http/session-owner.js';

const ISSUER = 'https://as.example';
const tokens: Record<string, Omit<AuthInfo, 'token'>> = {
  'alice-1': { subject: 'alice', clientId: 'app', scopes: [], issuer: ISSUER },
  'alice-2': { subject: 'alice', clientId: 'app', scopes: [], issuer: ISSUER },
  bob: { subject: 'bob', clientId: 'app', scopes: [], issuer: ISSUER },
};

/** The canonical URI every replica serves (tokens are issued for it). */
const RESOURCE = 'https://mcp.example/mcp';

function endpoint(extra: Partial<McpHttpHandlerOptions> = {}): McpNodeServer {
  const mcp = new McpServer({ name: 'owned', version: '1.0.0' });
  mcp.registerTool('whoami', {}, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  return createMcpNodeServer({
    server: () => mcp.createServer(),
    path: '/mcp',
    eventStore: new InMemoryEventStore(),
    legacySse: true,
    auth: {
      verifier: { verifyAccessToken: async (token) => (tokens[token] === undefined ? undefined : { token, resource: RESOURCE, ...tokens[token]! }) },
      resource: RESOURCE,
      authorizationServers: [ISSUER],
    },
    ...extra,
  });
}

const BASE_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };

async function initialize(url: URL, token: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...BASE_HEADERS, authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
  });
  expect(response.status).toBe(200);
  await response.text();
  const id = response.headers.get('mcp-session-id')!;
  const initialized = await fetch(url, { method: 'POST', headers: { ...BASE_HEADERS, authorization: `Bearer ${token}`, 'mcp-session-id': id }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  expect(initialized.status).toBe(202);
  return id;
}

/** Status of each leg of the session, driven with `token`. */
async function legs(url: URL, session: string, token: string): Promise<Record<string, number>> {
  const headers = { ...BASE_HEADERS, authorization: `Bearer ${token}`, 'mcp-session-id': session };
  const call = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami' } }) });
  await call.text();
  const controller = new AbortController();
  const stream = await fetch(url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' }, signal: controller.signal });
  controller.abort();
  const resume = await fetch(url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream', 'last-event-id': 'x.0' } });
  await resume.body?.cancel();
  return { post: call.status, get: stream.status, resume: resume.status };
}

describe('one process', () => {
  let node: McpNodeServer;
  let url: URL;
  beforeAll(async () => {
    node = endpoint();
    url = await node.listen(0);
  });
  afterAll(() => node.close());

  it("answers another user's requests on every Streamable HTTP leg as an unknown session", async () => {
    const session = await initialize(url, 'alice-1');
    expect(await legs(url, session, 'bob')).toEqual({ post: 404, get: 404, resume: 404 });
    const deleted = await fetch(url, { method: 'DELETE', headers: { authorization: 'Bearer bob', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } });
    expect(deleted.status).toBe(404);
    // The owner, with a refreshed token of the same identity, still has the session.
    const own = await legs(url, session, 'alice-2');
    expect(own.post).toBe(200);
    expect(own.get).toBe(200);
    expect(node.mcp.sessions.get(session)).toBeDefined();
  });

  it("refuses another user's posts to a legacy HTTP+SSE session", async () => {
    const controller = new AbortController();
    const stream = await fetch(new URL('/sse', url), { headers: { accept: 'text/event-stream', authorization: 'Bearer alice-1' }, signal: controller.signal });
    const reader = stream.body!.getReader();
    let text = '';
    while (!text.includes('sessionId=')) text += new TextDecoder().decode((await reader.read()).value);
    const endpointPath = /data: (\S+)/.exec(text)![1]!;
    const message = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    const foreign = await fetch(new URL(endpointPath, url), { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer bob' }, body: message });
    expect(foreign.status).toBe(404);
    const own = await fetch(new URL(endpointPath, url), { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer alice-2' }, body: message });
    expect(own.status).toBe(202);
    controller.abort();
  });
});

describe('replicas sharing a Redis session store', () => {
  const prefix = `owner${randomBytes(4).toString('hex')}`;
  let redis: RedisConnection;
  let replicas: McpNodeServer[];
  let urls: URL[];
  beforeAll(async () => {
    redis = await RedisConnection.connect({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix });
    replicas = [endpoint({ sessionStore: new RedisSessionStore(redis), legacySse: false }), endpoint({ sessionStore: new RedisSessionStore(redis), legacySse: false })];
    urls = await Promise.all(replicas.map((replica) => replica.listen(0)));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await redis.close();
  });

  it('keeps the owner with the shared state, so another replica refuses another user', async () => {
    const session = await initialize(urls[0]!, 'alice-1');
    const foreign = await fetch(urls[1]!, { method: 'POST', headers: { ...BASE_HEADERS, authorization: 'Bearer bob', 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami' } }) });
    expect(foreign.status).toBe(404);
    const own = await fetch(urls[1]!, { method: 'POST', headers: { ...BASE_HEADERS, authorization: 'Bearer alice-2', 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'whoami' } }) });
    expect(own.status).toBe(200);
    await own.text();
  });
});

describe('sessionOwnerOf', () => {
  it('names issuer, subject and client, and nothing without them', () => {
    expect(sessionOwnerOf({ token: 't', scopes: [], subject: 'x' })).not.toBe(sessionOwnerOf({ token: 't', scopes: [], clientId: 'x' }));
    expect(sessionOwnerOf({ token: 't', scopes: [], subject: 'x', issuer: 'a' })).not.toBe(sessionOwnerOf({ token: 't', scopes: [], subject: 'x', issuer: 'b' }));
    expect(sessionOwnerOf({ token: 't', scopes: [] })).toBeUndefined();
    expect(sessionOwnerOf(undefined)).toBeUndefined();
  });
});
