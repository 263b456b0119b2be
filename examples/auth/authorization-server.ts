/**
 * A deliberately tiny OAuth authorization server for the auth story: metadata (RFC 8414) and a
 * token endpoint for the `client_credentials` grant with `client_secret_basic`. It issues
 * random opaque tokens and remembers them, so the MCP server can verify them. Not for
 * production: no expiry checks, no revocation, one hard-coded client.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthInfo } from '../../runtime/features/auth/index.js';

export interface TinyAuthorizationServer {
  readonly issuer: string;
  /** What the server knows about the tokens it issued. */
  readonly issued: ReadonlyMap<string, AuthInfo>;
  close(): Promise<void>;
}

export async function startAuthorizationServer(client: { id: string; secret: string }): Promise<TinyAuthorizationServer> {
  const issued = new Map<string, AuthInfo>();
  let issuer = '';
  const server = createServer((request, response) => {
    const json = (status: number, body: unknown): void => void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (request.method === 'GET' && request.url === '/.well-known/oauth-authorization-server') {
      json(200, {
        issuer,
        token_endpoint: `${issuer}/token`,
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
        scopes_supported: ['notes:read'],
      });
      return;
    }
    if (request.method !== 'POST' || request.url !== '/token') {
      json(404, { error: 'not_found' });
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      const basic = Buffer.from((request.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
      const [id, secret] = basic.split(':').map(decodeURIComponent);
      if (id !== client.id || secret !== client.secret) return json(401, { error: 'invalid_client' });
      if (form.get('grant_type') !== 'client_credentials') return json(400, { error: 'unsupported_grant_type' });
      const token = randomUUID();
      const scopes = (form.get('scope') ?? 'notes:read').split(' ');
      issued.set(token, { token, clientId: id, scopes, resource: form.get('resource') ?? undefined, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
      json(200, { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: scopes.join(' ') });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    issued,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
