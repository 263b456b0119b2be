/**
 * The egress policy of the OAuth client against hostile metadata served by real HTTP servers on
 * 127.0.0.1: nothing is fetched from, and no browser is sent to, a URL that is not https (or
 * http on loopback) or that lies in a private, link-local or unspecified range.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { json, recordingFetch, serveRoutes, type Route } from './fixtures/route-server.js';
import { InMemoryOAuthStore, OAuthAuthorizer, withOAuth, type OAuthClientProvider } from '../../../../runtime/features/auth/index.js';
import { addressClassOf, defaultAuthUrlPolicy } from '../../../../runtime/features/auth/url-policy.js';
import { startAuthorizationServer } from './fixtures/authorization-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const serve = (routes: (base: string) => Record<string, Route>): Promise<string> => serveRoutes(routes, cleanups);

function interactive(opened: URL[]): OAuthClientProvider {
  return {
    redirectUrl: 'http://127.0.0.1:1/callback',
    store: new InMemoryOAuthStore(),
    redirectToAuthorization: async (url) => {
      opened.push(url);
      return (await fetch(url, { redirect: 'manual' })).headers.get('location') ?? undefined;
    },
  };
}

describe('the OAuth client URL policy', () => {
  it.each([
    ['the cloud metadata address', 'http://169.254.169.254'],
    ['a private address', 'http://10.0.0.7'],
    ['a private IPv6 address', 'http://[fd00::7]'],
    ['a link-local IPv6 address', 'http://[fe80::1]'],
    ['the unspecified address', 'http://0.0.0.0'],
    ['plain http on a public host', 'http://as.example.com'],
  ])('refuses an authorization server at %s without sending it anything', async (_name, issuer) => {
    const mcp = await serve((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [issuer] }) }));
    const recorder = recordingFetch();
    const opened: URL[] = [];
    const authorizer = new OAuthAuthorizer(mcp, interactive(opened), { fetch: recorder });
    await expect(authorizer.authorize()).rejects.toThrow(/Refusing the authorization-server URL/);
    expect(recorder.urls.filter((url) => !url.startsWith(mcp))).toEqual([]);
    expect(opened).toEqual([]);
  });

  it.each([
    ['file:', 'file:///etc/passwd'],
    ['search-ms:', 'search-ms:query=invoice&crumb=location:\\\\attacker\\share'],
    ['a custom protocol', 'vscode://evil/run'],
    ['javascript:', 'javascript:alert(1)'],
    ['plain http on a public host', 'http://as.example.com/authorize'],
  ])('never opens an authorization endpoint with %s', async (_name, endpoint) => {
    const as = await serve((base) => ({
      'GET /.well-known/oauth-authorization-server': json({ issuer: base, authorization_endpoint: endpoint, token_endpoint: `${base}/token`, registration_endpoint: `${base}/register`, code_challenge_methods_supported: ['S256'] }),
    }));
    const mcp = await serve((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [as] }) }));
    const opened: URL[] = [];
    await expect(new OAuthAuthorizer(mcp, interactive(opened)).authorize()).rejects.toThrow(/Refusing the authorization-endpoint URL/);
    expect(opened).toEqual([]);
  });

  it('refuses token and registration endpoints outside the policy before registering or requesting a token', async () => {
    const recorder = recordingFetch();
    const as = await serve((base) => ({
      'GET /.well-known/oauth-authorization-server': json({ issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: 'http://169.254.169.254/token', registration_endpoint: `${base}/register`, code_challenge_methods_supported: ['S256'] }),
    }));
    const mcp = await serve((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [as] }) }));
    const opened: URL[] = [];
    await expect(new OAuthAuthorizer(mcp, interactive(opened), { fetch: recorder }).authorize()).rejects.toThrow(/Refusing the token-endpoint URL/);
    expect(recorder.urls.some((url) => url.includes('/register') || url.includes('169.254'))).toBe(false);
    expect(opened).toEqual([]);
  });

  it.each([
    ['another scheme', 'file:///etc/passwd'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
  ])('refuses a challenge whose resource_metadata is at %s', async (_name, resourceMetadata) => {
    const mcp = await serve(() => ({
      'POST /mcp': (_request, _body, response) => void response.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${resourceMetadata}"` }).end(),
    }));
    const recorder = recordingFetch();
    const wrapped = withOAuth(recorder, interactive([]));
    await expect(wrapped(new URL(`${mcp}/mcp`), { method: 'POST', body: '{}' })).rejects.toThrow(/Refusing the resource-metadata URL/);
    expect(recorder.urls).toEqual([`${mcp}/mcp`]);
  });

  it('follows a metadata redirect only where the policy allows', async () => {
    const recorder = recordingFetch();
    const mcp = await serve(() => ({
      'GET /.well-known/oauth-protected-resource': (_request, _body, response) => void response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam' }).end(),
    }));
    await expect(new OAuthAuthorizer(mcp, interactive([]), { fetch: recorder }).authorize()).rejects.toThrow(/Refusing the resource-metadata URL "http:\/\/169.254.169.254/);
    expect(recorder.urls.some((url) => url.includes('169.254'))).toBe(false);
  });

  it('lets a urlPolicy decide, after the scheme rule', async () => {
    const as = await startAuthorizationServer();
    cleanups.push(() => as.close());
    const mcp = await serve((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [as.issuer] }) }));
    const asked: string[] = [];
    const provider: OAuthClientProvider = {
      ...interactive([]),
      urlPolicy: ({ url, purpose }) => {
        asked.push(purpose);
        return purpose !== 'authorization-server' || url.port !== new URL(as.issuer).port;
      },
    };
    await expect(new OAuthAuthorizer(mcp, provider).authorize()).rejects.toThrow(/the URL policy does not allow loopback targets/);
    expect(asked).toEqual(['authorization-server']);
    expect(as.log.registrations).toBe(0);
  });

  it('classifies literal addresses as URL parsing leaves them', () => {
    const classOf = (url: string): string => addressClassOf(new URL(url).hostname);
    expect(['http://127.0.0.1', 'http://127.9.9.9', 'http://localhost', 'http://[::1]', 'http://2130706433', 'http://[::ffff:127.0.0.1]'].map(classOf)).toEqual(Array(6).fill('loopback'));
    expect(['http://10.1.2.3', 'http://172.16.0.1', 'http://172.31.255.255', 'http://192.168.1.1', 'http://[fc00::1]', 'http://[fdff::1]', 'http://0xa000001'].map(classOf)).toEqual(Array(7).fill('private'));
    expect(['http://169.254.169.254', 'http://[fe80::1]', 'http://[febf::1]', 'http://[::ffff:169.254.169.254]'].map(classOf)).toEqual(Array(4).fill('link-local'));
    expect(['http://0.0.0.0', 'http://[::]'].map(classOf)).toEqual(['unspecified', 'unspecified']);
    expect(['http://172.32.0.1', 'http://8.8.8.8', 'http://[2001:db8::1]', 'http://example.com', 'http://[fec0::1]'].map(classOf)).toEqual(Array(5).fill('public'));
    const remote = new URL('https://mcp.example.com/mcp');
    expect(defaultAuthUrlPolicy({ url: new URL('http://127.0.0.1:9/'), purpose: 'token-endpoint', serverUrl: remote })).toBe(false);
    expect(defaultAuthUrlPolicy({ url: new URL('http://127.0.0.1:9/'), purpose: 'token-endpoint', serverUrl: new URL('http://localhost:8/mcp') })).toBe(true);
    expect(defaultAuthUrlPolicy({ url: new URL('https://10.0.0.2/'), purpose: 'token-endpoint', serverUrl: new URL('https://10.0.0.1/mcp') })).toBe(true);
    expect(defaultAuthUrlPolicy({ url: new URL('https://169.254.169.254/'), purpose: 'token-endpoint', serverUrl: new URL('https://10.0.0.1/mcp') })).toBe(false);
  });
});

describe('answers of unbounded size', () => {
  const huge = (length: number): Route => (_request, _body, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    // Streamed without a Content-Length, so only reading tells the client how long it is.
    response.end(`{"padding":"${'x'.repeat(length)}"}`);
  };

  it('stops reading metadata past 1 MiB and refuses it', async () => {
    const mcp = await serve(() => ({ 'GET /.well-known/oauth-protected-resource': huge(2 * 1024 * 1024) }));
    await expect(new OAuthAuthorizer(mcp, interactive([])).authorize()).rejects.toThrow(/larger than 1048576 bytes/);
  });

  it('stops reading a token answer past 1 MiB and refuses it', async () => {
    const as = await serve((base) => ({
      'GET /.well-known/oauth-authorization-server': json({ issuer: base, token_endpoint: `${base}/token`, code_challenge_methods_supported: ['S256'], grant_types_supported: ['client_credentials'] }),
      'POST /token': huge(2 * 1024 * 1024),
    }));
    const mcp = await serve((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [as] }) }));
    const provider: OAuthClientProvider = { store: new InMemoryOAuthStore(), clientCredentials: { clientId: 'job', clientSecret: 's', issuer: as } } as OAuthClientProvider;
    await expect(new OAuthAuthorizer(mcp, provider).authorize()).rejects.toThrow(/answered with more than 1048576 bytes/);
  });
});
