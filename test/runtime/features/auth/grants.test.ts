/**
 * The assertion grants against small HTTP peers on 127.0.0.1: token exchange (RFC 8693) at an
 * identity provider, the JWT bearer grant (RFC 7523) at the MCP server's authorization server,
 * for enterprise-managed authorization (SEP-990) and workload identity federation (SEP-1933).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { exchangeToken, idJagAssertion, OAuthError, TOKEN_TYPES, withOAuth, type OAuthClientProvider } from '../../../../runtime/features/auth/index.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface Seen {
  readonly path: string;
  readonly form: Record<string, string>;
  readonly authorization: string | undefined;
}

type Handler = (seen: Seen, response: ServerResponse) => void;

/** An HTTP server that records every request's form body and answers with `handle`. */
async function serve(handle: (base: string) => Handler): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  let handler: Handler = () => undefined;
  const server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const entry = { path: new URL(request.url ?? '/', 'http://x').pathname, form: Object.fromEntries(new URLSearchParams(body)), authorization: request.headers.authorization };
      seen.push(entry);
      handler(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  handler = handle(base);
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { base, seen };
}

function send(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
}

/** An MCP server (PRM and a protected /mcp) and its authorization server, whose token endpoint answers with `token`. */
async function protectedServer(token: (seen: Seen) => { status: number; body: unknown }) {
  const as = await serve((base) => (seen, response) => {
    if (seen.path === '/.well-known/oauth-authorization-server') {
      return send(response, 200, { issuer: base, token_endpoint: `${base}/token`, grant_types_supported: ['urn:ietf:params:oauth:grant-type:jwt-bearer'], token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'] });
    }
    if (seen.path === '/token') {
      const answer = token(seen);
      return send(response, answer.status, answer.body);
    }
    send(response, 404, {});
  });
  const mcp = await serve((base) => (seen, response) => {
    if (seen.path === '/.well-known/oauth-protected-resource/mcp') return send(response, 200, { resource: `${base}/mcp`, authorization_servers: [as.base] });
    if (seen.authorization === 'Bearer at-1') return send(response, 200, { ok: true });
    send(response, 401, {}, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` });
  });
  return { as, mcp };
}

const tokenRequests = (seen: readonly Seen[]): Seen[] => seen.filter((entry) => entry.path === '/token');

describe('exchangeToken', () => {
  it('sends the RFC 8693 parameters and returns the issued token', async () => {
    const idp = await serve(() => (_seen, response) => send(response, 200, { access_token: 'jag', issued_token_type: TOKEN_TYPES.idJag, token_type: 'N_A' }));
    const result = await exchangeToken({
      tokenEndpoint: `${idp.base}/token`,
      clientId: 'host',
      clientSecret: 's3cret',
      subjectToken: 'id-token',
      subjectTokenType: TOKEN_TYPES.idToken,
      requestedTokenType: TOKEN_TYPES.idJag,
      audience: 'https://as.example.com',
      resource: 'https://mcp.example.com/mcp',
    });
    expect(result.access_token).toBe('jag');
    expect(idp.seen[0]!.form).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: 'id-token',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: 'https://as.example.com',
      resource: 'https://mcp.example.com/mcp',
    });
    expect(idp.seen[0]!.authorization).toBe(`Basic ${btoa('host:s3cret')}`);
  });

  it('refuses an answer without issued_token_type, and surfaces OAuth errors', async () => {
    const idp = await serve(() => (seen, response) =>
      seen.form.subject_token === 'bad' ? send(response, 400, { error: 'invalid_grant' }) : send(response, 200, { access_token: 'x', token_type: 'N_A' }));
    const request = { tokenEndpoint: `${idp.base}/token`, subjectTokenType: TOKEN_TYPES.idToken };
    await expect(exchangeToken({ ...request, subjectToken: 'good' })).rejects.toMatchObject({ code: 'AUTHORIZATION_FAILED' });
    await expect(exchangeToken({ ...request, subjectToken: 'bad' })).rejects.toBeInstanceOf(OAuthError);
  });
});

describe('the JWT bearer grant through withOAuth', () => {
  it('enterprise-managed: exchanges the ID token for an ID-JAG for this server, then presents it with client authentication', async () => {
    const idp = await serve(() => (_seen, response) => send(response, 200, { access_token: 'the-id-jag', issued_token_type: TOKEN_TYPES.idJag, token_type: 'N_A' }));
    const { as, mcp } = await protectedServer(() => ({ status: 200, body: { access_token: 'at-1', token_type: 'Bearer' } }));
    const provider: OAuthClientProvider = {
      jwtBearer: { clientId: 'host', clientSecret: 'host-secret', issuer: as.base, assertion: idJagAssertion({ tokenEndpoint: `${idp.base}/token`, clientId: 'host-at-idp', idToken: async () => 'user-id-token' }) },
    };
    const response = await withOAuth((url, init) => fetch(url, init), provider)(new URL(`${mcp.base}/mcp`), { method: 'POST', body: '{}' });
    expect(await response.json()).toEqual({ ok: true });
    expect(idp.seen[0]!.form).toMatchObject({ subject_token: 'user-id-token', requested_token_type: TOKEN_TYPES.idJag, audience: as.base, resource: `${mcp.base}/mcp`, client_id: 'host-at-idp' });
    const [grant] = tokenRequests(as.seen);
    expect(grant!.form).toEqual({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: 'the-id-jag', resource: `${mcp.base}/mcp` });
    expect(grant!.authorization).toBe(`Basic ${btoa('host:host-secret')}`);
  });

  it('workload identity: presents the workload JWT, with the client id only when one is configured', async () => {
    const { as, mcp } = await protectedServer(() => ({ status: 200, body: { access_token: 'at-1', token_type: 'Bearer' } }));
    const contexts: unknown[] = [];
    const anonymous = withOAuth((url, init) => fetch(url, init), {
      jwtBearer: {
        issuer: as.base,
        scope: 'tools:call',
        assertion: (context) => {
          contexts.push({ issuer: context.issuer, resource: context.resource, scope: context.scope });
          return 'workload-jwt';
        },
      },
    });
    expect((await anonymous(new URL(`${mcp.base}/mcp`), { method: 'POST', body: '{}' })).status).toBe(200);
    expect(contexts).toEqual([{ issuer: as.base, resource: `${mcp.base}/mcp`, scope: 'tools:call' }]);
    expect(tokenRequests(as.seen)[0]!.form).toEqual({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: 'workload-jwt', scope: 'tools:call', resource: `${mcp.base}/mcp` });
    expect(tokenRequests(as.seen)[0]!.authorization).toBeUndefined();

    const named = withOAuth((url, init) => fetch(url, init), { jwtBearer: { clientId: 'workload', issuer: as.base, assertion: () => 'workload-jwt' } });
    expect((await named(new URL(`${mcp.base}/mcp`), { method: 'POST', body: '{}' })).status).toBe(200);
    expect(tokenRequests(as.seen)[1]!.form).toMatchObject({ client_id: 'workload', assertion: 'workload-jwt' });
  });

  it('reports a refused assertion without retrying it or falling back to another grant', async () => {
    const { as, mcp } = await protectedServer(() => ({ status: 400, body: { error: 'invalid_grant', error_description: 'expired' } }));
    const authFetch = withOAuth((url, init) => fetch(url, init), { jwtBearer: { clientId: 'workload', issuer: as.base, assertion: () => 'expired-jwt' } });
    await expect(authFetch(new URL(`${mcp.base}/mcp`), { method: 'POST', body: '{}' })).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(tokenRequests(as.seen).map((entry) => entry.form.grant_type)).toEqual(['urn:ietf:params:oauth:grant-type:jwt-bearer']);
  });
});
