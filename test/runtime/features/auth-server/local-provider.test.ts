/**
 * The built-in provider's grants over real HTTP: codes are one-time (a replay revokes what the
 * code issued), bound to the client, redirect URI, verifier and resource, and dead after 60 s;
 * refresh tokens rotate and stay within their grant; revocation ends a grant.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthInfo } from '../../../../runtime/features/auth/index.js';
import { LocalAuthorizationProvider, type AccessTokenFormat } from '../../../../runtime/features/auth-server/index.js';
import { mcpgenClient, whoamiOf } from './fixtures/clients.js';
import { REDIRECT, startDeployment, type Deployment } from './fixtures/deployment.js';
import { code, exchange, pkce, post, register } from './fixtures/raw.js';

const running: Deployment[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

async function deployment(): Promise<Deployment> {
  const started = await startDeployment();
  running.push(started);
  return started;
}

describe('authorization codes', () => {
  it('are one-time: a second exchange is refused and revokes the tokens of the first', async () => {
    const deployed = await deployment();
    const client = await register(deployed);
    const pair = pkce();
    const value = await code(deployed, client, pair);
    const first = await exchange(deployed, client, value, pair.verifier);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'notes:read' });
    const accessToken = first.body.access_token as string;
    expect(await deployed.authorizationServer.verifier.verifyAccessToken(accessToken)).toMatchObject({ subject: 'alice', resource: deployed.mcpUrl.href, clientId: client.client_id });
    const second = await exchange(deployed, client, value, pair.verifier);
    expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await deployed.authorizationServer.verifier.verifyAccessToken(accessToken)).toBeUndefined();
    const refresh = await post(deployed, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string, client_id: client.client_id });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('refuse a wrong verifier, another client, another redirect URI and another resource', async () => {
    const deployed = await deployment();
    const client = await register(deployed);
    const other = await register(deployed);
    const pair = pkce();
    expect((await exchange(deployed, client, await code(deployed, client, pair), pkce().verifier)).body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/code_verifier/) });
    expect((await exchange(deployed, other, await code(deployed, client, pair), pair.verifier)).body.error).toBe('invalid_grant');
    expect((await exchange(deployed, client, await code(deployed, client, pair), pair.verifier, { redirect_uri: 'http://127.0.0.1:9/elsewhere' })).body.error).toBe('invalid_grant');
    expect((await exchange(deployed, client, await code(deployed, client, pair), pair.verifier, { resource: 'https://other.example.com/mcp' })).body.error).toBe('invalid_target');
    expect((await exchange(deployed, client, await code(deployed, client, pair), 'short')).body.error).toBe('invalid_request');
    // Each refused code was spent: none is left to exchange.
    expect((await exchange(deployed, client, 'never-issued', pair.verifier)).body.error).toBe('invalid_grant');
  });

  it('expire after 60 s', async () => {
    const deployed = await deployment();
    const client = await register(deployed);
    const pair = pkce();
    const late = await code(deployed, client, pair);
    const inTime = await code(deployed, client, pair);
    deployed.clock.advance(59_000);
    expect((await exchange(deployed, client, inTime, pair.verifier)).status).toBe(200);
    deployed.clock.advance(1_000);
    expect((await exchange(deployed, client, late, pair.verifier)).body).toMatchObject({ error: 'invalid_grant', error_description: 'The authorization code has expired' });
  });

  it('cannot be made to live longer than 60 s', () => {
    expect(() => new LocalAuthorizationProvider({ decide: () => ({ deny: {} }), codeTtlSeconds: 61 })).toThrow(/codeTtlSeconds/);
  });
});

describe('refresh tokens and revocation', () => {
  it('rotate, refuse a wider scope or another resource, and a revoked refresh token ends its access tokens', async () => {
    const deployed = await deployment();
    const client = await register(deployed);
    const pair = pkce();
    const tokens = (await exchange(deployed, client, await code(deployed, client, pair, { scope: 'notes:read offline_access' }), pair.verifier)).body;
    const wider = await post(deployed, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: client.client_id, scope: 'notes:read notes:write' });
    expect(wider.body.error).toBe('invalid_scope');
    const replaced = (await exchange(deployed, client, await code(deployed, client, pair, { scope: 'notes:read offline_access' }), pair.verifier)).body;
    const narrower = await post(deployed, { grant_type: 'refresh_token', refresh_token: replaced.refresh_token as string, client_id: client.client_id, scope: 'notes:read' });
    expect(narrower.body).toMatchObject({ scope: 'notes:read', refresh_token: expect.any(String) });
    expect(narrower.body.refresh_token).not.toBe(replaced.refresh_token);
    const foreign = await post(deployed, { grant_type: 'refresh_token', refresh_token: narrower.body.refresh_token as string, client_id: client.client_id, resource: 'https://other.example.com/mcp' });
    expect(foreign.body.error).toBe('invalid_target');

    const fresh = (await exchange(deployed, client, await code(deployed, client, pair), pair.verifier)).body;
    const revoked = await post(deployed, { token: fresh.refresh_token as string, client_id: client.client_id }, '/revoke');
    expect(revoked.status).toBe(200);
    expect(await deployed.authorizationServer.verifier.verifyAccessToken(fresh.access_token as string)).toBeUndefined();
    expect((await post(deployed, { token: 'unknown-token', client_id: client.client_id }, '/revoke')).status).toBe(200);
  });
});

describe('client authentication', () => {
  it('checks a confidential client\'s secret and refuses a public client presenting one', async () => {
    const deployed = await deployment();
    const confidential = await register(deployed, { token_endpoint_auth_method: 'client_secret_basic' });
    expect(confidential.client_secret).toEqual(expect.any(String));
    const pair = pkce();
    const basic = (secret: string): Record<string, string> => ({ authorization: `Basic ${Buffer.from(`${confidential.client_id}:${secret}`).toString('base64')}` });
    const form = async (): Promise<Record<string, string>> => ({ grant_type: 'authorization_code', code: await code(deployed, confidential, pair), code_verifier: pair.verifier, redirect_uri: REDIRECT });
    const wrong = await post(deployed, await form(), '/token', basic('wrong'));
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const missing = await post(deployed, { ...(await form()), client_id: confidential.client_id });
    expect(missing).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect((await post(deployed, await form(), '/token', basic(confidential.client_secret!))).status).toBe(200);
    const publicClient = await register(deployed);
    const withSecret = await post(deployed, { grant_type: 'authorization_code', code: await code(deployed, publicClient, pair), code_verifier: pair.verifier, client_id: publicClient.client_id, client_secret: 'made-up' });
    expect(withSecret.body.error).toBe('invalid_client');
    expect((await post(deployed, { grant_type: 'password', client_id: publicClient.client_id })).body.error).toBe('unsupported_grant_type');
  });
});

describe('access tokens in a format of your own', () => {
  it('are minted and verified by it, carry the approval\'s extra, and reach the MCP handler', async () => {
    const key = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    const encoder = new TextEncoder();
    const accessTokens: AccessTokenFormat = {
      async issue(info) {
        const body = Buffer.from(JSON.stringify(info)).toString('base64url');
        const signature = Buffer.from(await crypto.subtle.sign('HMAC', key, encoder.encode(body))).toString('base64url');
        return `${body}.${signature}`;
      },
      async verify(token) {
        const [body, signature] = token.split('.');
        if (body === undefined || signature === undefined) return undefined;
        if (!(await crypto.subtle.verify('HMAC', key, Buffer.from(signature, 'base64url'), encoder.encode(body)))) return undefined;
        return { ...(JSON.parse(Buffer.from(body, 'base64url').toString()) as AuthInfo), token };
      },
    };
    const deployed = await startDeployment({ local: { accessTokens, decide: (request) => ({ approve: { subject: 'erin', scopes: request.scopes, extra: { tenant: 't-1' } } }) } });
    running.push(deployed);
    const { client, close } = await mcpgenClient(deployed);
    try {
      expect(whoamiOf(await client.callTool({ name: 'whoami', arguments: {} })).subject).toBe('erin');
    } finally {
      await close();
    }
    const raw = await register(deployed);
    const pair = pkce();
    const tokens = (await exchange(deployed, raw, await code(deployed, raw, pair), pair.verifier)).body;
    const info = await deployed.authorizationServer.verifier.verifyAccessToken(tokens.access_token as string);
    expect(info).toMatchObject({ subject: 'erin', resource: deployed.mcpUrl.href, extra: { tenant: 't-1' }, token: tokens.access_token });
    expect(await deployed.authorizationServer.verifier.verifyAccessToken(`${tokens.access_token as string}x`)).toBeUndefined();
  });
});

describe('pre-registered clients', () => {
  it('are known without registration, and one with an unusable redirect URI gets a page and is reported', async () => {
    const reported: Error[] = [];
    const known = { client_id: 'known-app', client_secret: 'known-secret', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_post' as const, grant_types: ['authorization_code'], response_types: ['code'] };
    const broken = { ...known, client_id: 'broken-app', redirect_uris: ['not a url'] };
    const deployed = await startDeployment({ local: { clients: [known, broken] }, server: { onerror: (error) => reported.push(error) } });
    running.push(deployed);
    const pair = pkce();
    const tokens = await exchange(deployed, known, await code(deployed, known, pair), pair.verifier, { client_secret: 'known-secret' });
    expect(tokens.body).toMatchObject({ token_type: 'Bearer' });
    expect(tokens.body.refresh_token).toBeUndefined();
    const failed = await fetch(`${deployed.origin}/authorize?response_type=code&client_id=broken-app&code_challenge=${pair.challenge}&code_challenge_method=S256`, { redirect: 'manual' });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('location')).toBeNull();
    expect(await failed.text()).toContain('Misconfigured client');
    expect(reported.map((error) => error.message)).toEqual(['The client broken-app has the redirect URI "not a url", which is not a URL']);
  });
});
