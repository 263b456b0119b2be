// Our Client over the HTTP+SSE transport (2024-11-05 style) against the official v1
// SSEServerTransport, and the Streamable HTTP → HTTP+SSE fallback against real servers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, connectWithFallback, statefulRevisions } from '../../runtime/index.js';
import { LegacySseClientTransport } from '../../runtime/http.js';
import { startV1Sse, startV1Streamable, type RunningServer } from './peers/http-servers.js';

function newClient(protocolVersion: string, errors: Error[]): Client {
  const client = new Client(
    { name: 'mcpgen-sse-interop', version: '1.0.0' },
    { protocolVersion, capabilities: { sampling: {} }, onerror: (error) => errors.push(error) },
  );
  client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'interop-model' }));
  return client;
}

function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

/** Runs the shared scenario on a connected client. */
async function exercise(client: Client): Promise<void> {
  const tools = await client.listAll('tools/list');
  expect(tools.map((tool) => tool.name).sort()).toEqual(['drop', 'echo', 'sample', 'slow']);
  const progress: number[] = [];
  const slow = await client.callTool({ name: 'slow', arguments: { steps: 3 } }, { onprogress: (update) => progress.push(update.progress) });
  expect(textOf(slow)).toBe('done');
  expect(progress).toEqual([1, 2, 3]);
  expect(textOf(await client.callTool({ name: 'sample' }))).toBe('sampled');
}

describe('HTTP+SSE against the official v1 SSEServerTransport', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startV1Sse();
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(statefulRevisions)('%s: initialize, tools, progress, sampling, close', async (revision) => {
    const errors: Error[] = [];
    const client = newClient(revision, errors);
    const transport = new LegacySseClientTransport(server.url);
    await client.connect(transport);
    expect(client.protocolVersion).toBe(revision);
    expect(client.serverInfo?.name).toBe('v1-sse');
    expect(transport.endpoint?.pathname).toBe('/messages');
    const sessionId = transport.endpoint?.searchParams.get('sessionId');
    await exercise(client);
    await client.close();
    await expect.poll(() => server.closedSessions).toContain(sessionId);
    expect(errors.map((error) => error.message)).toEqual([]);
  });

  it.each(['2024-11-05', '2025-11-25'])('%s: connectWithFallback falls back from the 404 of the POST probe', async (revision) => {
    const errors: Error[] = [];
    const client = newClient(revision, errors);
    const first = server.log.length;
    const transport = await connectWithFallback(client, server.url);
    expect(transport.kind).toBe('sse');
    expect(client.protocolVersion).toBe(revision);
    await exercise(client);
    await client.close();
    const [probe, stream] = server.log.slice(first);
    expect(probe).toMatchObject({ method: 'POST', path: '/sse', status: 404 });
    expect(stream).toMatchObject({ method: 'GET', path: '/sse' });
    expect(errors.map((error) => error.message)).toEqual([]);
  });
});

describe('connectWithFallback against the official v1 Streamable HTTP server', () => {
  it('keeps Streamable HTTP', async () => {
    const server = await startV1Streamable('stateful');
    try {
      const errors: Error[] = [];
      const client = newClient('2025-11-25', errors);
      const first = server.log.length;
      const transport = await connectWithFallback(client, server.url);
      expect(transport.kind).toBe('streamable-http');
      const sessionId = transport.sessionId;
      expect(sessionId).toBeDefined();
      await exercise(client);
      await client.close();
      const requests = server.log.slice(first);
      // The server lives on server.url, where an HTTP+SSE fallback would GET without a session:
      // only the initialize POST may come without one, and every GET carries it.
      expect(requests.filter((entry) => entry.sessionId === undefined).map((entry) => `${entry.method} ${entry.path}`)).toEqual([`POST ${server.url.pathname}`]);
      expect(requests.filter((entry) => entry.method === 'GET').every((entry) => entry.sessionId === sessionId)).toBe(true);
      expect(errors.map((error) => error.message)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
