// The official v1 SDK's WebSocketClientTransport (@modelcontextprotocol/sdk 1.x, which speaks the
// stateful era only) against mcpgen's WebSocket endpoint on 127.0.0.1: the handshake with the
// mcp subprotocol, paginated tools, a tool call with progress, a sampling request from the server
// answered by the v1 client, and two v1 clients at once, each on a session of its own. The v1
// transport uses the runtime's WebSocket class; Node 20 has none, so the ws package's stands in.
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocketClientTransport as V1WebSocketTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createMcpWebSocketServer, type McpWebSocketServer } from '../../runtime/ws-node.js';
import { createDemoServer, TOOL_COUNT } from '../e2e/fixtures/demo-server.js';

const globals = globalThis as { WebSocket?: unknown };
const previous = globals.WebSocket;
let endpoint: McpWebSocketServer;
let url: URL;

beforeAll(async () => {
  globals.WebSocket = WebSocket;
  endpoint = createMcpWebSocketServer({ server: createDemoServer, path: '/mcp' });
  const { port } = await endpoint.listen(0, '127.0.0.1');
  url = new URL(`ws://127.0.0.1:${port}/mcp`);
});

afterAll(async () => {
  await endpoint.close();
  globals.WebSocket = previous;
});

async function v1Client(name: string): Promise<V1Client> {
  const client = new V1Client({ name, version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const first = request.params.messages[0]?.content as { text?: string };
    return { role: 'assistant', content: { type: 'text', text: `${name}: ${first.text}` }, model: 'v1-client' };
  });
  await client.connect(new V1WebSocketTransport(url));
  return client;
}

const textOf = (result: unknown): string => ((result as { content: Array<{ text: string }> }).content[0]!.text);

describe('official v1 WebSocketClientTransport against mcpgen\'s endpoint', () => {
  it('initializes, pages through the tools and calls them, with progress', async () => {
    const client = await v1Client('v1-a');
    try {
      expect(client.getServerVersion()).toEqual({ name: 'e2e-server', version: '1.0.0' });
      expect(client.getInstructions()).toBe('e2e fixture');
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        names.push(...page.tools.map((tool) => tool.name));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(names).toHaveLength(TOOL_COUNT);
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'over ws' } }))).toBe('echo: over ws');
      // v1 hands progress to its handler a tick later and forgets the token with the response,
      // so the last update may be dropped on its side: the order of the first ones is checked.
      const progress: number[] = [];
      const slow = await client.callTool({ name: 'slow', arguments: { steps: 3, stepMs: 1 } }, undefined, { onprogress: (update) => progress.push(update.progress) });
      expect(textOf(slow)).toBe('done');
      expect(progress.slice(0, 2)).toEqual([1, 2]);
    } finally {
      await client.close();
    }
  });

  it('answers the server\'s sampling request, each of two clients on its own session', async () => {
    const [a, b] = await Promise.all([v1Client('v1-a'), v1Client('v1-b')]);
    try {
      const [fromA, fromB] = await Promise.all([
        a.callTool({ name: 'sample', arguments: { text: 'ping' } }),
        b.callTool({ name: 'sample', arguments: { text: 'pong' } }),
      ]);
      expect(textOf(fromA)).toBe('sampled: v1-a: ping');
      expect(textOf(fromB)).toBe('sampled: v1-b: pong');
      expect(endpoint.connectionCount).toBe(2);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
