/**
 * Story: authorization, the client side. The transport's `authProvider` does the OAuth work
 * on the first 401: Protected Resource Metadata, authorization server metadata, a token for
 * the `client_credentials` grant (machine to machine), then the request again with the token.
 * The interactive variant (authorization code with PKCE through the user's browser) is
 * `interactiveProvider` below; it is type-checked but not run.
 *
 * Run it: `npx tsx examples/auth/client.ts`.
 */
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join } from 'node:path';
// #region client
import { Client, StreamableHttpClientTransport } from '../../runtime/index.js';
// #endregion client
// #region interactive
import type { OAuthClientProvider } from '../../runtime/features/auth/index.js';
import { FileOAuthStore, startLoopbackReceiver } from '../../runtime/node.js';
// #endregion interactive
import { isMain, runStoryFromArgs, type Story } from '../shared/harness.js';
import { startAuthorizationServer } from './authorization-server.js';
import { startProtectedServer } from './server.js';

// #region interactive

/** A provider for a desktop host: the user signs in in the browser, tokens persist in a file. */
export async function interactiveProvider(): Promise<{ provider: OAuthClientProvider; close: () => Promise<void> }> {
  const receiver = await startLoopbackReceiver(); // http://127.0.0.1:<port>/callback; opens the browser
  const provider: OAuthClientProvider = {
    clientMetadata: { client_name: 'My MCP host' },
    redirectUrl: receiver.redirectUrl,
    redirectToAuthorization: (url) => receiver.redirectToAuthorization(url),
    store: new FileOAuthStore(join(homedir(), '.config', 'my-host', 'oauth.json')),
  };
  return { provider, close: () => receiver.close() };
}
// #endregion interactive

async function run(): Promise<void> {
  const authorizationServer = await startAuthorizationServer({ id: 'report-job', secret: 'example-secret' });
  const server = await startProtectedServer(authorizationServer);
  const { url } = server;
  const { issuer } = authorizationServer;
  try {
    // Without credentials: 401 with a challenge pointing at the metadata.
    const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(refused.status, 401);
    assert.match(refused.headers.get('www-authenticate') ?? '', /resource_metadata="[^"]*\/\.well-known\/oauth-protected-resource/);

    // #region client
    const client = new Client({ name: 'report-job', version: '1.0.0' });
    const transport = new StreamableHttpClientTransport(url, {
      // The secret is sent to this authorization server only, whatever the metadata names.
      authProvider: { clientCredentials: { clientId: 'report-job', clientSecret: 'example-secret', issuer } },
    });
    await client.connect(transport);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    // #endregion client
    assert.deepEqual(result.content, [{ type: 'text', text: 'client report-job with notes:read' }]);
    assert.equal(authorizationServer.issued.size, 1, 'one token, reused for every request');
    const [info] = authorizationServer.issued.values();
    assert.equal(info?.resource, url.href, 'the token is bound to the MCP server (RFC 8707 resource)');
    await client.close();

    // A wrong secret: the token request fails, and so does the first request that needs one.
    // (connect() itself may send nothing: the era of this URL is cached from the first client.)
    const intruder = new Client({ name: 'intruder', version: '1.0.0' });
    const failed = await intruder
      .connect(new StreamableHttpClientTransport(url, { authProvider: { clientCredentials: { clientId: 'report-job', clientSecret: 'wrong', issuer } } }))
      .then(() => intruder.callTool({ name: 'whoami', arguments: {} }))
      .then(() => 'called', (error: unknown) => String(error));
    assert.match(failed, /invalid_client/);
    await intruder.close();
  } finally {
    await server.close();
    await authorizationServer.close();
  }
}

export const story: Story = { name: 'auth', transports: ['http'], run };

if (isMain(import.meta.url)) await runStoryFromArgs(story);
