/**
 * The OAuthAuthorizer against real HTTP peers on 127.0.0.1: the test authorization server and
 * small metadata servers, for what the end-to-end tests do not reach (concurrency, refresh
 * failures, legacy discovery, client credentials, resource and issuer checks).
 */
import { generateKeyPairSync, verify } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, serveRoutes, type Route } from './fixtures/route-server.js';
import { InMemoryOAuthStore, OAuthAuthorizer, withOAuth, type OAuthClientProvider, type StoredTokens } from '../../../../runtime/features/auth/index.js';
import { startAuthorizationServer } from './fixtures/authorization-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const serve = (routes: (base: string) => Record<string, Route>): Promise<string> => serveRoutes(routes, cleanups);

function interactive(store = new InMemoryOAuthStore()): OAuthClientProvider & { store: InMemoryOAuthStore } {
  return {
    redirectUrl: 'http://127.0.0.1:1/callback',
    store,
    redirectToAuthorization: async (url) => (await fetch(url, { redirect: 'manual' })).headers.get('location') ?? undefined,
  };
}

describe('OAuthAuthorizer', () => {
  it('shares one authorization among concurrent 401s', async () => {
    const as = await startAuthorizationServer();
    cleanups.push(() => as.close());
    const mcp = await serve((base) => ({ 'GET /.well-known/oauth-protected-resource/mcp': json({ resource: `${base}/mcp`, authorization_servers: [as.issuer] }) }));
    const authorizer = new OAuthAuthorizer(`${mcp}/mcp`, interactive());
    await Promise.all([1, 2, 3, 4].map(() => authorizer.handleUnauthorized(undefined, undefined)));
    expect(as.log.authorizations).toHaveLength(1);
    expect(as.log.registrations).toBe(1);
  });

  it('forgets tokens whose refresh failed, but not tokens another request stored meanwhile', async () => {
    const store = new InMemoryOAuthStore();
    let duringRefresh: () => void = () => undefined;
    let refreshes = 0;
    const asBase = await serve((base) => ({
      'GET /.well-known/oauth-authorization-server': json({ issuer: base, token_endpoint: `${base}/token`, code_challenge_methods_supported: ['S256'] }),
      'POST /token': (_request, _body, response) => {
        refreshes++;
        duringRefresh();
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_grant' }));
      },
    }));
    const mcp = await serve((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [asBase] }) }));
    const key = `tokens:${mcp}`;
    const expired = (access: string, refresh: string): StoredTokens => ({
      tokens: { access_token: access, token_type: 'Bearer', refresh_token: refresh },
      issuer: asBase,
      resource: mcp,
      expiresAt: Date.now() - 1000,
    });
    store.set(`client:${asBase}`, { client_id: 'c' });
    const authorizer = new OAuthAuthorizer(mcp, { ...interactive(store), redirectToAuthorization: undefined });

    store.set(key, expired('old', 'r1'));
    expect(await authorizer.accessToken()).toBeUndefined();
    expect(store.get(key)).toBeUndefined();

    store.set(key, expired('old', 'r1'));
    const fresh: StoredTokens = { tokens: { access_token: 'fresh', token_type: 'Bearer', refresh_token: 'r2' }, issuer: asBase, resource: mcp };
    duringRefresh = () => store.set(key, fresh);
    expect(await authorizer.accessToken()).toBe('fresh');
    expect(store.get(key)).toEqual(fresh);
    expect(refreshes).toBe(2);
  });

  it('refuses Protected Resource Metadata for another resource before any authorization request', async () => {
    const as = await startAuthorizationServer();
    cleanups.push(() => as.close());
    const mcp = await serve(() => ({ 'GET /.well-known/oauth-protected-resource/mcp': json({ resource: 'https://evil.example.com/mcp', authorization_servers: [as.issuer] }) }));
    const authorizer = new OAuthAuthorizer(`${mcp}/mcp`, interactive());
    await expect(authorizer.authorize()).rejects.toThrow(/is for https:\/\/evil.example.com\/mcp/);
    expect(as.log.authorizations).toHaveLength(0);
  });

  it('refuses authorization server metadata whose issuer differs from the one it was looked up for', async () => {
    const asBase = await serve(() => ({ 'GET /.well-known/oauth-authorization-server': json({ issuer: 'https://attacker.example.com', token_endpoint: 'https://attacker.example.com/token' }) }));
    const mcp = await serve((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [asBase] }) }));
    await expect(new OAuthAuthorizer(`${mcp}/mcp`, interactive()).authorize()).rejects.toThrow(/names the issuer "https:\/\/attacker.example.com"/);
  });

  it('falls back to the 2025-03-26 default endpoints at the server origin when there is no metadata, on request', async () => {
    const seen: string[] = [];
    const mcp = await serve((base) => ({
      'POST /register': (_request, _body, response) => {
        seen.push('register');
        response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ client_id: 'legacy', client_secret: 's3cret' }));
      },
      'GET /authorize': (request, _body, response) => {
        seen.push('authorize');
        const url = new URL(request.url!, base);
        response.writeHead(302, { location: `${url.searchParams.get('redirect_uri')}?code=c&state=${url.searchParams.get('state')}` }).end();
      },
      'POST /token': (request, body, response) => {
        seen.push(`token ${request.headers.authorization} ${new URLSearchParams(body).get('resource')}`);
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'legacy-token', token_type: 'Bearer' }));
      },
    }));
    const token = await new OAuthAuthorizer(`${mcp}/mcp`, { ...interactive(), legacyEndpointFallback: true }).authorize();
    expect(token).toBe('legacy-token');
    expect(seen).toEqual(['register', 'authorize', `token Basic ${btoa('legacy:s3cret')} ${mcp}/mcp`]);
  });

  it('uses client_credentials with a private_key_jwt assertion signed by WebCrypto', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    let assertion = '';
    const asBase = await serve((base) => ({
      'GET /.well-known/oauth-authorization-server': json({ issuer: base, token_endpoint: `${base}/token`, code_challenge_methods_supported: ['S256'] }),
      'POST /token': (_request, body, response) => {
        const params = new URLSearchParams(body);
        expect(params.get('grant_type')).toBe('client_credentials');
        assertion = params.get('client_assertion') ?? '';
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'machine', token_type: 'Bearer' }));
      },
    }));
    const mcp = await serve((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [asBase] }) }));
    const authorizer = new OAuthAuthorizer(mcp, {
      clientCredentials: { clientId: 'job', privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), signingAlgorithm: 'ES256' },
    });
    expect(await authorizer.authorize()).toBe('machine');
    const [header, payload, signature] = assertion.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'ES256', typ: 'JWT' });
    expect(claims).toMatchObject({ iss: 'job', sub: 'job', aud: asBase });
    const valid = verify('sha256', Buffer.from(`${header}.${payload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url'));
    expect(valid).toBe(true);
  });

  it('gives a request the refusal back when step-up cannot add anything', async () => {
    let authorizations = 0;
    const as = await startAuthorizationServer();
    cleanups.push(() => as.close());
    const mcp = await serve((base) => ({
      'GET /.well-known/oauth-protected-resource/mcp': json({ resource: `${base}/mcp`, authorization_servers: [as.issuer] }),
      'POST /mcp': (request, _body, response) => {
        if (request.headers.authorization === undefined) {
          response.writeHead(401, { 'www-authenticate': 'Bearer scope="admin"' }).end();
          return;
        }
        authorizations++;
        response.writeHead(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="admin"' }).end();
      },
    }));
    const fetchWithAuth = withOAuth((url, init) => fetch(url, init), interactive());
    const response = await fetchWithAuth(new URL(`${mcp}/mcp`), { method: 'POST', body: '{}' });
    expect(response.status).toBe(403);
    expect(as.log.authorizations.map((entry) => entry.scope)).toEqual(['admin offline_access']);
    expect(authorizations).toBe(1);
  });

  it('refuses to authorize when no metadata confirms PKCE support, unless asked for the 2025-03-26 fallback', async () => {
    const seen: string[] = [];
    const record: Route = (request, _body, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.writeHead(500).end();
    };
    const mcp = await serve(() => ({ 'POST /register': record, 'GET /authorize': record, 'POST /token': record }));
    const opened: URL[] = [];
    const provider: OAuthClientProvider = { ...interactive(), redirectToAuthorization: async (url) => void opened.push(url) };
    await expect(new OAuthAuthorizer(`${mcp}/mcp`, provider).authorize()).rejects.toThrow(/PKCE support cannot be confirmed; refusing to authorize/);
    await expect(new OAuthAuthorizer(mcp, { clientCredentials: { clientId: 'job', clientSecret: 's' } }).authorize()).rejects.toThrow(/PKCE support cannot be confirmed/);
    expect(seen).toEqual([]);
    expect(opened).toEqual([]);
  });

  it('refuses metadata that does not list S256 before sending the user anywhere', async () => {
    const as = await serve((base) => ({
      'GET /.well-known/oauth-authorization-server': json({ issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, registration_endpoint: `${base}/register`, code_challenge_methods_supported: ['plain'] }),
    }));
    const mcp = await serve((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [as] }) }));
    const opened: URL[] = [];
    await expect(new OAuthAuthorizer(mcp, { ...interactive(), redirectToAuthorization: async (url) => void opened.push(url) }).authorize()).rejects.toThrow(/does not advertise PKCE S256/);
    expect(opened).toEqual([]);
  });

  it('refuses an authorization response that comes back after the pending authorization expired', async () => {
    const as = await startAuthorizationServer();
    cleanups.push(() => as.close());
    const mcp = await serve((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [as.issuer] }) }));
    const store = new InMemoryOAuthStore();
    let authorizationUrl: URL | undefined;
    const provider: OAuthClientProvider = { ...interactive(store), pendingAuthorizationTtlMs: 60_000, redirectToAuthorization: async (url) => void (authorizationUrl = url) };
    const late = new OAuthAuthorizer(mcp, provider);
    await expect(late.authorize()).rejects.toThrow(/call finishAuthorization/);
    const callback = (await fetch(authorizationUrl!, { redirect: 'manual' })).headers.get('location')!;
    const pendingKey = `pending:${new URL(callback).searchParams.get('state')}`;
    expect(store.keys()).toContain(pendingKey);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_001 });
    try {
      await expect(late.finishAuthorization(callback)).rejects.toThrow(/after the authorization it answers expired/);
    } finally {
      vi.useRealTimers();
    }
    expect(store.keys()).not.toContain(pendingKey);
    expect(as.log.tokenRequests).toEqual([]);

    // Within the time, the same flow completes.
    const onTime = new OAuthAuthorizer(mcp, provider);
    await expect(onTime.authorize()).rejects.toThrow(/call finishAuthorization/);
    await onTime.finishAuthorization((await fetch(authorizationUrl!, { redirect: 'manual' })).headers.get('location')!);
    expect((await onTime.tokens())?.issuer).toBe(as.issuer);
  });
});
