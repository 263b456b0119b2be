/**
 * DPoP end to end over real HTTP on 127.0.0.1: mcpgen's Client with `dpop: true` against
 * mcpgen's HTTP server whose guard verifies DPoP proofs, with DPoP-bound tokens from the test
 * authorization server; both servers demand nonces. Then what a thief holding the token can do
 * with it: nothing.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, createMcpHttpHandler, McpServer, StreamableHttpClientTransport } from '../../../../runtime/index.js';
import { authInfoOf, DpopProver, InMemoryOAuthStore, type DpopGuardOptions, type OAuthClientProvider, type StoredTokens } from '../../../../runtime/features/auth/index.js';
import { toNodeHandler } from '../../../../runtime/node.js';
import { startAuthorizationServer, type TestAuthorizationServer } from './fixtures/authorization-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function setup(dpop: DpopGuardOptions): Promise<{ as: TestAuthorizationServer; url: URL; calls: string[] }> {
  const as = await startAuthorizationServer({ dpop: { nonce: 'as-nonce' } });
  cleanups.push(() => as.close());
  const mcp = new McpServer({ name: 'bound', version: '1.0.0' });
  mcp.registerTool('whoami', {}, (_args, context) => ({ content: [{ type: 'text', text: authInfoOf(context)?.confirmation?.jkt ?? 'unbound' }] }));
  const httpServer = createServer();
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  const handler = createMcpHttpHandler({
    server: () => mcp.createServer(),
    path: '/mcp',
    auth: { verifier: as.verifier, resource: `${base}/mcp`, authorizationServers: [as.issuer], requiredScopes: ['mcp:read'], dpop },
  });
  const calls: string[] = [];
  const listener = toNodeHandler(handler);
  httpServer.on('request', (request, response) => {
    if (request.method === 'POST') response.on('finish', () => calls.push(`${(request.headers.authorization ?? '').split(' ')[0]} ${response.statusCode}`));
    listener(request, response);
  });
  cleanups.push(async () => {
    await handler.close();
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  });
  return { as, url: new URL(`${base}/mcp`), calls };
}

function provider(store: InMemoryOAuthStore): OAuthClientProvider {
  return {
    redirectUrl: 'http://127.0.0.1:1/callback',
    store,
    dpop: true,
    redirectToAuthorization: async (url) => {
      const response = await fetch(url, { redirect: 'manual' });
      await response.body?.cancel();
      return response.headers.get('location') ?? undefined;
    },
  };
}

const rpc = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

describe('DPoP end to end', () => {
  it('binds the token to the client key, answers both nonces, and the server sees the binding', async () => {
    const rotating = { value: 'rs-nonce-1' };
    const { as, url, calls } = await setup({ required: true, nonce: () => rotating.value });
    const store = new InMemoryOAuthStore();
    const auth = provider(store);
    const client = new Client({ name: 'dpop-client', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(url, { authProvider: auth }), { timeout: 10_000 });
    cleanups.push(() => client.close());
    const stored = store.get(`tokens:${url.href}`) as StoredTokens;
    expect(stored.tokens.token_type).toBe('DPoP');
    expect(as.log.tokenRequests.map((entry) => entry.dpopNonce)).toEqual([undefined, 'as-nonce']);
    const prover = new DpopProver(); // another key: the thumbprint the server sees must be the client's, not this one's
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const jkt = (result.content as { text: string }[])[0]!.text;
    expect(jkt).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(jkt).not.toBe(await prover.thumbprint());
    // The 401 without a token already hands out the nonce, so no request is refused for lacking it.
    expect(calls[0]).toBe(' 401');
    expect(calls.slice(1).length).toBeGreaterThan(0);
    expect(calls.slice(1).every((call) => call === 'DPoP 200' || call === 'DPoP 202')).toBe(true);
    // The server rotates its nonce: one refusal with use_dpop_nonce, one retry.
    rotating.value = 'rs-nonce-2';
    calls.length = 0;
    await client.listTools();
    expect(calls).toEqual(['DPoP 401', 'DPoP 200']);
  });

  it('refuses the stolen token: as Bearer, with a proof by another key, without the nonce, for another URL', async () => {
    const { url } = await setup({ nonce: () => 'n' });
    const store = new InMemoryOAuthStore();
    const client = new Client({ name: 'dpop-client', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(url, { authProvider: provider(store) }), { timeout: 10_000 });
    cleanups.push(() => client.close());
    const token = (store.get(`tokens:${url.href}`) as StoredTokens).tokens.access_token;

    const asBearer = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${token}` }, body: rpc(1) });
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get('www-authenticate')).toContain('Bearer error="invalid_token"');

    const thief = new DpopProver();
    const foreign = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `DPoP ${token}`, dpop: await thief.proof({ method: 'POST', url, accessToken: token, nonce: 'n' }) }, body: rpc(2) });
    expect(foreign.status).toBe(401);
    expect(foreign.headers.get('www-authenticate')).toContain('DPoP algs="ES256 ES384 RS256 PS256", error="invalid_token"');

    const missingNonce = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `DPoP ${token}`, dpop: await thief.proof({ method: 'POST', url, accessToken: token }) }, body: rpc(3) });
    expect(missingNonce.status).toBe(401);
    expect(missingNonce.headers.get('dpop-nonce')).toBe('n');
    expect(missingNonce.headers.get('www-authenticate')).toContain('error="use_dpop_nonce"');

    const wrongUrl = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `DPoP ${token}`, dpop: await thief.proof({ method: 'POST', url: new URL('/elsewhere', url), accessToken: token, nonce: 'n' }) }, body: rpc(4) });
    expect(await wrongUrl.json()).toMatchObject({ error: 'invalid_dpop_proof', error_description: expect.stringContaining('htu') });
  });

  it('does not spend a proof on a request it refuses (replays of accepted proofs: replay-cache.test.ts)', async () => {
    const { as, url } = await setup({});
    const prover = new DpopProver();
    const token = as.mint(url.href, ['mcp:read']);
    const proof = await prover.proof({ method: 'POST', url, accessToken: token });
    // An unbound token presented with the DPoP scheme is refused, and the proof is not remembered:
    // remembering proofs of refused requests lets anyone fill the replay cache.
    for (const id of [1, 2]) {
      const refused = await fetch(url, { method: 'POST', headers: { ...headers, authorization: `DPoP ${token}`, dpop: proof }, body: rpc(id) });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: 'invalid_token', error_description: 'The token is not DPoP-bound' });
    }
  });
});
