// OAuth over WebSocket on 127.0.0.1: mcpgen's client transport with an authProvider against the
// WebSocket endpoint protected by the bearer guard, beside the HTTP handler that serves the
// Protected Resource Metadata on the same node:http server. The handshake's 401 runs discovery,
// registration, authorization with PKCE and the token request, then the handshake again.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Client, createMcpHttpHandler, McpServer } from '../../../../runtime/index.js';
import { authInfoOf, InMemoryOAuthStore, type OAuthClientProvider } from '../../../../runtime/features/auth/index.js';
import { toNodeHandler } from '../../../../runtime/node.js';
import { WebSocketClientTransport } from '../../../../runtime/ws.js';
import { createMcpWebSocketServer } from '../../../../runtime/ws-node.js';
import { startAuthorizationServer } from '../../features/auth/fixtures/authorization-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe('WebSocket client transport with an authProvider', () => {
  it('authorizes on the handshake\'s 401 and the handlers see the verified token', async () => {
    const as = await startAuthorizationServer();
    cleanups.push(() => as.close());
    const http = createServer();
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const port = (http.address() as AddressInfo).port;
    const resource = `http://127.0.0.1:${port}/mcp`;
    const auth = { verifier: as.verifier, resource, authorizationServers: [as.issuer], requiredScopes: ['mcp:read'] };
    const mcp = new McpServer({ name: 'protected-ws', version: '1.0.0' });
    mcp.registerTool('whoami', {}, (_args, context) => ({ content: [{ type: 'text', text: JSON.stringify({ client: authInfoOf(context)?.clientId }) }] }));
    const handler = createMcpHttpHandler({ server: () => mcp.createServer(), path: '/mcp', auth });
    http.on('request', toNodeHandler(handler));
    const endpoint = createMcpWebSocketServer({ server: () => mcp.createServer(), path: '/mcp', auth });
    endpoint.attach(http);
    cleanups.push(async () => {
      await endpoint.close();
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    });

    const refused = await new WebSocketClientTransport(`ws://127.0.0.1:${port}/mcp`, { WebSocket }).start().catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'TransportError', status: 401 });

    const provider: OAuthClientProvider = {
      clientMetadata: { client_name: 'ws-e2e' },
      redirectUrl: 'http://127.0.0.1:1/callback',
      store: new InMemoryOAuthStore(),
      redirectToAuthorization: async (url) => {
        const response = await fetch(url, { redirect: 'manual' });
        await response.body?.cancel();
        return response.headers.get('location') ?? undefined;
      },
    };
    const client = new Client({ name: 'ws-client', version: '1.0.0' }, { eraCache: false });
    await client.connect(new WebSocketClientTransport(`ws://127.0.0.1:${port}/mcp`, { WebSocket, authProvider: provider }));
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({ client: 'client-1' });
    expect(as.log.registrations).toBe(1);
    expect(as.log.authorizations).toEqual([{ scope: 'mcp:read offline_access', resource, clientId: 'client-1' }]);
    expect(as.log.tokenRequests).toEqual([{ grantType: 'authorization_code', resource }]);
  });
});
