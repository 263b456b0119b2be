import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, httpExtra, Server, StreamableHttpClientTransport } from '../../runtime/index.js';
import { InMemoryEventStore } from '../../runtime/http.js';
import { createMcpNodeServer, type McpNodeServer } from '../../runtime/node.js';

/** A server whose `poll` tool drops its SSE connection mid-call, for the client to resume. */
function pollingServer(): Server {
  const server = new Server({ name: 'http-e2e', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/call', async (params, context) => {
    if (params.name === 'plain') return { content: [{ type: 'text', text: 'plain' }] };
    for (let step = 1; step <= 4; step++) {
      await context.reportProgress(step, 4);
      if (params.name === 'poll' && step === 2) {
        expect(await httpExtra(context).closeStream?.()).toBe(true);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { content: [{ type: 'text', text: `${params.name} done` }] };
  });
  return server;
}

let node: McpNodeServer;
let url: URL;
beforeAll(async () => {
  node = createMcpNodeServer({ server: pollingServer, path: '/mcp', eventStore: new InMemoryEventStore(), retryMs: 10 });
  url = await node.listen(0);
});
afterAll(async () => {
  await node.close();
});

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A client whose transport records the method, status and content type of every response. */
async function recordingClient(protocolVersion: string): Promise<{ client: Client; contentTypes: string[]; transport: StreamableHttpClientTransport }> {
  const contentTypes: string[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const resumed = new Headers(init?.headers).has('last-event-id') ? ' resumed' : '';
    contentTypes.push(`${init?.method ?? 'GET'} ${response.status} ${response.headers.get('content-type') ?? ''}${resumed}`);
    return response;
  };
  const transport = new StreamableHttpClientTransport(url, { fetch: recordingFetch });
  const client = new Client({ name: 'http-e2e-client', version: '1.0.0' }, { protocolVersion });
  clients.push(client);
  await client.connect(transport);
  return { client, contentTypes, transport };
}

describe.each(['2025-03-26', '2025-06-18', '2025-11-25'])('Streamable HTTP %s', (revision) => {
  it('answers a bare result as JSON and a call with progress as an SSE stream', async () => {
    const { client, contentTypes } = await recordingClient(revision);
    contentTypes.length = 0;
    const posts = () => contentTypes.filter((line) => line.startsWith('POST'));
    expect(await client.callTool({ name: 'plain' })).toEqual({ content: [{ type: 'text', text: 'plain' }] });
    expect(posts()).toEqual(['POST 200 application/json']);
    contentTypes.length = 0;
    const progress: number[] = [];
    await client.callTool({ name: 'steps' }, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(posts()).toEqual(['POST 200 text/event-stream']);
  });

  it('re-initializes transparently when the server ended the session', async () => {
    const { client, transport } = await recordingClient(revision);
    const before = transport.sessionId!;
    expect(await node.mcp.sessions.close(before)).toBe(true);
    expect(await client.callTool({ name: 'plain' })).toEqual({ content: [{ type: 'text', text: 'plain' }] });
    expect(transport.sessionId).toBeDefined();
    expect(transport.sessionId).not.toBe(before);
    expect(node.mcp.sessions.get(before)).toBeUndefined();
  });
});

describe('Streamable HTTP 2025-11-25 resumability', () => {
  it('resumes a stream the server closed mid-call: nothing lost, nothing duplicated', async () => {
    const { client, contentTypes } = await recordingClient('2025-11-25');
    contentTypes.length = 0;
    const progress: number[] = [];
    const result = await client.callTool({ name: 'poll' }, { onprogress: (p) => progress.push(p.progress) });
    expect(result).toEqual({ content: [{ type: 'text', text: 'poll done' }] });
    expect(progress).toEqual([1, 2, 3, 4]);
    // The POST stream was cut after step 2, and the rest came over a resumed GET stream.
    expect(contentTypes).toContain('GET 200 text/event-stream resumed');
  });

  it('leaves no session, connection or timer behind once clients close', async () => {
    await expect.poll(() => node.mcp.stats().sessions, { timeout: 2000 }).toBe(0);
    const stats = node.mcp.stats();
    expect(stats.pendingRequests).toBe(0);
    expect(stats.timers).toBe(0);
  });
});
