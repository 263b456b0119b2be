/**
 * Story: MCP over WebSocket, the client side. A default client negotiates 2026-07-28 and sends
 * self-contained requests over the socket; a client pinned to 2025-11-25 runs `initialize` and
 * has a session for as long as its socket lives. On Node 20, which has no `WebSocket`, the `ws`
 * package's class is passed in; elsewhere the runtime's own is used.
 *
 * Run it: `npx tsx examples/websocket/client.ts`.
 */
import assert from 'node:assert/strict';
// #region client
import { Client } from '../../runtime/index.js';
import { WebSocketClientTransport } from '../../runtime/ws.js';
import WebSocket from 'ws';
// #endregion client
import { isMain, runStoryFromArgs, type Story } from '../shared/harness.js';
import { createServer, listen } from './server.js';

async function runAgainst(url: string): Promise<void> {
  // #region client
  const modern = new Client({ name: 'modern-client', version: '1.0.0' });
  await modern.connect(new WebSocketClientTransport(url, { WebSocket }));

  const legacy = new Client({ name: 'legacy-client', version: '1.0.0' }, { protocolVersion: '2025-11-25' });
  // Headers go with the handshake (the `ws` class only; browsers send none).
  await legacy.connect(new WebSocketClientTransport(url, { WebSocket, headers: { 'user-agent': 'legacy-client/1.0' } }));
  // #endregion client
  try {
    const [a, b] = await Promise.all([
      modern.callTool({ name: 'whoami', arguments: { name: 'modern' } }),
      legacy.callTool({ name: 'whoami', arguments: { name: 'legacy' } }),
    ]);
    assert.deepEqual(a.content, [{ type: 'text', text: 'modern speaks stateless 2026-07-28' }]);
    assert.deepEqual(b.content, [{ type: 'text', text: 'legacy speaks stateful 2025-11-25' }]);
  } finally {
    await modern.close();
    await legacy.close();
  }
}

export const story: Story = {
  name: 'websocket',
  serverModule: new URL('./server.ts', import.meta.url).href,
  createServer,
  transports: ['http'],
  // The story brings its own endpoint: WebSocket upgrades on the HTTP server of listen().
  run: async () => {
    const { url, close } = await listen(createServer());
    try {
      await runAgainst(url);
    } finally {
      await close();
    }
  },
};

if (isMain(import.meta.url)) await runStoryFromArgs(story);
