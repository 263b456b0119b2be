/**
 * Configured credentials go only to the authorization server they are for: an MCP server on
 * 127.0.0.1 whose metadata names another issuer (a real HTTP server recording what it gets)
 * receives neither the client secret nor the workload's JWT.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { json, serveRoutes, type Route } from './fixtures/route-server.js';
import { OAuthAuthorizer, type OAuthClientProvider } from '../../../../runtime/features/auth/index.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const serve = (routes: (base: string) => Record<string, Route>): Promise<string> => serveRoutes(routes, cleanups);

/** An authorization server that issues a token to anyone and records each token request. */
async function authorizationServer(): Promise<{ issuer: string; requests: string[] }> {
  const requests: string[] = [];
  const issuer = await serve((base) => ({
    'GET /.well-known/oauth-authorization-server': json({ issuer: base, token_endpoint: `${base}/token`, code_challenge_methods_supported: ['S256'] }),
    'POST /token': (request, body, response) => {
      requests.push(`${request.headers.authorization ?? ''} ${body}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'issued', token_type: 'Bearer' }));
    },
  }));
  return { issuer, requests };
}

/** An MCP server whose Protected Resource Metadata names `issuer`. */
async function mcpServerNaming(issuer: string): Promise<string> {
  return await serve((base) => ({ 'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [issuer] }) }));
}

describe('the issuer allowlist', () => {
  it('sends a client secret only to the issuer it was configured for', async () => {
    const trusted = await authorizationServer();
    const attacker = await authorizationServer();
    const mcp = await mcpServerNaming(attacker.issuer);
    const provider: OAuthClientProvider = { clientCredentials: { clientId: 'job', clientSecret: 'top-secret', issuer: trusted.issuer } };
    await expect(new OAuthAuthorizer(mcp, provider).authorize()).rejects.toThrow(
      new RegExp(`names the authorization server "${attacker.issuer}", which is not an issuer the clientCredentials credentials are for`),
    );
    expect(attacker.requests).toEqual([]);

    const honest = await mcpServerNaming(trusted.issuer);
    expect(await new OAuthAuthorizer(honest, provider).authorize()).toBe('issued');
    expect(trusted.requests).toEqual([`Basic ${btoa('job:top-secret')} grant_type=client_credentials&resource=${encodeURIComponent(honest)}`]);
  });

  it('without an issuer, trusts only an authorization server at the MCP server\'s own origin', async () => {
    const elsewhere = await authorizationServer();
    const mcp = await mcpServerNaming(elsewhere.issuer);
    await expect(new OAuthAuthorizer(mcp, { clientCredentials: { clientId: 'job', clientSecret: 'top-secret' } }).authorize()).rejects.toThrow(/clientCredentials\.issuer: not configured/);
    expect(elsewhere.requests).toEqual([]);

    let tokenRequests = 0;
    const combined = await serve((base) => ({
      'GET /.well-known/oauth-protected-resource': json({ resource: base, authorization_servers: [base] }),
      'GET /.well-known/oauth-authorization-server': json({ issuer: base, token_endpoint: `${base}/token`, code_challenge_methods_supported: ['S256'] }),
      'POST /token': (_request, _body, response) => {
        tokenRequests++;
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'same-origin', token_type: 'Bearer' }));
      },
    }));
    expect(await new OAuthAuthorizer(combined, { clientCredentials: { clientId: 'job', clientSecret: 'top-secret' } }).authorize()).toBe('same-origin');
    expect(tokenRequests).toBe(1);
  });

  it('does not ask for, nor send, a workload JWT for another issuer', async () => {
    const trusted = await authorizationServer();
    const attacker = await authorizationServer();
    const mcp = await mcpServerNaming(attacker.issuer);
    let assertions = 0;
    const provider: OAuthClientProvider = { jwtBearer: { issuer: [trusted.issuer], assertion: () => `workload-jwt-${++assertions}` } };
    await expect(new OAuthAuthorizer(mcp, provider).authorize()).rejects.toThrow(/not an issuer the jwtBearer credentials are for/);
    expect(assertions).toBe(0);
    expect(attacker.requests).toEqual([]);
    expect(await new OAuthAuthorizer(await mcpServerNaming(trusted.issuer), provider).authorize()).toBe('issued');
    expect(trusted.requests[0]).toContain('assertion=workload-jwt-1');
  });

  it('needs no list for private_key_jwt, whose assertion is addressed to the issuer', async () => {
    const other = await authorizationServer();
    const mcp = await mcpServerNaming(other.issuer);
    const { privateKey } = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    expect(await new OAuthAuthorizer(mcp, { clientCredentials: { clientId: 'job', privateKey } }).authorize()).toBe('issued');
    expect(other.requests).toHaveLength(1);
  });
});
