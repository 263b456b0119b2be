/**
 * Migration guide, the authorization-server section with mcpgen: the same proxy to an identity
 * provider with `createAuthorizationServer` and `ProxyAuthorizationProvider`, served with the
 * MCP endpoint by one handler. Type-checked; the same setup runs in
 * test/runtime/features/auth-server/examples.test.ts.
 */
// #region auth-server
import { createMcpHttpHandler, McpServer } from '../../runtime/index.js';
import type { AuthInfo } from '../../runtime/features/auth/index.js';
import { createAuthorizationServer, ProxyAuthorizationProvider } from '../../runtime/features/auth-server/index.js';

// #endregion auth-server
declare const mcp: McpServer;
declare function introspect(token: string): Promise<AuthInfo | undefined>;

// #region auth-server
const provider = new ProxyAuthorizationProvider({
  upstream: {
    issuer: 'https://idp.example.com',
    authorizationEndpoint: 'https://idp.example.com/authorize',
    tokenEndpoint: 'https://idp.example.com/token',
    registrationEndpoint: 'https://idp.example.com/register',
    revocationEndpoint: 'https://idp.example.com/revoke',
  },
  verifyAccessToken: (token) => introspect(token),
  // The clients registered through the proxy are kept in its `store` (default in memory); no getClient needed.
});
const authorizationServer = createAuthorizationServer({
  issuer: 'https://notes.example.com',
  resources: ['https://notes.example.com/mcp'],
  scopesSupported: ['notes:read'],
  provider,
});
export const handler = createMcpHttpHandler({
  server: () => mcp.createServer(),
  path: '/mcp',
  allowedHosts: ['notes.example.com'],
  guard: authorizationServer.guard({ resource: 'https://notes.example.com/mcp', requiredScopes: ['notes:read'] }),
});
// #endregion auth-server
