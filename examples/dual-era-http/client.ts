/**
 * Story: a dual-era HTTP server, the client side. A client pinned to 2025-11-25 gets a
 * session; a default client negotiates 2026-07-28 on the same URL and sends every request on
 * its own, with no session.
 *
 * Run it: `npx tsx examples/dual-era-http/client.ts` (HTTP only).
 */
import assert from 'node:assert/strict';
// #region client
import { Client, StreamableHttpClientTransport } from '../../runtime/index.js';
// #endregion client
import { CLIENT_CAPABILITIES_META, PROTOCOL_VERSION_META } from '../../runtime/advanced.js';
// #region node-client
import { nodeHttpClient } from '../../runtime/node.js';
// #endregion node-client
import { isMain, runStoryFromArgs, type Story } from '../shared/harness.js';
import { runReplicas } from './replicas.js';
import { createServer, endpoints } from './server.js';

async function runAgainst(url: URL): Promise<void> {
  // #region client
  // A 2026-07-28 client (the default): server/discover, then self-contained requests.
  const modern = new Client({ name: 'modern-client', version: '1.0.0' });
  const modernTransport = new StreamableHttpClientTransport(url);
  await modern.connect(modernTransport);

  // A 2025-11-25 client: the initialize handshake, then a session.
  const legacy = new Client({ name: 'legacy-client', version: '1.0.0' }, { protocolVersion: '2025-11-25' });
  const legacyTransport = new StreamableHttpClientTransport(url);
  await legacy.connect(legacyTransport);
  // #endregion client

  // #region node-client
  // On Node: the same transport over a keep-alive node:http pool instead of fetch. One
  // nodeHttpClient can serve every transport of the process.
  const httpClient = nodeHttpClient();
  const onNode = new Client({ name: 'node-client', version: '1.0.0' });
  await onNode.connect(new StreamableHttpClientTransport(url, { httpClient }));
  // #endregion node-client

  try {
    assert.equal(legacy.era, 'stateful');
    assert.equal(legacy.protocolVersion, '2025-11-25');
    assert.ok(legacyTransport.sessionId !== undefined, 'the 2025-11-25 client has a session');
    assert.equal(modern.era, 'stateless');
    assert.equal(modern.protocolVersion, '2026-07-28');
    assert.equal(modernTransport.sessionId, undefined);

    const [a, b] = await Promise.all([
      legacy.callTool({ name: 'whoami', arguments: { name: 'legacy' } }),
      modern.callTool({ name: 'whoami', arguments: { name: 'modern' } }),
    ]);
    assert.deepEqual(a.content, [{ type: 'text', text: 'legacy speaks stateful 2025-11-25' }]);
    assert.deepEqual(b.content, [{ type: 'text', text: 'modern speaks stateless 2026-07-28' }]);
    assert.equal(modern.serverInfo?.name, 'dual-era');
    assert.deepEqual((await onNode.callTool({ name: 'whoami', arguments: { name: 'node' } })).content, [{ type: 'text', text: 'node speaks stateless 2026-07-28' }]);
  } finally {
    await legacy.close();
    await modern.close();
    await onNode.close();
    httpClient.close();
  }
}

export const story: Story = {
  name: 'dual-era-http',
  serverModule: new URL('./server.ts', import.meta.url).href,
  createServer,
  transports: ['http'],
  // The story brings its own endpoint (the Node server of endpoints(), at /mcp) rather than the harness's.
  run: async () => {
    const { handler, node } = endpoints(createServer());
    // #region listen
    const url = await node.listen(0); // resolves with http://127.0.0.1:<port>/mcp once bound (0: any free port)
    // #endregion listen
    try {
      await runAgainst(url);
      // The Fetch handler answers the same way; here it is driven without a socket.
      const response = await handler.fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { [PROTOCOL_VERSION_META]: '2026-07-28', [CLIENT_CAPABILITIES_META]: {} } } }),
        }),
      );
      assert.equal(response.status, 200);
      const text = await response.text();
      assert.match(text, /"supportedVersions":\[[^\]]*"2026-07-28"/);
      // Replicas behind a load balancer share request-state keys (replicas.ts).
      await runReplicas();
    } finally {
      // #region listen
      await node.close(); // ends every session, then stops the server
      // #endregion listen
      await handler.close();
    }
  },
};

if (isMain(import.meta.url)) await runStoryFromArgs(story);
