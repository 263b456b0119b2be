/**
 * OAuth end to end over real HTTP on 127.0.0.1: mcpgen's Client and StreamableHttpClientTransport
 * (with an authProvider) against mcpgen's HTTP server protected by the bearer guard, with tokens
 * from the test authorization server (real PKCE, real redirects).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client, createMcpHttpHandler, McpServer, StreamableHttpClientTransport } from '../../../../runtime/index.js';
import { authInfoOf, InMemoryOAuthStore, type OAuthClientProvider, type StoredTokens } from '../../../../runtime/features/auth/index.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeHttpClient, startLoopbackReceiver, toNodeHandler } from '../../../../runtime/node.js';
import type { HttpClient } from '../../../../runtime/http.js';
import { startAuthorizationServer, type AuthorizationServerOptions, type TestAuthorizationServer } from './fixtures/authorization-server.js';

const REDIRECT = 'http://127.0.0.1:1/callback';

interface Setup {
  as: TestAuthorizationServer;
  url: URL;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function mcpServer(): McpServer {
  const mcp = new McpServer({ name: 'protected', version: '1.0.0' });
  mcp.registerTool('whoami', {}, (_args, context) => ({
    content: [{ type: 'text', text: JSON.stringify({ client: authInfoOf(context)?.clientId, scopes: authInfoOf(context)?.scopes }) }],
  }));
  mcp.registerTool('write', {}, () => ({ content: [{ type: 'text', text: 'written' }] }));
  return mcp;
}

/**
 * Starts the authorization server and the MCP server. `stepUp` puts a check in front of the
 * handler that answers `tools/call write` without the `mcp:write` scope with 403
 * insufficient_scope, as a server with per-operation scopes does.
 */
async function setup(asOptions: AuthorizationServerOptions = {}, stepUp = false): Promise<Setup> {
  const as = await startAuthorizationServer(asOptions);
  cleanups.push(() => as.close());
  const httpServer = createServer();
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  const mcp = mcpServer();
  const handler = createMcpHttpHandler({
    server: () => mcp.createServer(),
    path: '/mcp',
    auth: { verifier: as.verifier, resource: `${base}/mcp`, authorizationServers: [as.issuer], requiredScopes: ['mcp:read'] },
  });
  const listener = toNodeHandler(handler);
  httpServer.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!stepUp || request.method !== 'POST') {
      listener(request, response);
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      void (async () => {
        const message = JSON.parse(body) as { method?: string; params?: { name?: string } };
        const info = token === undefined ? undefined : await as.verifier.verifyAccessToken(token);
        if (message.method === 'tools/call' && message.params?.name === 'write' && info !== undefined && !info.scopes.includes('mcp:write')) {
          response.writeHead(403, { 'www-authenticate': `Bearer error="insufficient_scope", scope="mcp:write", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` }).end();
          return;
        }
        (request as unknown as { body: string }).body = body;
        listener(request, response);
      })();
    });
  });
  cleanups.push(async () => {
    await handler.close();
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  });
  return { as, url: new URL(`${base}/mcp`) };
}

/** A provider whose "browser" follows the authorization redirect one hop and hands the Location back. */
function provider(store = new InMemoryOAuthStore()): OAuthClientProvider & { store: InMemoryOAuthStore } {
  return {
    clientMetadata: { client_name: 'e2e' },
    redirectUrl: REDIRECT,
    store,
    redirectToAuthorization: async (url) => {
      const response = await fetch(url, { redirect: 'manual' });
      await response.body?.cancel();
      return response.headers.get('location') ?? undefined;
    },
  };
}

async function connect(url: URL, authProvider: OAuthClientProvider): Promise<Client> {
  const client = new Client({ name: 'e2e-client', version: '1.0.0' });
  await client.connect(new StreamableHttpClientTransport(url, { authProvider }), { timeout: 10_000 });
  cleanups.push(() => client.close());
  return client;
}

function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content[0]?.text ?? '';
}

describe('OAuth end to end', () => {
  it('authorizes on the first 401 and handlers see the verified token', async () => {
    const { as, url } = await setup();
    const client = await connect(url, provider());
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(JSON.parse(text(result))).toEqual({ client: 'client-1', scopes: ['mcp:read', 'offline_access'] });
    expect(as.log.registrations).toBe(1);
    expect(as.log.authorizations).toEqual([{ scope: 'mcp:read offline_access', resource: url.href, clientId: 'client-1' }]);
    expect(as.log.tokenRequests).toEqual([{ grantType: 'authorization_code', resource: url.href }]);
  });

  it('authorizes over an httpClient, on which the MCP requests and those of the OAuth flow travel', async () => {
    const { as, url } = await setup();
    const node = nodeHttpClient();
    cleanups.push(async () => node.close());
    const sent: string[] = [];
    const httpClient: HttpClient = {
      request: (request) => {
        sent.push(`${request.method} ${request.url.origin === url.origin ? 'mcp' : 'as'} ${request.url.pathname}`);
        return node.request(request);
      },
    };
    const client = new Client({ name: 'e2e-client', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(url, { authProvider: provider(), httpClient }), { timeout: 10_000 });
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(JSON.parse(text(result))).toEqual({ client: 'client-1', scopes: ['mcp:read', 'offline_access'] });
    expect(as.log.tokenRequests).toEqual([{ grantType: 'authorization_code', resource: url.href }]);
    expect(sent).toContain('POST mcp /mcp');
    expect(sent).toContain('GET mcp /.well-known/oauth-protected-resource/mcp');
    expect(sent.filter((line) => line.startsWith('POST as '))).not.toEqual([]);
  });

  it('serves Protected Resource Metadata and challenges requests without a token', async () => {
    const { as, url } = await setup();
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url));
    expect(await metadata.json()).toEqual({ resource: url.href, authorization_servers: [as.issuer], bearer_methods_supported: ['header'], scopes_supported: ['mcp:read'] });
    const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer scope="mcp:read", resource_metadata="${url.origin}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('refreshes an expired access token instead of authorizing again', async () => {
    const { as, url } = await setup({ accessTokenTtl: 1 });
    const auth = provider();
    const client = await connect(url, auth);
    await client.callTool({ name: 'whoami', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await client.callTool({ name: 'whoami', arguments: {} });
    expect(as.log.authorizations).toHaveLength(1);
    expect(as.log.tokenRequests.map((request) => request.grantType)).toContain('refresh_token');
  });

  it('re-authorizes when the access token expired and the refresh token is revoked', async () => {
    const { as, url } = await setup({ accessTokenTtl: 1 });
    const client = await connect(url, provider());
    await client.callTool({ name: 'whoami', arguments: {} });
    as.revokeRefreshTokens();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await client.callTool({ name: 'whoami', arguments: {} });
    expect(as.log.authorizations).toHaveLength(2);
  });

  it('steps up with the union of the scopes on 403 insufficient_scope', async () => {
    const { as, url } = await setup({}, true);
    const client = await connect(url, provider());
    expect(text(await client.callTool({ name: 'write', arguments: {} }))).toBe('written');
    expect(as.log.authorizations.map((entry) => entry.scope)).toEqual(['mcp:read offline_access', 'mcp:read mcp:write offline_access']);
  });

  it('refuses an authorization response with a forged state', async () => {
    const { as, url } = await setup({ forgeState: 'attacker-state' });
    await expect(connect(url, provider())).rejects.toThrow();
    expect(as.log.tokenRequests).toHaveLength(0);
  });

  it('refuses an authorization response from the wrong issuer (RFC 9207)', async () => {
    const { as, url } = await setup({ issInRedirect: 'https://evil.example.com' });
    await expect(connect(url, provider())).rejects.toThrow();
    expect(as.log.tokenRequests).toHaveLength(0);
  });

  it('refuses an authorization response without iss when the server advertises it', async () => {
    const { as, url } = await setup({ issInRedirect: null });
    await expect(connect(url, provider())).rejects.toThrow();
    expect(as.log.tokenRequests).toHaveLength(0);
  });

  it('rejects a token issued for another resource, and an expired token, with 401', async () => {
    const { as, url } = await setup();
    const post = (token: string): Promise<Response> =>
      fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
      });
    const foreign = await post(as.mint('https://other.example.com/mcp', ['mcp:read']));
    expect(foreign.status).toBe(401);
    expect(foreign.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const expired = await post(as.mint(url.href, ['mcp:read'], -10));
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ error: 'invalid_token', error_description: 'The token has expired' });
    const narrow = await post(as.mint(url.href, ['mcp:other']));
    expect(narrow.status).toBe(403);
    expect(narrow.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    const good = await post(as.mint(url.href, ['mcp:read']));
    expect(good.status).toBe(200);
  });

  it('keeps credentials per issuer in the store and reuses them in a new client', async () => {
    const { as, url } = await setup();
    const store = new InMemoryOAuthStore();
    await connect(url, provider(store));
    expect(store.keys().sort()).toEqual([`client:${as.issuer}`, `tokens:${url.href}`]);
    const stored = store.get(`tokens:${url.href}`) as StoredTokens;
    expect(stored.issuer).toBe(as.issuer);
    await connect(url, provider(store));
    expect(as.log.authorizations).toHaveLength(1);
  });

  it('completes the flow through the loopback receiver', async () => {
    const { as, url } = await setup();
    const receiver = await startLoopbackReceiver({
      // The "browser" follows the redirect to the receiver, as a real one would.
      openBrowser: async (target) => void (await fetch(target)).text(),
      timeoutMs: 5_000,
    });
    cleanups.push(() => receiver.close());
    const client = await connect(url, {
      clientMetadata: { client_name: 'loopback' },
      redirectUrl: receiver.redirectUrl,
      redirectToAuthorization: (target) => receiver.redirectToAuthorization(target),
    });
    await client.callTool({ name: 'whoami', arguments: {} });
    expect(as.log.tokenRequests).toHaveLength(1);
  });
});
