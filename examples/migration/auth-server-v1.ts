/**
 * Migration guide, the authorization-server section with `@modelcontextprotocol/sdk` 1.x: the
 * OAuth endpoints from `mcpAuthRouter` with `ProxyOAuthServerProvider` in front of an identity
 * provider, and the MCP endpoint behind `requireBearerAuth`, on an Express app. Type-checked
 * against the installed package so the comparison stays true; not run.
 */
// #region auth-server
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { ProxyOAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/providers/proxyProvider.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';

// #endregion auth-server
/** The Express app and its pieces, as the application has them. */
declare const app: { use(...handlers: unknown[]): void; post(path: string, ...handlers: unknown[]): void };
declare const handleMcp: unknown;
declare function introspect(token: string): Promise<AuthInfo>;
declare const registeredClients: Map<string, OAuthClientInformationFull>;

// #region auth-server
const provider = new ProxyOAuthServerProvider({
  endpoints: {
    authorizationUrl: 'https://idp.example.com/authorize',
    tokenUrl: 'https://idp.example.com/token',
    registrationUrl: 'https://idp.example.com/register',
    revocationUrl: 'https://idp.example.com/revoke',
  },
  verifyAccessToken: (token) => introspect(token),
  // The application keeps the clients itself.
  getClient: async (clientId) => registeredClients.get(clientId),
});
app.use(mcpAuthRouter({ provider, issuerUrl: new URL('https://notes.example.com'), scopesSupported: ['notes:read'] }));
app.post('/mcp', requireBearerAuth({ verifier: provider, requiredScopes: ['notes:read'] }), handleMcp);
// #endregion auth-server
