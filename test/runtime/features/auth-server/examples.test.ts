/**
 * The authorization-server story of docs/auth.md (examples/auth-server/server.ts) runs as
 * shown: mcpgen's client signs in through the one-origin setup, and through the proxy setup in
 * front of a second authorization server, over real HTTP on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { notesBehindIdp, notesWithSignIn } from '../../../../examples/auth-server/server.js';
import { Client, StreamableHttpClientTransport, type McpHttpHandler } from '../../../../runtime/index.js';
import { InMemoryOAuthStore } from '../../../../runtime/features/auth/index.js';
import { createAuthorizationServer, LocalAuthorizationProvider } from '../../../../runtime/features/auth-server/index.js';
import { toNodeHandler, toNodeListener } from '../../../../runtime/node.js';
import { followAuthorization, REDIRECT } from './fixtures/deployment.js';
import { pkce } from './fixtures/raw.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function listen(): Promise<{ server: Server; origin: string }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function serve(server: Server, handler: McpHttpHandler): void {
  server.on('request', toNodeHandler(handler));
  cleanups.push(() => handler.close());
}

async function whoami(url: URL): Promise<string> {
  const client = new Client({ name: 'example-client', version: '1.0.0' });
  const authProvider = { clientMetadata: { client_name: 'example' }, redirectUrl: REDIRECT, store: new InMemoryOAuthStore(), redirectToAuthorization: (target: URL) => followAuthorization(target) };
  await client.connect(new StreamableHttpClientTransport(url, { authProvider }), { timeout: 10_000 });
  cleanups.push(() => client.close());
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  return (result.content as { text: string }[])[0]!.text;
}

describe('the authorization-server story', () => {
  it('signs the user in on the MCP origin, and sends a user without a session to the login page', async () => {
    const { server, origin } = await listen();
    serve(server, notesWithSignIn(origin, (cookie) => (cookie === undefined ? 'bob' : undefined)));
    expect(await whoami(new URL('/mcp', origin))).toBe('signed in as bob');
    const registered = await fetch(`${origin}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }) });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const { challenge } = pkce();
    const authorize = `${origin}/authorize?response_type=code&client_id=${clientId}&code_challenge=${challenge}&code_challenge_method=S256&state=s`;
    const signedOut = await fetch(authorize, { headers: { cookie: 'session=none' }, redirect: 'manual' });
    expect(signedOut.status).toBe(302);
    const login = new URL(signedOut.headers.get('location')!);
    expect(`${login.origin}${login.pathname}`).toBe(`${origin}/login`);
    expect(login.searchParams.get('next')).toBe(`/authorize${new URL(authorize).search}`);
  });

  it('forwards to an identity provider with the proxy provider', async () => {
    const { server, origin } = await listen();
    const idpListener = await listen();
    const idp = createAuthorizationServer({
      issuer: idpListener.origin,
      resources: [`${origin}/mcp`],
      provider: new LocalAuthorizationProvider({ decide: () => ({ approve: { subject: 'carol' } }) }),
    });
    idpListener.server.on('request', toNodeListener(idp));
    serve(server, await notesBehindIdp(origin, idp.issuer, (token) => idp.verifier.verifyAccessToken(token)));
    expect(await whoami(new URL('/mcp', origin))).toBe('signed in as carol');
  });
});
