/**
 * Dynamic Client Registration over real HTTP: metadata is checked (redirect URIs, grant types,
 * auth methods), unknown members are dropped, bodies are bounded, and registrations are rate
 * limited with Retry-After.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDeployment, type Deployment } from './fixtures/deployment.js';

const running: Deployment[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

async function deployment(options: Parameters<typeof startDeployment>[0] = {}): Promise<Deployment> {
  const started = await startDeployment(options);
  running.push(started);
  return started;
}

async function registerRaw(deployed: Deployment, body: string, type = 'application/json'): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(`${deployed.origin}/register`, { method: 'POST', headers: { 'content-type': type }, body });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

describe('the registration endpoint', () => {
  it('registers a client with defaults and drops members it does not know', async () => {
    const deployed = await deployment();
    const answer = await registerRaw(deployed, JSON.stringify({ redirect_uris: ['https://app.example.com/cb'], client_name: 'App', is_admin: true }));
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ client_name: 'App', redirect_uris: ['https://app.example.com/cb'], token_endpoint_auth_method: 'client_secret_basic', grant_types: ['authorization_code'], response_types: ['code'], client_secret_expires_at: 0 });
    expect(answer.body.client_id).toEqual(expect.any(String));
    expect(answer.body.client_secret).toEqual(expect.any(String));
    expect(answer.body).not.toHaveProperty('is_admin');
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses redirect URIs that are not https, loopback http or a private-use scheme', async () => {
    const deployed = await deployment();
    for (const uri of ['http://app.example.com/cb', 'javascript:alert(1)', 'https://app.example.com/cb#frag', 'myapp:/cb', 'relative/cb']) {
      const answer = await registerRaw(deployed, JSON.stringify({ redirect_uris: [uri] }));
      expect(answer.status, uri).toBe(400);
      expect(answer.body.error, uri).toBe('invalid_redirect_uri');
    }
    for (const uri of ['http://127.0.0.1/cb', 'http://[::1]:8080/cb', 'http://localhost:3000/cb', 'com.example.app:/oauth']) {
      expect((await registerRaw(deployed, JSON.stringify({ redirect_uris: [uri] }))).status, uri).toBe(201);
    }
  });

  it('refuses unsupported grants and auth methods, non-JSON and oversized bodies', async () => {
    const deployed = await deployment();
    const refused = async (body: string, type?: string): Promise<unknown> => (await registerRaw(deployed, body, type)).body.error;
    expect(await refused(JSON.stringify({ redirect_uris: ['https://a.example/cb'], grant_types: ['client_credentials'] }))).toBe('invalid_client_metadata');
    expect(await refused(JSON.stringify({ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'private_key_jwt' }))).toBe('invalid_client_metadata');
    expect(await refused(JSON.stringify({ redirect_uris: ['https://a.example/cb'], scope: 'admin' }))).toBe('invalid_client_metadata');
    expect(await refused('[1]')).toBe('invalid_client_metadata');
    expect(await refused('redirect_uris=x', 'application/x-www-form-urlencoded')).toBe('invalid_client_metadata');
    const huge = await registerRaw(deployed, JSON.stringify({ redirect_uris: ['https://a.example/cb'], client_name: 'x'.repeat(70_000) }));
    expect(huge.status).toBe(413);
  });

  it('rate limits registrations and says when to retry', async () => {
    const deployed = await deployment({ server: { registration: { perMinute: 2, burst: 2 } } });
    const body = JSON.stringify({ redirect_uris: ['https://a.example/cb'] });
    expect((await registerRaw(deployed, body)).status).toBe(201);
    expect((await registerRaw(deployed, body)).status).toBe(201);
    const limited = await registerRaw(deployed, body);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    deployed.clock.advance(30_000);
    expect((await registerRaw(deployed, body)).status).toBe(201);
  });

  it('is absent from the metadata when turned off', async () => {
    const deployed = await deployment({ server: { registration: false } });
    expect(deployed.authorizationServer.metadata.registration_endpoint).toBeUndefined();
    const response = await fetch(`${deployed.origin}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
  });
});
