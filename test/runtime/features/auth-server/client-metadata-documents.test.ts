/**
 * Client ID Metadata Documents: mcpgen's client uses its document URL as client_id and completes
 * the flow; the server fetches the document under the auth URL policy, checks it names itself,
 * and caches it within its bound.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHttpClientTransport } from '../../../../runtime/index.js';
import { InMemoryOAuthStore, type OAuthClientProvider } from '../../../../runtime/features/auth/index.js';
import { whoamiOf } from './fixtures/clients.js';
import { followAuthorization, REDIRECT, startDeployment, type Deployment } from './fixtures/deployment.js';
import { authorizeUrl, pkce, visit } from './fixtures/raw.js';

const DOCUMENT_URL = 'https://client.example.com/oauth/mcp-client.json';

const running: Deployment[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

/** A deployment whose document fetches are answered from `documents` (and counted). */
async function deployment(documents: Record<string, unknown>): Promise<{ deployed: Deployment; fetched: string[] }> {
  const fetched: string[] = [];
  const deployed = await startDeployment({
    server: {
      clientMetadataDocuments: {
        fetch: async (url) => {
          fetched.push(url.href);
          const document = documents[url.href];
          return document === undefined ? new Response('{}', { status: 404 }) : Response.json(document);
        },
      },
    },
  });
  running.push(deployed);
  return { deployed, fetched };
}

describe('client metadata documents', () => {
  it('let mcpgen\'s client authorize with its document URL as client_id', async () => {
    const { deployed, fetched } = await deployment({ [DOCUMENT_URL]: { client_id: DOCUMENT_URL, client_name: 'Doc client', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'] } });
    const provider: OAuthClientProvider = {
      clientMetadataUrl: DOCUMENT_URL,
      redirectUrl: REDIRECT,
      store: new InMemoryOAuthStore(),
      redirectToAuthorization: (url) => followAuthorization(url),
    };
    const client = new Client({ name: 'doc-client', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(deployed.mcpUrl, { authProvider: provider }), { timeout: 10_000 });
    expect(whoamiOf(await client.callTool({ name: 'whoami', arguments: {} })).subject).toBe('alice');
    await client.close();
    expect(deployed.authorizationServer.metadata.client_id_metadata_document_supported).toBe(true);
    // Fetched once for the authorization; the token request used the cached copy.
    expect(fetched).toEqual([DOCUMENT_URL]);
  });

  it('refuse documents that name another client, redirect elsewhere, or live at a private address', async () => {
    const other = 'https://client.example.com/oauth/other.json';
    const { deployed, fetched } = await deployment({
      [DOCUMENT_URL]: { client_id: 'https://elsewhere.example.com/x', redirect_uris: [REDIRECT] },
      [other]: { client_id: other, redirect_uris: ['https://evil.example.com/cb'] },
    });
    const challenge = pkce().challenge;
    const mismatch = await visit(authorizeUrl(deployed, { client_id: DOCUMENT_URL }, challenge));
    expect(mismatch).toMatchObject({ status: 400, location: undefined });
    expect(mismatch.body).toContain('does not name itself');
    const foreign = await visit(authorizeUrl(deployed, { client_id: other }, challenge));
    expect(foreign).toMatchObject({ status: 400, location: undefined });
    const internal = await visit(authorizeUrl(deployed, { client_id: 'https://10.0.0.5/client.json' }, challenge));
    expect(internal).toMatchObject({ status: 400, location: undefined });
    expect(internal.body).toContain('URL policy');
    expect(fetched).toEqual([DOCUMENT_URL, other]);
  });
});
