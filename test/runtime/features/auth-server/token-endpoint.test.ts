/**
 * The token and revocation endpoints' handling of bad requests over real HTTP: method, media
 * type, size, repeated parameters and malformed client credentials are each refused with an
 * OAuth error and never reach the provider; the standalone server answers CORS preflights.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { REDIRECT, startDeployment, type Deployment } from './fixtures/deployment.js';
import { code, pkce, post, register } from './fixtures/raw.js';

const running: Deployment[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

async function deployment(mode: 'local' | 'proxy' = 'local'): Promise<Deployment> {
  const started = await startDeployment({ mode });
  running.push(started);
  return started;
}

describe('the token endpoint', () => {
  it('refuses other methods, media types, oversized bodies and repeated parameters', async () => {
    const deployed = await deployment();
    const token = `${deployed.origin}/token`;
    const get = await fetch(token);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const json = await fetch(token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type":"authorization_code"}' });
    expect(await json.json()).toMatchObject({ error: 'invalid_request' });
    const huge = await fetch(token, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=authorization_code&code=${'x'.repeat(70_000)}` });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: 'invalid_request' });
    const client = await register(deployed);
    const pair = pkce();
    const value = await code(deployed, client, pair);
    const repeated = await fetch(token, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=authorization_code&code=${value}&code=${value}&code_verifier=${pair.verifier}&client_id=${client.client_id}` });
    expect(await repeated.json()).toMatchObject({ error: 'invalid_request', error_description: 'The code parameter is given more than once' });
    const missing = await post(deployed, { grant_type: 'authorization_code', client_id: client.client_id, code_verifier: pair.verifier });
    expect(missing.body).toMatchObject({ error: 'invalid_request', error_description: 'The code parameter is missing' });
    // None of the refusals spent the code.
    expect((await post(deployed, { grant_type: 'authorization_code', code: value, code_verifier: pair.verifier, client_id: client.client_id, redirect_uri: REDIRECT })).status).toBe(200);
  });

  it('refuses malformed and doubled client credentials with invalid_client', async () => {
    const deployed = await deployment();
    const client = await register(deployed, { token_endpoint_auth_method: 'client_secret_post' });
    const form = { grant_type: 'refresh_token', refresh_token: 'r' };
    const malformed = await post(deployed, form, '/token', { authorization: 'Basic !!!' });
    expect(malformed).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const both = await post(deployed, { ...form, client_secret: client.client_secret! }, '/token', { authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}` });
    expect(both.body.error).toBe('invalid_request');
    const wrongMethod = await post(deployed, form, '/token', { authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}` });
    expect(wrongMethod).toMatchObject({ status: 401, body: { error: 'invalid_client', error_description: 'The client must authenticate with client_secret_post' } });
    const unknown = await post(deployed, { ...form, client_id: 'nobody' });
    expect(unknown).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const revokeUnknown = await post(deployed, { token: 't', client_id: 'nobody' }, '/revoke');
    expect(revokeUnknown.status).toBe(401);
  });

  it('answers CORS preflights and lets browser clients read its answers when served alone', async () => {
    const deployed = await deployment('proxy');
    const upstreamToken = deployed.upstream!.metadata.token_endpoint!;
    const preflight = await fetch(upstreamToken, { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    const refused = await fetch(upstreamToken, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://app.example.com' }, body: 'grant_type=x' });
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect((await fetch(`${new URL(upstreamToken).origin}/elsewhere`)).status).toBe(404);
  });
});
