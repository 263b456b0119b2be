// mcpgen Client and Server over every transport, for every revision the transport carries:
// in-memory, stdio and Streamable HTTP in both eras (2026-07-28 statelessly, with sampling,
// elicitation and roots as multi round-trip requests), HTTP+SSE in the stateful era, and
// WebSocket in both eras (a session per connection, stateless requests over the socket).
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Client, createLinkedPair, ProtocolError, SdkError, statefulRevisions, statelessRevisions, StreamableHttpClientTransport, type Transport } from '../../runtime/index.js';
import { InMemoryEventStore, LegacySseClientTransport } from '../../runtime/http.js';
import { createMcpNodeServer, StdioClientTransport, type McpNodeServer } from '../../runtime/node.js';
import { WebSocketClientTransport } from '../../runtime/ws.js';
import { createMcpWebSocketServer, type McpWebSocketServer } from '../../runtime/ws-node.js';
import { revisionModules } from '../../generated/all.js';
import { createDemoServer, TOOL_COUNT } from './fixtures/demo-server.js';

const stdioScript = fileURLToPath(new URL('./fixtures/stdio-demo-server.ts', import.meta.url));

interface Leg {
  readonly name: string;
  /** Whether the leg carries the stateless era (HTTP+SSE ended with 2024-11-05's successors). */
  readonly stateless: boolean;
  connect(client: Client): Promise<void>;
}

/** One HTTP server for the suite, serving Streamable HTTP at /mcp and HTTP+SSE at /sse. */
let http: { server: McpNodeServer; url: URL } | undefined;
async function httpServer(): Promise<URL> {
  if (http === undefined) {
    const server = createMcpNodeServer({ server: createDemoServer, path: '/mcp', eventStore: new InMemoryEventStore(), legacySse: true });
    http = { server, url: await server.listen(0) };
  }
  return http.url;
}
/** One WebSocket endpoint for the suite. */
let ws: { endpoint: McpWebSocketServer; url: string } | undefined;
async function wsServer(): Promise<string> {
  if (ws === undefined) {
    const endpoint = createMcpWebSocketServer({ server: createDemoServer, path: '/mcp' });
    const { port } = await endpoint.listen(0, '127.0.0.1');
    ws = { endpoint, url: `ws://127.0.0.1:${port}/mcp` };
  }
  return ws.url;
}
afterAll(async () => {
  await http?.server.close();
  await ws?.endpoint.close();
});

const legs: Leg[] = [
  {
    name: 'in-memory',
    stateless: true,
    async connect(client) {
      const [clientSide, serverSide] = createLinkedPair();
      await createDemoServer().connect(serverSide);
      await client.connect(clientSide);
    },
  },
  {
    name: 'stdio',
    stateless: true,
    async connect(client) {
      const transport: Transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', stdioScript] });
      await client.connect(transport);
    },
  },
  {
    name: 'streamable-http',
    stateless: true,
    async connect(client) {
      await client.connect(new StreamableHttpClientTransport(await httpServer()));
    },
  },
  {
    name: 'http+sse',
    stateless: false,
    async connect(client) {
      await client.connect(new LegacySseClientTransport(new URL('/sse', await httpServer())));
    },
  },
  {
    name: 'websocket',
    stateless: true,
    async connect(client) {
      await client.connect(new WebSocketClientTransport(await wsServer(), { WebSocket }));
    },
  },
];

function newClient(revision: string): Client {
  const hasElicitation = revisionModules[revision]!.methods['elicitation/create'] !== undefined;
  const client = new Client(
    { name: 'e2e-client', version: '1.0.0' },
    {
      protocolVersion: revision,
      capabilities: { sampling: {}, roots: { listChanged: true }, ...(hasElicitation ? { elicitation: {} } : {}) },
    },
  );
  client.setRequestHandler('sampling/createMessage', (params) => {
    const first = params.messages[0]?.content as { text?: string };
    return { role: 'assistant', content: { type: 'text', text: `re: ${first.text}` }, model: 'fixture-model' };
  });
  client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///tmp/a', name: 'a' }] }));
  if (hasElicitation) {
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada', age: 36.5 } }));
  }
  return client;
}

function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

for (const leg of legs) {
  describe.each(leg.stateless ? [...statefulRevisions, ...statelessRevisions] : statefulRevisions)(`${leg.name} %s`, (revision) => {
    // One connection per leg and revision keeps the stdio leg to one child process each.
    let shared: Client;
    beforeAll(async () => {
      shared = newClient(revision);
      await leg.connect(shared);
    });
    afterAll(async () => {
      await shared.close();
    });
    const connected = async (): Promise<Client> => shared;

    it('negotiates the requested revision and exchanges identities', async () => {
      const client = await connected();
      expect(client.protocolVersion).toBe(revision);
      expect(client.serverInfo).toEqual({ name: 'e2e-server', version: '1.0.0' });
      expect(client.serverCapabilities?.tools).toEqual({ listChanged: true });
      expect(client.instructions).toBe('e2e fixture');
    });

    it('calls a tool and follows pagination to the end', async () => {
      const client = await connected();
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('echo: hi');
      const tools = await client.listAll('tools/list');
      expect(tools).toHaveLength(TOOL_COUNT);
      expect(new Set(tools.map((tool) => tool.name)).size).toBe(TOOL_COUNT);
      await expect(client.listAll('tools/list', {}, { maxPages: 2 })).rejects.toMatchObject({ code: 'PAGE_LIMIT' });
    });

    it('reports progress and cancels', async () => {
      const client = await connected();
      const seen: number[] = [];
      const result = await client.callTool({ name: 'slow', arguments: { steps: 3 } }, { onprogress: (progress) => seen.push(progress.progress) });
      expect(textOf(result)).toBe('done');
      expect(seen).toEqual([1, 2, 3]);

      const abortedBefore = Number(textOf(await client.callTool({ name: 'aborted' })));
      const controller = new AbortController();
      // The handler's first progress says it runs; cancelling then must reach it.
      const pending = client.callTool({ name: 'hang' }, { signal: controller.signal, onprogress: () => controller.abort('user gave up') });
      await expect(pending).rejects.toMatchObject({ name: 'SdkError', code: 'REQUEST_CANCELLED', message: 'Request tools/call was cancelled: user gave up' });
      await expect.poll(async () => Number(textOf(await client.callTool({ name: 'aborted' })))).toBe(abortedBefore + 1);
      // The connection stays usable after a cancellation.
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('echo: after');
    });

    it('times out a request the server never answers', async () => {
      const client = await connected();
      await expect(client.callTool({ name: 'hang' }, { timeout: 50 })).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
    });

    it('serves sampling and roots requests from the server', async () => {
      const client = await connected();
      expect(textOf(await client.callTool({ name: 'sample', arguments: { text: 'ping' } }))).toBe('sampled: re: ping');
      expect(textOf(await client.callTool({ name: 'roots' }))).toBe('file:///tmp/a');
    });

    it('answers elicitation where the revision has it, and refuses it elsewhere', async () => {
      const client = await connected();
      if (revisionModules[revision]!.methods['elicitation/create']) {
        const result = await client.callTool({ name: 'elicit' });
        expect(JSON.parse(textOf(result))).toEqual({ action: 'accept', content: { name: 'Ada', age: 36.5 } });
      } else {
        // The server's elicit() is refused locally (not in this revision's table), so its handler
        // fails and the client receives an internal error naming the method.
        const failure = await client.callTool({ name: 'elicit' }).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(ProtocolError);
        expect((failure as ProtocolError).message).toContain('elicitation/create');
      }
    });

    it('reads resources and maps protocol errors', async () => {
      const client = await connected();
      const read = await client.readResource({ uri: 'mem://hello' });
      expect(read.contents).toEqual([{ uri: 'mem://hello', text: 'hello' }]);
      await expect(client.readResource({ uri: 'mem://nope' })).rejects.toMatchObject({ code: -32002, message: 'No resource mem://nope' });
    });

    it('refuses methods outside the negotiated revision and ungranted capabilities', async () => {
      const client = await connected();
      const table = revisionModules[revision]!.methods;
      const foreign = Object.values(revisionModules)
        .flatMap((module) => Object.values(module.methods))
        .filter((info) => info.kind === 'request' && info.direction !== 'server-to-client' && !info.embedded && table[info.method] === undefined);
      for (const info of foreign) {
        await expect(client.request(info.method as never, {} as never)).rejects.toBeInstanceOf(SdkError);
      }
      await expect(client.listPrompts()).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
    });
  });
}
