/**
 * Story: authorization, the authorization-server side. One `createMcpHttpHandler` serves an
 * MCP endpoint and the OAuth authorization server its clients use (metadata, authorization
 * with PKCE, tokens, registration, revocation) on one origin; your code only says who the user
 * is and what they consent to. The second variant puts an existing identity provider behind
 * the same endpoints with the proxy provider. test/runtime/features/auth-server/ runs both
 * against mcpgen's client and the official v1 client.
 */
// #region one-origin
import { createMcpHttpHandler, McpServer, type McpHttpHandler } from '../../runtime/index.js';
import { authInfoOf } from '../../runtime/features/auth/index.js';
import { createAuthorizationServer, LocalAuthorizationProvider } from '../../runtime/features/auth-server/index.js';
// #endregion one-origin
// #region proxy
import type { AuthInfo } from '../../runtime/features/auth/index.js';
import { ProxyAuthorizationProvider } from '../../runtime/features/auth-server/index.js';
// #endregion proxy

// #region one-origin

/** The notes server with its own sign-in; `userOf` reads the signed-in user from a request's cookie. */
export function notesWithSignIn(origin: string, userOf: (cookie: string | undefined) => string | undefined): McpHttpHandler {
  const resource = `${origin}/mcp`;
  const authorizationServer = createAuthorizationServer({
    issuer: origin,
    resources: [resource],
    scopesSupported: ['notes:read', 'offline_access'],
    provider: new LocalAuthorizationProvider({
      // Your user and consent logic: who is signed in, and what this client may do for them.
      decide: (request, { http }) => {
        const user = userOf(http.header('cookie'));
        if (user === undefined) return { redirect: `/login?next=${encodeURIComponent(`${http.path}?${http.query}`)}` };
        return { approve: { subject: user, scopes: request.scopes } };
      },
    }),
  });

  const mcp = new McpServer({ name: 'notes', version: '1.0.0' });
  mcp.registerTool('whoami', {}, (_args, context) => ({ content: [{ type: 'text', text: `signed in as ${authInfoOf(context)?.subject}` }] }));
  return createMcpHttpHandler({
    server: () => mcp.createServer(),
    path: '/mcp',
    // Answers the authorization server's paths and requires its tokens everywhere else.
    guard: authorizationServer.guard({ resource, requiredScopes: ['notes:read'] }),
  });
}
// #endregion one-origin

// #region proxy

/** The notes server behind an existing identity provider at `idp` (an issuer with RFC 8414 metadata). */
export async function notesBehindIdp(origin: string, idp: string, verifyAccessToken: (token: string) => Promise<AuthInfo | undefined>): Promise<McpHttpHandler> {
  const resource = `${origin}/mcp`;
  // Registration, tokens and revocation are forwarded; users sign in at the identity provider.
  const provider = await ProxyAuthorizationProvider.discover(idp, { verifyAccessToken });
  const authorizationServer = createAuthorizationServer({ issuer: origin, resources: [resource], provider });

  const mcp = new McpServer({ name: 'notes', version: '1.0.0' });
  mcp.registerTool('whoami', {}, (_args, context) => ({ content: [{ type: 'text', text: `signed in as ${authInfoOf(context)?.subject}` }] }));
  return createMcpHttpHandler({ server: () => mcp.createServer(), path: '/mcp', guard: authorizationServer.guard({ resource }) });
}
// #endregion proxy
