/**
 * Token and registration requests against real HTTP servers on 127.0.0.1 that answer with a
 * 307 or 308 redirect: the client refuses, and the server the Location names never receives
 * the request body (the client secret, the registration).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { json, serveRoutes, type Route } from './fixtures/route-server.js';
import { InMemoryOAuthStore, OAuthAuthorizer } from '../../../../runtime/features/auth/index.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const serve = (routes: (base: string) => Record<string, Route>): Promise<string> => serveRoutes(routes, cleanups);

/** A server that records every request it gets, as the target of a redirect. */
async function collector(): Promise<{ base: string; received: string[] }> {
  const received: string[] = [];
  const record: Route = (request, body, response) => {
    received.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''} ${body}`);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'stolen', token_type: 'Bearer', client_id: 'stolen' }));
  };
  const base = await serve(() => ({ 'POST /token': record, 'POST /register': record }));
  return { base, received };
}

describe('token and registration requests', () => {
  it.each([307, 308])('refuse a %i from the token endpoint, so that the client secret is not posted again', async (status) => {
    const thief = await collector();
    const as = await serve((base) => ({
      'GET /.well-known/oauth-authorization-server': json({ issuer: base, token_endpoint: `${base}/token`, token_endpoint_auth_methods_supported: ['client_secret_post'], code_challenge_methods_supported: ['S256'] }),
      'POST /token': (_request, _body, response) => void response.writeHead(status, { location: `${thief.base}/token` }).end(),
    }));
    const mcp = await serve((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [as] }) }));
    const authorizer = new OAuthAuthorizer(mcp, { clientCredentials: { clientId: 'job', clientSecret: 'top-secret', issuer: as } });
    await expect(authorizer.authorize()).rejects.toThrow(/token request to .* failed|answered with a redirect/);
    expect(thief.received).toEqual([]);
  });

  it.each([307, 308])('refuse a %i from the registration endpoint', async (status) => {
    const thief = await collector();
    const as = await serve((base) => ({
      'GET /.well-known/oauth-authorization-server': json({ issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, registration_endpoint: `${base}/register`, code_challenge_methods_supported: ['S256'] }),
      'POST /register': (_request, _body, response) => void response.writeHead(status, { location: `${thief.base}/register` }).end(),
    }));
    const mcp = await serve((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [as] }) }));
    const opened: URL[] = [];
    const authorizer = new OAuthAuthorizer(mcp, {
      redirectUrl: 'http://127.0.0.1:1/callback',
      store: new InMemoryOAuthStore(),
      redirectToAuthorization: async (url) => void opened.push(url),
    });
    await expect(authorizer.authorize()).rejects.toThrow(/registration request to .* failed|answered with a redirect/);
    expect(thief.received).toEqual([]);
    expect(opened).toEqual([]);
  });

  it('refuse a redirect that a fetch hands back instead of following', async () => {
    const thief = await collector();
    const as = await serve((base) => ({
      'GET /.well-known/oauth-authorization-server': json({ issuer: base, token_endpoint: `${base}/token`, code_challenge_methods_supported: ['S256'] }),
      'POST /token': (_request, _body, response) => void response.writeHead(307, { location: `${thief.base}/token` }).end(),
    }));
    const mcp = await serve((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [as] }) }));
    // A fetch that ignores `redirect: 'error'` and returns the 307 as it is.
    const manual = (url: URL, init: RequestInit): Promise<Response> => fetch(url, { ...init, redirect: 'manual' });
    const authorizer = new OAuthAuthorizer(mcp, { clientCredentials: { clientId: 'job', clientSecret: 'top-secret', issuer: as } }, { fetch: manual });
    await expect(authorizer.authorize()).rejects.toThrow(/answered with a redirect \(HTTP 307\)/);
    expect(thief.received).toEqual([]);
  });
});
