/**
 * Story: authorization, the resource-server side. The HTTP handler's `auth` option puts a
 * bearer guard in front of the endpoint: it serves the Protected Resource Metadata, refuses
 * requests without a valid token (401 with a `WWW-Authenticate` challenge), checks audience,
 * expiry and scopes, and hands the verified token to handlers.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
// #region server
import { createMcpHttpHandler, McpServer, type McpHttpHandler } from '../../runtime/index.js';
import { authInfoOf, type TokenVerifier } from '../../runtime/features/auth/index.js';
// #endregion server
import { toNodeHandler } from '../../runtime/node.js';
import type { TinyAuthorizationServer } from './authorization-server.js';

// #region server

/** `resource` is this endpoint's public URL, e.g. https://notes.example.com/mcp. */
export function protectedEndpoint(resource: string, issuer: string, verifier: TokenVerifier): McpHttpHandler {
  const mcp = new McpServer({ name: 'protected-notes', version: '1.0.0' });
  mcp.registerTool('whoami', {}, (_args, context) => {
    const auth = authInfoOf(context); // the verified token: client, scopes, subject…
    return { content: [{ type: 'text', text: `client ${auth?.clientId} with ${auth?.scopes.join(' ')}` }] };
  });

  return createMcpHttpHandler({
    server: () => mcp.createServer(),
    path: '/mcp',
    auth: { verifier, resource, authorizationServers: [issuer], requiredScopes: ['notes:read'] },
  });
}
// #endregion server

/** Serves the endpoint on a free port of 127.0.0.1; the port must be known first, as it is part of `resource`. */
export async function startProtectedServer(authorizationServer: TinyAuthorizationServer): Promise<{ url: URL; close(): Promise<void> }> {
  const httpServer = createServer();
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`);
  // #region verifier
  // How tokens are checked: here a lookup at the issuer; token introspection or JWT validation in practice.
  const verifier: TokenVerifier = { verifyAccessToken: async (token) => authorizationServer.issued.get(token) };
  // #endregion verifier
  const handler = protectedEndpoint(url.href, authorizationServer.issuer, verifier);
  httpServer.on('request', toNodeHandler(handler));
  return {
    url,
    async close() {
      await handler.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
