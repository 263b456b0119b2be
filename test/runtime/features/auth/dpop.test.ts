/**
 * DPoP on the client (RFC 9449, SEP-1932): proofs checked by node:crypto, the token endpoint's
 * and the resource server's nonce challenges, and withOAuth presenting bound tokens, against
 * small HTTP peers on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveRoutes, type Route } from './fixtures/route-server.js';
import { DpopProver, generateDpopKeyPair, InvalidDpopProofError, verifyDpopProof, withOAuth, type OAuthClientProvider } from '../../../../runtime/features/auth/index.js';
import { requestToken } from '../../../../runtime/features/auth/endpoints.js';
import { checkDpopProof, sha256 } from './fixtures/dpop.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const serve = (routes: (base: string) => Record<string, Route>): Promise<string> => serveRoutes(routes, cleanups);

function send(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
}

const header = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

describe('DpopProver', () => {
  it('signs proofs that verify with the public key in their header, with the RFC 9449 claims', async () => {
    const prover = new DpopProver();
    const url = 'https://mcp.example.com/mcp?session=1#top';
    const first = checkDpopProof(await prover.proof({ method: 'post', url, accessToken: 'token-1' }), { method: 'POST', url, accessToken: 'token-1' });
    const second = checkDpopProof(await prover.proof({ method: 'GET', url }), { method: 'GET', url });
    expect(first.payload.htu).toBe('https://mcp.example.com/mcp');
    expect(first.payload.ath).toBe(sha256('token-1'));
    expect(second.payload.ath).toBeUndefined();
    expect(second.payload.jti).not.toBe(first.payload.jti);
    expect(first.header.jwk).toEqual({ crv: 'P-256', kty: 'EC', x: expect.any(String), y: expect.any(String) });
    expect(await prover.thumbprint()).toBe(first.jkt);
    expect(second.jkt).toBe(first.jkt);
  });

  it('puts the nonce a server supplied into later proofs to that server only', async () => {
    const prover = new DpopProver({ keyPair: generateDpopKeyPair() });
    const supplied = new Response(null, { status: 400, headers: { 'dpop-nonce': 'n-1' } });
    expect(prover.observe('https://as.example.com/token', supplied)).toBe(true);
    expect(prover.observe('https://as.example.com/other', supplied)).toBe(false);
    const toAs = checkDpopProof(await prover.proof({ method: 'POST', url: 'https://as.example.com/token' }), { method: 'POST', url: 'https://as.example.com/token' });
    const toRs = checkDpopProof(await prover.proof({ method: 'POST', url: 'https://rs.example.com/mcp' }), { method: 'POST', url: 'https://rs.example.com/mcp' });
    expect(toAs.payload.nonce).toBe('n-1');
    expect(toRs.payload.nonce).toBeUndefined();
  });

  it('verifies its own proofs with verifyDpopProof, and refuses tampered or mismatched ones', async () => {
    const prover = new DpopProver();
    const url = 'https://mcp.example.com/mcp';
    const proof = await prover.proof({ method: 'POST', url, accessToken: 't', nonce: 'n' });
    expect(await verifyDpopProof(proof, { method: 'POST', url: `${url}?q=1`, accessToken: 't', nonce: 'n' })).toMatchObject({ jkt: await prover.thumbprint(), nonce: 'n' });
    const [head, body, signature] = proof.split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), htm: 'GET' })).toString('base64url');
    const refusals = [
      verifyDpopProof(`${head}.${forged}.${signature}`, { method: 'GET', url }),
      verifyDpopProof(proof, { method: 'POST', url, accessToken: 'other' }),
      verifyDpopProof(proof, { method: 'PUT', url }),
      verifyDpopProof(proof, { method: 'POST', url: 'https://mcp.example.com/other' }),
      verifyDpopProof(proof, { method: 'POST', url, nonce: 'newer' }),
    ];
    const messages = await Promise.all(refusals.map((refusal) => refusal.then(() => 'accepted', (error: unknown) => (error instanceof InvalidDpopProofError ? `${error.message}${error.nonce ? ' (nonce)' : ''}` : String(error)))));
    expect(messages).toEqual([
      "The DPoP proof's signature does not verify",
      "The DPoP proof's ath does not match the access token",
      "The DPoP proof's htm is not the request method",
      "The DPoP proof's htu is not the request URL",
      'The DPoP proof lacks the current nonce (nonce)',
    ]);
  });

  it('refuses keys DPoP cannot use', async () => {
    const p521 = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-521' }, false, ['sign', 'verify']);
    await expect(new DpopProver({ keyPair: p521 }).proof({ method: 'GET', url: 'https://x.example/' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('DPoP at the token endpoint', () => {
  it('retries once with the nonce of a use_dpop_nonce refusal, with a fresh proof', async () => {
    const proofs: string[] = [];
    const as = await serve((base) => ({
      'POST /token': (request, _body, response) => {
        const proof = checkDpopProof(header(request, 'dpop'), { method: 'POST', url: `${base}/token` });
        proofs.push(proof.payload.jti);
        if (proof.payload.nonce !== 'as-nonce') send(response, 400, { error: 'use_dpop_nonce' }, { 'dpop-nonce': 'as-nonce' });
        else send(response, 200, { access_token: 'bound', token_type: 'DPoP' });
      },
    }));
    const tokens = await requestToken({
      endpoint: `${as}/token`,
      params: { grant_type: 'client_credentials' },
      client: { client_id: 'job', client_secret: 'secret' },
      method: 'client_secret_basic',
      dpop: new DpopProver(),
      fetch: (url, init) => fetch(url, init),
    });
    expect(tokens).toEqual({ access_token: 'bound', token_type: 'DPoP' });
    expect(proofs).toHaveLength(2);
    expect(new Set(proofs).size).toBe(2);
  });

  it('gives up after one retry, and does not retry a refusal that brings no new nonce', async () => {
    let requests = 0;
    let nonce = 0;
    const as = await serve(() => ({
      'POST /token': (_request, _body, response) => {
        requests++;
        send(response, 400, { error: 'use_dpop_nonce' }, { 'dpop-nonce': `n-${++nonce}` });
      },
      'POST /same': (_request, _body, response) => {
        requests++;
        send(response, 400, { error: 'use_dpop_nonce' }, { 'dpop-nonce': 'same' });
      },
    }));
    const base = { params: { grant_type: 'client_credentials' }, client: { client_id: 'job' }, method: 'none' as const, fetch: (url: URL, init: RequestInit) => fetch(url, init) };
    await expect(requestToken({ ...base, endpoint: `${as}/token`, dpop: new DpopProver() })).rejects.toMatchObject({ error: 'use_dpop_nonce' });
    expect(requests).toBe(2);
    requests = 0;
    const prover = new DpopProver();
    prover.observe(`${as}/same`, new Response(null, { headers: { 'dpop-nonce': 'same' } }));
    await expect(requestToken({ ...base, endpoint: `${as}/same`, dpop: prover })).rejects.toMatchObject({ error: 'use_dpop_nonce' });
    expect(requests).toBe(1);
  });
});

/**
 * An authorization server issuing DPoP-bound tokens (or Bearer ones with `bearerOnly`) by
 * client credentials, and a resource server that wants the DPoP scheme, a valid proof bound to
 * the token's key and its nonce.
 */
async function dpopPeers(options: { bearerOnly?: boolean } = {}) {
  const log = { tokenRequests: [] as { nonce: string | undefined; proof: boolean }[], resourceRequests: [] as string[] };
  const bound = new Map<string, string>();
  const as = await serve((base) => ({
    'GET /.well-known/oauth-authorization-server': (_request, _body, response) =>
      send(response, 200, { issuer: base, token_endpoint: `${base}/token`, dpop_signing_alg_values_supported: ['ES256'] }),
    'POST /token': (request, _body, response) => {
      const dpop = header(request, 'dpop');
      if (options.bearerOnly === true || dpop === undefined) {
        log.tokenRequests.push({ nonce: undefined, proof: dpop !== undefined });
        send(response, 200, { access_token: 'plain', token_type: 'Bearer' });
        return;
      }
      const proof = checkDpopProof(dpop, { method: 'POST', url: `${base}/token` });
      log.tokenRequests.push({ nonce: proof.payload.nonce, proof: true });
      if (proof.payload.nonce !== 'as-nonce') {
        send(response, 400, { error: 'use_dpop_nonce' }, { 'dpop-nonce': 'as-nonce' });
        return;
      }
      const token = `bound-${bound.size + 1}`;
      bound.set(token, proof.jkt);
      send(response, 200, { access_token: token, token_type: 'DPoP', expires_in: 3600 });
    },
  }));
  const rs = await serve((base) => ({
    'GET /.well-known/oauth-protected-resource/mcp': (_request, _body, response) => send(response, 200, { resource: `${base}/mcp`, authorization_servers: [as] }),
    'POST /mcp': (request, _body, response) => {
      const authorization = header(request, 'authorization') ?? '';
      log.resourceRequests.push(authorization.split(' ')[0] ?? '');
      const challenge = `DPoP algs="ES256", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`;
      if (authorization === '') return send(response, 401, { error: 'unauthorized' }, { 'www-authenticate': challenge });
      if (authorization === 'Bearer plain') return send(response, 200, { ok: 'bearer' });
      const token = authorization.slice('DPoP '.length);
      const proof = checkDpopProof(header(request, 'dpop'), { method: 'POST', url: `${base}/mcp`, accessToken: token });
      if (bound.get(token) !== proof.jkt) return send(response, 401, { error: 'invalid_token' }, { 'www-authenticate': `DPoP error="invalid_token"` });
      if (proof.payload.nonce !== 'rs-nonce') {
        return send(response, 401, { error: 'use_dpop_nonce' }, { 'www-authenticate': `DPoP error="use_dpop_nonce"`, 'dpop-nonce': 'rs-nonce' });
      }
      send(response, 200, { ok: 'dpop' });
    },
  }));
  return { as, rs, log };
}

describe('withOAuth with DPoP', () => {
  it('obtains a bound token and presents it with the DPoP scheme, answering both servers\' nonce challenges', async () => {
    const { as, rs, log } = await dpopPeers();
    const provider: OAuthClientProvider = { clientCredentials: { clientId: 'job', clientSecret: 'secret', issuer: as }, dpop: true };
    const authFetch = withOAuth((url, init) => fetch(url, init), provider);
    const post = async (): Promise<unknown> => await (await authFetch(new URL(`${rs}/mcp?x=1`), { method: 'POST', body: '{}' })).json();
    expect(await post()).toEqual({ ok: 'dpop' });
    expect(log.tokenRequests).toEqual([{ nonce: undefined, proof: true }, { nonce: 'as-nonce', proof: true }]);
    // Unauthenticated, then bound without the nonce, then with it.
    expect(log.resourceRequests).toEqual(['', 'DPoP', 'DPoP']);
    expect(await post()).toEqual({ ok: 'dpop' });
    expect(log.resourceRequests).toEqual(['', 'DPoP', 'DPoP', 'DPoP']);
    expect(log.tokenRequests).toHaveLength(2);
  });

  it('presents a Bearer token without a proof when the authorization server did not bind it', async () => {
    const { as, rs, log } = await dpopPeers({ bearerOnly: true });
    const authFetch = withOAuth((url, init) => fetch(url, init), { clientCredentials: { clientId: 'job', clientSecret: 'secret', issuer: as }, dpop: true });
    expect(await (await authFetch(new URL(`${rs}/mcp`), { method: 'POST', body: '{}' })).json()).toEqual({ ok: 'bearer' });
    expect(log.tokenRequests).toEqual([{ nonce: undefined, proof: true }]);
    expect(log.resourceRequests).toEqual(['', 'Bearer']);
  });

  it('sends no proofs without the dpop option', async () => {
    const { as, rs, log } = await dpopPeers();
    const authFetch = withOAuth((url, init) => fetch(url, init), { clientCredentials: { clientId: 'job', clientSecret: 'secret', issuer: as } });
    expect(await (await authFetch(new URL(`${rs}/mcp`), { method: 'POST', body: '{}' })).json()).toEqual({ ok: 'bearer' });
    expect(log.tokenRequests).toEqual([{ nonce: undefined, proof: false }]);
  });
});
