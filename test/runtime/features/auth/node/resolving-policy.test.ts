/**
 * The resolving URL policy against hostile metadata served over real HTTP on 127.0.0.1: a name
 * that resolves to a private, link-local or unspecified address is refused before anything is
 * sent to it, where the default policy (which reads no DNS) lets it through.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryOAuthStore, OAuthAuthorizer, type OAuthClientProvider } from '../../../../../runtime/features/auth/index.js';
import { resolvingAuthUrlPolicy, type HostLookup } from '../../../../../runtime/node.js';
import { json, recordingFetch, serveRoutes, type Route } from '../fixtures/route-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Names of the test and what they resolve to. */
const zone: Record<string, string[]> = {
  'metadata.attacker.test': ['169.254.169.254'],
  'router.attacker.test': ['203.0.113.9', '192.168.1.1'],
  'mapped.attacker.test': ['::ffff:10.0.0.5'],
  'any.attacker.test': ['0.0.0.0'],
  'as.example.test': ['203.0.113.10', '2001:db8::10'],
};
const lookup: HostLookup = async (hostname) => {
  const addresses = zone[hostname];
  if (addresses === undefined) throw new Error(`ENOTFOUND ${hostname}`);
  return addresses;
};

function provider(policy: OAuthClientProvider['urlPolicy']): OAuthClientProvider {
  return { redirectUrl: 'http://127.0.0.1:1/callback', store: new InMemoryOAuthStore(), redirectToAuthorization: async () => undefined, urlPolicy: policy };
}

describe('resolvingAuthUrlPolicy', () => {
  it.each([
    ['the cloud metadata address', 'metadata.attacker.test'],
    ['a private address among public ones', 'router.attacker.test'],
    ['an IPv4-mapped private IPv6 address', 'mapped.attacker.test'],
    ['the unspecified address', 'any.attacker.test'],
  ])('refuses an authorization server whose name resolves to %s, sending it nothing', async (_name, host) => {
    const mcp = await serveRoutes((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [`https://${host}`] }) }) as Record<string, Route>, cleanups);
    const recorder = recordingFetch();
    await expect(new OAuthAuthorizer(mcp, provider(resolvingAuthUrlPolicy({ lookup })), { fetch: recorder }).authorize()).rejects.toThrow(/Refusing the authorization-server URL/);
    expect(recorder.urls.filter((url) => url.includes(host))).toEqual([]);
    // The default policy reads no DNS: the same metadata makes it try the name.
    const unguarded = recordingFetch();
    await expect(new OAuthAuthorizer(mcp, provider(undefined), { fetch: unguarded }).authorize()).rejects.toThrow();
    expect(unguarded.urls.some((url) => url.includes(host))).toBe(true);
  });

  it('lets a name with public addresses through, and judges the browser launch by the URL as written', async () => {
    const policy = resolvingAuthUrlPolicy({ lookup });
    const serverUrl = new URL('https://mcp.example.test/mcp');
    expect(await policy({ url: new URL('https://as.example.test/'), purpose: 'authorization-server', serverUrl })).toBe(true);
    expect(await policy({ url: new URL('https://metadata.attacker.test/authorize'), purpose: 'browser', serverUrl })).toBe(true);
    expect(await policy({ url: new URL('https://metadata.attacker.test/token'), purpose: 'token-endpoint', serverUrl })).toBe(false);
    // A server on a private network may use an authorization server on that network.
    expect(await policy({ url: new URL('https://router.attacker.test/'), purpose: 'authorization-server', serverUrl: new URL('http://192.168.1.20/mcp') })).toBe(true);
  });

  it('resolves with the system resolver by default', async () => {
    const policy = resolvingAuthUrlPolicy();
    // localhost is loopback as written; a name that does not resolve is left to fail at the request.
    expect(await policy({ url: new URL('http://localhost:1/'), purpose: 'token-endpoint', serverUrl: new URL('https://mcp.example.com/') })).toBe(false);
    expect(await policy({ url: new URL('https://does-not-exist.invalid/'), purpose: 'token-endpoint', serverUrl: new URL('https://mcp.example.com/') })).toBe(true);
  });
});
