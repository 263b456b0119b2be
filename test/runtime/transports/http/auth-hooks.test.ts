// The transports' generic auth hooks: a request guard on the handler, and the `authProvider`
// shorthand served by whichever plug-in is installed (mcpgen/auth's OAuth by default).
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpHttpHandler, McpServer, StreamableHttpClientTransport } from '../../../../runtime/index.js';
import { installOAuthPlugin } from '../../../../runtime/features/auth/plugin.js';
import { installAuthPlugin, withAuthProvider, type AuthProvider } from '../../../../runtime/transports/http/auth-hooks.js';

afterEach(() => installOAuthPlugin());

const post = (headers: Record<string, string> = {}): Request => new Request('http://localhost/mcp', {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
});

describe('request guards', () => {
  it('answers what the guard answers and serves what it lets through, with its authInfo', async () => {
    const mcp = new McpServer({ name: 'guarded', version: '1.0.0' });
    const handler = createMcpHttpHandler({
      server: () => mcp.createServer(),
      sessions: false,
      guard: async (request) => request.header('x-key') === 'open'
        ? { request: { ...request, authInfo: { token: 'open' } } }
        : { reply: { kind: 'body', status: 401, headers: { 'content-type': 'text/plain' }, body: 'no key' } },
    });
    const refused = await handler.fetch(post());
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe('no key');
    const served = await handler.fetch(post({ 'x-key': 'open', 'mcp-protocol-version': '2025-06-18' }));
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ id: 1, result: {} });
    await handler.close();
  });
});

describe('the authProvider shorthand', () => {
  it('wraps fetch with the installed plug-in for the transport URL', async () => {
    const seen: string[] = [];
    installAuthPlugin({
      fetchWrapper: (provider) => (fetch, serverUrl) => (url, init) => {
        seen.push(`${JSON.stringify(provider)} ${serverUrl.href}`);
        return fetch(url, init);
      },
      requestGuard: () => async (request) => ({ request }),
    });
    const provider = { clientCredentials: { clientId: 'c', clientSecret: 's' } } as AuthProvider;
    const options = withAuthProvider({ authProvider: provider, fetch: async () => new Response('ok') } as Parameters<typeof withAuthProvider>[0], new URL('http://localhost/mcp'));
    expect(await (await options.fetch!(new URL('http://localhost/mcp'), {})).text()).toBe('ok');
    expect(seen).toEqual([`${JSON.stringify(provider)} http://localhost/mcp`]);
  });

  it('leaves options without authProvider as they are', () => {
    const options = { requestTimeoutMs: 5 };
    expect(withAuthProvider(options, new URL('http://localhost/mcp'))).toBe(options);
    expect(new StreamableHttpClientTransport('http://localhost/mcp').url.href).toBe('http://localhost/mcp');
  });
});
