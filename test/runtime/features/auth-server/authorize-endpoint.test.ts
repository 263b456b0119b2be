/**
 * The authorization endpoint's refusals over real HTTP: failures before the redirect URI is
 * trusted are pages (no open redirect), later ones go back to the client with its state, PKCE
 * must be S256, the resource must be the server's, and loopback redirect URIs match on any port.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDeployment, type Deployment } from './fixtures/deployment.js';
import { authorizeUrl, exchange, pkce, register, visit } from './fixtures/raw.js';

const running: Deployment[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

async function deployment(): Promise<Deployment> {
  const started = await startDeployment();
  running.push(started);
  return started;
}

describe('the authorization endpoint', () => {
  it('shows a page instead of redirecting to a redirect URI the client did not register', async () => {
    const deployed = await deployment();
    const client = await register(deployed);
    for (const foreign of ['https://evil.example.com/callback', 'http://127.0.0.1:9/other', 'http://localhost:9/callback', 'http://evil@127.0.0.1:9/callback', 'http://127.0.0.1:9/callback?x=1']) {
      const answer = await visit(authorizeUrl(deployed, client, pkce().challenge, { redirect_uri: foreign }));
      expect(answer.status, foreign).toBe(400);
      expect(answer.location, foreign).toBeUndefined();
      expect(answer.body).toContain('Invalid redirect URI');
    }
    const unknown = await visit(authorizeUrl(deployed, { client_id: 'nobody' }, pkce().challenge));
    expect(unknown).toMatchObject({ status: 400, location: undefined });
    expect(unknown.body).toContain('Unknown client');
  });

  it('accepts a registered loopback redirect URI on any port (RFC 8252)', async () => {
    const deployed = await deployment();
    const client = await register(deployed);
    const answer = await visit(authorizeUrl(deployed, client, pkce().challenge, { redirect_uri: 'http://127.0.0.1:51234/callback' }));
    expect(answer.status).toBe(302);
    expect(answer.location?.origin).toBe('http://127.0.0.1:51234');
    expect(answer.location?.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('refuses plain and missing PKCE back to the client, echoing state and naming the issuer', async () => {
    const deployed = await deployment();
    const client = await register(deployed);
    const pair = pkce();
    for (const params of [{ code_challenge_method: 'plain', code_challenge: pair.verifier }, { code_challenge_method: undefined }, { code_challenge: undefined }]) {
      const answer = await visit(authorizeUrl(deployed, client, pair.challenge, params));
      expect(answer.status).toBe(302);
      const back = answer.location!;
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('error_description')).toMatch(/S256/);
      expect(back.searchParams.get('state')).toBe('st-1');
      expect(back.searchParams.get('iss')).toBe(deployed.origin);
      expect(back.searchParams.has('code')).toBe(false);
    }
  });

  it('refuses other resources, unknown scopes, other response types and repeated parameters', async () => {
    const deployed = await deployment();
    const client = await register(deployed);
    const challenge = pkce().challenge;
    const errorOf = async (params: Record<string, string | undefined>): Promise<string | null | undefined> => (await visit(authorizeUrl(deployed, client, challenge, params))).location?.searchParams.get('error');
    expect(await errorOf({ resource: 'https://other.example.com/mcp' })).toBe('invalid_target');
    expect(await errorOf({ scope: 'notes:write' })).toBe('invalid_scope');
    expect(await errorOf({ response_type: 'token' })).toBe('unsupported_response_type');
    expect(await errorOf({ resource: `${deployed.mcpUrl.href}/` })).toBeNull();
    const put = await fetch(authorizeUrl(deployed, client, challenge), { method: 'PUT', redirect: 'manual' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    const repeated = authorizeUrl(deployed, client, challenge);
    repeated.searchParams.append('state', 'second');
    expect(await visit(repeated)).toMatchObject({ status: 400, location: undefined });
  });

  it('answers a denial with access_denied, and shows a provider\'s page', async () => {
    const denied = await startDeployment({ local: { decide: () => ({ deny: { description: 'The user said no' } }) } });
    running.push(denied);
    const client = await register(denied);
    const back = (await visit(authorizeUrl(denied, client, pkce().challenge))).location!;
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st-1');
    const paged = await startDeployment({ local: { decide: () => ({ page: { html: '<form method="post">Sign in</form>' } }) } });
    running.push(paged);
    const other = await register(paged);
    const page = await visit(authorizeUrl(paged, other, pkce().challenge));
    expect(page).toMatchObject({ status: 200, location: undefined, body: '<form method="post">Sign in</form>' });
  });

  it('takes a consent form posted back, with the request\'s parameters and the form\'s own fields', async () => {
    const consenting = await startDeployment({
      local: {
        decide: (request, { http, params }) => http.method === 'POST' && params.get('consent') === 'yes'
          ? { approve: { subject: params.get('user')!, scopes: request.scopes } }
          : { page: { html: '<form method="post"><button name="consent" value="yes">Allow</button></form>' } },
      },
    });
    running.push(consenting);
    const client = await register(consenting);
    const pair = pkce();
    const url = authorizeUrl(consenting, client, pair.challenge);
    expect((await visit(url)).status).toBe(200);
    const form = new URLSearchParams(url.searchParams);
    form.set('consent', 'yes');
    form.set('user', 'dana');
    const posted = await fetch(`${consenting.origin}/authorize`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form, redirect: 'manual' });
    expect(posted.status).toBe(302);
    const back = new URL(posted.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe('st-1');
    const tokens = (await exchange(consenting, client, back.searchParams.get('code')!, pair.verifier)).body;
    expect(await consenting.authorizationServer.verifier.verifyAccessToken(tokens.access_token as string)).toMatchObject({ subject: 'dana' });
  });
});
