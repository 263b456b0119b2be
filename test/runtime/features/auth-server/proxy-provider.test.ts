/**
 * The proxy provider end to end over real HTTP on 127.0.0.1: the MCP origin's authorization
 * server forwards registration, authorization, tokens and revocation to a second mcpgen
 * authorization server (the upstream, on its own port and issuer path), and both mcpgen's
 * client and the official v1 client complete the flow through it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mcpgenFlow, v1Flow } from './fixtures/clients.js';
import { followAuthorization, REDIRECT, startDeployment, type Deployment } from './fixtures/deployment.js';
import { authorizeUrl, exchange, pkce, post, register, visit } from './fixtures/raw.js';
import { createAuthorizationServer, InMemoryAuthorizationStore, ProxyAuthorizationProvider } from '../../../../runtime/features/auth-server/index.js';

const running: Deployment[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

async function deployment(): Promise<Deployment> {
  const started = await startDeployment({ mode: 'proxy' });
  running.push(started);
  return started;
}

describe('the proxy provider', () => {
  it('takes mcpgen\'s client through the upstream: registration, PKCE, tokens, a call and a refresh', async () => {
    const deployed = await deployment();
    const flow = await mcpgenFlow(deployed);
    expect(flow.first).toEqual({ subject: 'alice', scopes: ['notes:read', 'offline_access'], resource: deployed.mcpUrl.href });
    expect(flow.refreshed.subject).toBe('alice');
    expect(flow.after.tokens.refresh_token).not.toBe(flow.before.tokens.refresh_token);
    // The tokens are the upstream's: it verifies them itself.
    expect(await deployed.upstream!.verifier.verifyAccessToken(flow.after.tokens.access_token)).toMatchObject({ subject: 'alice', resource: deployed.mcpUrl.href });
    // The client registered through the proxy: the upstream knows its id.
    expect(flow.client.client_id).toEqual(expect.any(String));
  });

  it('takes the official v1 client through the upstream, with its secret forwarded', async () => {
    const deployed = await deployment();
    const flow = await v1Flow(deployed);
    expect(flow.first).toEqual({ subject: 'alice', scopes: ['notes:read'], resource: deployed.mcpUrl.href });
    expect(flow.refreshed.subject).toBe('alice');
    // The client sees one authorization server: its own state and the proxy's iss.
    expect(flow.callback.searchParams.get('state')).toBe(flow.provider.stateValue);
    expect(flow.callback.searchParams.get('iss')).toBe(deployed.origin);
  });

  it('sends the user upstream with its own state and callback, never the client\'s redirect URI', async () => {
    const deployed = await deployment();
    const register = await fetch(`${deployed.origin}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }) });
    const client = (await register.json()) as { client_id: string };
    const authorize = new URL(`${deployed.origin}/authorize`);
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    for (const [name, value] of Object.entries({ response_type: 'code', client_id: client.client_id, redirect_uri: 'http://127.0.0.1:9/callback', code_challenge: challenge, code_challenge_method: 'S256', state: 'client-state' })) authorize.searchParams.set(name, value);
    const first = await fetch(authorize, { redirect: 'manual' });
    const upstream = new URL(first.headers.get('location')!);
    expect(upstream.href.startsWith(`${deployed.upstream!.issuer}/authorize`)).toBe(true);
    expect(upstream.searchParams.get('redirect_uri')).toBe(`${deployed.origin}/callback`);
    expect(upstream.searchParams.get('state')).not.toBe('client-state');
    expect(upstream.searchParams.get('code_challenge')).toBe(challenge);
    expect(upstream.searchParams.get('resource')).toBe(deployed.mcpUrl.href);
    const back = await followAuthorization(authorize);
    expect(back.searchParams.get('state')).toBe('client-state');
    expect(back.searchParams.get('code')).toEqual(expect.any(String));
    // A callback with a state the proxy never issued is shown as a page, not redirected.
    const forged = await fetch(`${deployed.origin}/callback?code=x&state=forged`, { redirect: 'manual' });
    expect(forged.status).toBe(400);
    expect(forged.headers.get('location')).toBeNull();
  });

  it('passes the upstream\'s refusals on: a reused code revokes its tokens upstream, wrong verifiers fail', async () => {
    const deployed = await deployment();
    const client = await register(deployed);
    const pair = pkce();
    const code = async (): Promise<string> => (await followAuthorization(authorizeUrl(deployed, client, pair.challenge))).searchParams.get('code')!;
    const first = await code();
    const tokens = await exchange(deployed, client, first, pair.verifier);
    expect(tokens.status).toBe(200);
    expect(await deployed.authorizationServer.verifier.verifyAccessToken(tokens.body.access_token as string)).toMatchObject({ subject: 'alice' });
    const again = await exchange(deployed, client, first, pair.verifier);
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await deployed.upstream!.verifier.verifyAccessToken(tokens.body.access_token as string)).toBeUndefined();
    expect((await exchange(deployed, client, await code(), pkce().verifier)).body.error).toBe('invalid_grant');
    // A code is exchanged only by the client it was issued to, with its redirect URI.
    const other = await register(deployed);
    expect((await exchange(deployed, other, await code(), pair.verifier)).body.error).toBe('invalid_grant');
    expect((await exchange(deployed, client, await code(), pair.verifier, { redirect_uri: 'http://127.0.0.1:9/elsewhere' })).body.error).toBe('invalid_grant');
  });

  it('checks redirect URIs and PKCE itself before sending anyone upstream, and forwards revocation', async () => {
    const deployed = await deployment();
    const client = await register(deployed);
    const pair = pkce();
    const foreign = await visit(authorizeUrl(deployed, client, pair.challenge, { redirect_uri: 'https://evil.example.com/cb' }));
    expect(foreign).toMatchObject({ status: 400, location: undefined });
    const plain = await visit(authorizeUrl(deployed, client, pair.verifier, { code_challenge_method: 'plain' }));
    expect(plain.location?.searchParams.get('error')).toBe('invalid_request');
    expect(plain.location?.href.startsWith(REDIRECT)).toBe(true);
    const value = (await followAuthorization(authorizeUrl(deployed, client, pair.challenge, { scope: 'notes:read offline_access' }))).searchParams.get('code')!;
    const tokens = (await exchange(deployed, client, value, pair.verifier)).body;
    expect((await post(deployed, { token: tokens.refresh_token as string, client_id: client.client_id }, '/revoke')).status).toBe(200);
    expect(await deployed.upstream!.verifier.verifyAccessToken(tokens.access_token as string)).toBeUndefined();
  });

  it('keeps the clients registered through it in its store, where a restarted proxy finds them', async () => {
    const store = new InMemoryAuthorizationStore();
    const deployed = await startDeployment({ mode: 'proxy', proxyStore: store });
    running.push(deployed);
    const client = await register(deployed);
    expect(await store.getClient(client.client_id)).toMatchObject({ redirect_uris: [REDIRECT] });
    const upstream = deployed.upstream!;
    const restarted = createAuthorizationServer({
      issuer: deployed.origin,
      resources: [deployed.mcpUrl.href],
      provider: await ProxyAuthorizationProvider.discover(upstream.issuer, { verifyAccessToken: (token) => upstream.verifier.verifyAccessToken(token), store }),
    });
    const authorize = authorizeUrl(deployed, client, pkce().challenge);
    const answer = await restarted.fetch(new Request(authorize, { redirect: 'manual' }));
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')?.startsWith(`${upstream.issuer}/authorize`)).toBe(true);
  });
});
