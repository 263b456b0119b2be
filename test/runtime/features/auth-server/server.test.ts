/**
 * mcpgen/auth-server end to end with the built-in provider, over real HTTP on 127.0.0.1: one
 * createMcpHttpHandler serves the MCP endpoint and the authorization server on one origin, and
 * mcpgen's own OAuth client and the official v1 client each run the whole flow against it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1StreamableTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpgenClient, mcpgenFlow, V1MemoryProvider, v1Flow } from './fixtures/clients.js';
import { followAuthorization, startDeployment, type Deployment } from './fixtures/deployment.js';
import { code, exchange, pkce, register } from './fixtures/raw.js';
import { createAuthorizationServer, LocalAuthorizationProvider, type AuthorizationServerProvider } from '../../../../runtime/features/auth-server/index.js';

const running: Deployment[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

async function deployment(): Promise<Deployment> {
  const started = await startDeployment();
  running.push(started);
  return started;
}

/** POSTs a form to the deployment's token endpoint. */
async function tokenRequest(deployed: Deployment, form: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(deployed.authorizationServer.metadata.token_endpoint!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the authorization server on the MCP origin', () => {
  it('serves RFC 8414 metadata naming PKCE S256 only, and the protected resource names it', async () => {
    const deployed = await deployment();
    const metadata = await (await fetch(new URL('/.well-known/oauth-authorization-server', deployed.origin))).json();
    expect(metadata).toMatchObject({
      issuer: deployed.origin,
      authorization_endpoint: `${deployed.origin}/authorize`,
      token_endpoint: `${deployed.origin}/token`,
      registration_endpoint: `${deployed.origin}/register`,
      revocation_endpoint: `${deployed.origin}/revoke`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      authorization_response_iss_parameter_supported: true,
    });
    const resource = await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', deployed.origin))).json();
    expect(resource).toMatchObject({ resource: deployed.mcpUrl.href, authorization_servers: [deployed.origin] });
  });

  it('takes mcpgen\'s client through registration, PKCE, tokens, a call and a rotating refresh', async () => {
    const deployed = await deployment();
    const flow = await mcpgenFlow(deployed);
    expect(flow.first).toEqual({ subject: 'alice', scopes: ['notes:read', 'offline_access'], resource: deployed.mcpUrl.href });
    expect(flow.refreshed.subject).toBe('alice');
    expect(deployed.authorizations).toHaveLength(1);
    const asked = deployed.authorizations[0]!.searchParams;
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('resource')).toBe(deployed.mcpUrl.href);
    // Refreshing rotated both tokens, and the spent refresh token is refused.
    expect(flow.after.tokens.access_token).not.toBe(flow.before.tokens.access_token);
    expect(flow.after.tokens.refresh_token).not.toBe(flow.before.tokens.refresh_token);
    const replay = await tokenRequest(deployed, { grant_type: 'refresh_token', refresh_token: flow.before.tokens.refresh_token!, client_id: flow.client.client_id });
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The replay revoked the grant: the current tokens stopped working too.
    expect(await deployed.authorizationServer.verifier.verifyAccessToken(flow.after.tokens.access_token)).toBeUndefined();
    const current = await tokenRequest(deployed, { grant_type: 'refresh_token', refresh_token: flow.after.tokens.refresh_token!, client_id: flow.client.client_id });
    expect(current.body.error).toBe('invalid_grant');
  });

  it('takes the official v1 client through registration, PKCE, tokens, a call and a refresh', async () => {
    const deployed = await deployment();
    const flow = await v1Flow(deployed);
    expect(flow.first).toEqual({ subject: 'alice', scopes: ['notes:read'], resource: deployed.mcpUrl.href });
    expect(flow.refreshed.subject).toBe('alice');
    expect(flow.callback.searchParams.get('state')).toBe(flow.provider.stateValue);
    expect(flow.callback.searchParams.get('iss')).toBe(deployed.origin);
    expect(flow.provider.information?.client_secret).toEqual(expect.any(String));
    expect(flow.provider.saved?.refresh_token).not.toBe(flow.firstTokens?.refresh_token);
    expect(deployed.authorizations).toHaveLength(1);
  });

  it('lets mcpgen\'s client refuse an authorization response with a forged state', async () => {
    const deployed = await deployment();
    let code: string | null = null;
    const forged = (redirect: URL): URL => {
      code = redirect.searchParams.get('code');
      redirect.searchParams.set('state', 'attacker-state');
      return redirect;
    };
    await expect(mcpgenClient(deployed, forged)).rejects.toThrow(/state/i);
    expect(code).toEqual(expect.any(String));
  });

  it('refuses the official v1 client\'s code exchange with a wrong verifier', async () => {
    const deployed = await deployment();
    const provider = new V1MemoryProvider(deployed);
    const transport = new V1StreamableTransport(deployed.mcpUrl, { authProvider: provider });
    await new V1Client({ name: 'v1-e2e', version: '1.0.0' }).connect(transport).catch(() => undefined);
    const callback = await followAuthorization(provider.authorizationUrl!);
    provider.verifier = 'x'.repeat(43);
    // v1 retries an invalid_grant once with the same code, which is spent by then.
    await expect(transport.finishAuth(callback.searchParams.get('code')!)).rejects.toMatchObject({ errorCode: 'invalid_grant' });
    expect(provider.saved).toBeUndefined();
  });

  it('binds each token to its resource: one issued for another resource is refused by the MCP endpoint', async () => {
    const other = 'https://files.example.com/mcp';
    const deployed = await startDeployment({ otherResources: [other] });
    running.push(deployed);
    const client = await register(deployed);
    const pair = pkce();
    const call = async (resource: string): Promise<number> => {
      const tokens = (await exchange(deployed, client, await code(deployed, client, pair, { resource }), pair.verifier)).body;
      const response = await fetch(deployed.mcpUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token as string}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
      });
      await response.body?.cancel();
      return response.status;
    };
    expect(await call(other)).toBe(401);
    expect(await call(deployed.mcpUrl.href)).toBe(200);
  });

  it('answers Fetch requests on its own, and a provider\'s failing route is answered server_error and reported', async () => {
    const reported: Error[] = [];
    const local = new LocalAuthorizationProvider({ decide: () => ({ deny: {} }) });
    const provider: AuthorizationServerProvider = {
      getClient: (id) => local.getClient(id),
      authorize: (request, context) => local.authorize(request, context),
      exchangeAuthorizationCode: (client, request) => local.exchangeAuthorizationCode(client, request),
      exchangeRefreshToken: (client, request) => local.exchangeRefreshToken(client, request),
      verifyAccessToken: (token) => local.verifyAccessToken(token),
      metadata: { service_documentation: 'https://as.example.com/docs' },
      route: async (request) => {
        if (request.path === '/as/broken') throw new Error('route failed');
        return undefined;
      },
    };
    const server = createAuthorizationServer({ issuer: 'https://as.example.com/as/', resources: 'https://mcp.example.com/mcp', provider, onerror: (error) => reported.push(error) });
    expect(server.issuer).toBe('https://as.example.com/as');
    const metadata = await (await server.fetch(new Request('https://as.example.com/.well-known/oauth-authorization-server/as'))).json();
    // Without registerClient or revokeToken, neither endpoint is offered.
    expect(metadata).toMatchObject({ issuer: 'https://as.example.com/as', token_endpoint: 'https://as.example.com/as/token', service_documentation: 'https://as.example.com/docs' });
    expect(metadata).not.toHaveProperty('registration_endpoint');
    expect(metadata).not.toHaveProperty('revocation_endpoint');
    expect((await server.fetch(new Request('https://as.example.com/as/register', { method: 'POST' }))).status).toBe(404);
    const broken = await server.fetch(new Request('https://as.example.com/as/broken'));
    expect(broken.status).toBe(500);
    expect(await broken.json()).toEqual({ error: 'server_error' });
    expect(reported.map((error) => error.message)).toEqual(['route failed']);
    expect(() => createAuthorizationServer({ issuer: 'http://as.example.com', resources: 'https://mcp.example.com/mcp', provider })).toThrow(/https/);
  });
});
