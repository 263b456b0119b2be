// mcpgen's Client in the stateless era (2026-07-28) against the official v2 SDK
// (@modelcontextprotocol/server 2.4) in its 2026 mode: over Streamable HTTP with
// `createMcpHandler` on 127.0.0.1, and over stdio with `serveStdio` (peers/v2-stdio-server.ts).
// Both serve the 2025 era too, so the default `auto` negotiation must pick 2026-07-28 by
// itself; the multi round-trip tools (elicitation, sampling, roots) run through the Client's
// registered handlers. The v2 stateful HTTP server, which does not speak the stateless era,
// gets the fallback to `initialize`.
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createMcpHandler, inputRequired, inputResponse, McpServer as V2McpServer, type CallToolResult as V2CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, StreamableHttpClientTransport, type Transport } from '../../runtime/index.js';
import { InMemoryEraCache } from '../../runtime/advanced.js';
import { StdioClientTransport } from '../../runtime/node.js';
import { startV2Streamable, type RunningServer } from './peers/http-servers.js';
import { toWebRequest, writeWebResponse } from './peers/node-fetch-bridge.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const peer = (file: string): string => fileURLToPath(new URL(`./peers/${file}`, import.meta.url));

function text(value: string): V2CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

/** A v2 server factory with an echo tool and an elicitation tool in the multi round-trip style. */
function v2Factory(): V2McpServer {
  const mcp = new V2McpServer({ name: 'v2-modern-http', version: '2.4.0' });
  mcp.registerTool('echo', { description: 'Echoes', inputSchema: z.object({ text: z.string() }) }, async ({ text: value }) => text(`echo: ${value}`));
  mcp.registerTool('elicit', { description: 'Asks for a name' }, async (ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'who');
    if (answer.kind !== 'elicit') {
      return inputRequired({
        inputRequests: { who: inputRequired.elicit({ mode: 'form', message: 'Who are you?', requestedSchema: z.object({ name: z.string() }) }) },
        requestState: 'v2-state',
      });
    }
    return text(`hello ${String((answer.content as { name?: unknown } | undefined)?.name)}`);
  });
  mcp.registerResource('hello', 'mem://hello', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello' }] }));
  return mcp;
}

interface Modern {
  readonly url: URL;
  readonly posts: Array<{ method: string | undefined; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

async function startModern(): Promise<Modern> {
  const entry = createMcpHandler(() => v2Factory());
  const posts: Modern['posts'] = [];
  const server: HttpServer = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body: unknown = raw === '' ? undefined : JSON.parse(raw);
      posts.push({ method: (body as { method?: string } | undefined)?.method, headers: req.headers });
      entry.fetch(toWebRequest(req, res, body), { parsedBody: body })
        .then((response) => writeWebResponse(response, res))
        .catch((error: unknown) => res.writeHead(500).end(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    posts,
    async close() {
      await entry.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function newClient(errors: Error[], eraCache = new InMemoryEraCache()): Client {
  const client = new Client(
    { name: 'mcpgen-stateless-interop', version: '1.0.0' },
    { eraCache, capabilities: { elicitation: {}, sampling: {}, roots: {} }, onerror: (error) => errors.push(error) },
  );
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada', age: 36 } }));
  client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: 'sampled by mcpgen' }, model: 'interop' }));
  client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///workspace', name: 'ws' }] }));
  return client;
}

function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

describe('Streamable HTTP against the official v2 server in its 2026 mode', () => {
  let server: Modern;
  beforeAll(async () => {
    server = await startModern();
  });
  afterAll(async () => {
    await server.close();
  });

  it('negotiates 2026-07-28, calls tools with an MRTR elicitation round trip, and remembers the era', async () => {
    const errors: Error[] = [];
    const cache = new InMemoryEraCache();
    const client = newClient(errors, cache);
    const transport = new StreamableHttpClientTransport(server.url);
    await client.connect(transport);
    expect(client.era).toBe('stateless');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverCapabilities?.tools).toBeDefined();
    expect(transport.sessionId).toBeUndefined();

    const tools = await client.listAll('tools/list');
    expect(tools.map((tool) => tool.name).sort()).toEqual(['echo', 'elicit']);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('echo: hi');
    expect(client.serverInfo?.name).toBe('v2-modern-http');
    expect(textOf(await client.callTool({ name: 'elicit', arguments: {} }))).toBe('hello Ada');
    const read = await client.readResource({ uri: 'mem://hello' });
    expect(read.contents[0]).toMatchObject({ text: 'hello' });
    await client.close();

    const calls = server.posts.filter((post) => post.method === 'tools/call');
    expect(calls.length).toBe(3);
    for (const call of calls) {
      expect(call.headers['mcp-method']).toBe('tools/call');
      expect(call.headers['mcp-protocol-version']).toBe('2026-07-28');
    }
    expect(calls.map((call) => call.headers['mcp-name'])).toEqual(['echo', 'elicit', 'elicit']);
    expect(errors).toEqual([]);

    const before = server.posts.length;
    const again = newClient(errors, cache);
    await again.connect(new StreamableHttpClientTransport(server.url));
    expect(again.era).toBe('stateless');
    expect(server.posts.length).toBe(before);
    await again.close();
  });
});

describe('Streamable HTTP against the official v2 stateful server (2025 era only)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startV2Streamable('stateful');
  });
  afterAll(async () => {
    await server.close();
  });

  it('falls back from server/discover to initialize on the same transport', async () => {
    const errors: Error[] = [];
    const client = newClient(errors);
    const transport = new StreamableHttpClientTransport(server.url);
    await client.connect(transport);
    expect(client.era).toBe('stateful');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(transport.sessionId).toBeDefined();
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'old' } }))).toBe('echo: old');
    await client.close();
  });
});

describe('stdio against the official v2 serveStdio server', () => {
  let client: Client;
  const errors: Error[] = [];
  beforeAll(async () => {
    client = newClient(errors);
    const transport: Transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', peer('v2-stdio-server.ts')], cwd: repoRoot });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client.close();
  });

  it('speaks 2026-07-28 after the discover probe', () => {
    expect(client.era).toBe('stateless');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverInfo?.name).toBe('peer-v2-stdio-server');
  });

  it('answers elicitation, sampling and roots input requests with the registered handlers', async () => {
    expect(JSON.parse(textOf(await client.callTool({ name: 'elicit', arguments: {} })))).toEqual({ action: 'accept', content: { name: 'Ada', age: 36 } });
    expect(textOf(await client.callTool({ name: 'sample', arguments: {} }))).toBe('sampled by mcpgen');
    expect(JSON.parse(textOf(await client.callTool({ name: 'roots', arguments: {} })))).toEqual(['file:///workspace']);
  });

  it('lists, reads and gets across pages and kinds', async () => {
    const tools = await client.listAll('tools/list');
    expect(tools.length).toBeGreaterThan(30);
    expect((await client.readResource({ uri: 'mem://items/7' })).contents[0]).toMatchObject({ text: 'item 7' });
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    expect(prompt.messages[0]?.content).toMatchObject({ text: 'Hello, Ada!' });
    expect(errors).toEqual([]);
  });
});
