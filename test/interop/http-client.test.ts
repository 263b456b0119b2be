// Our Client with StreamableHttpClientTransport against the official servers over real
// sockets on 127.0.0.1: v1 (@modelcontextprotocol/sdk) and v2 (@modelcontextprotocol/server),
// stateful and stateless, for every stateful revision.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, statefulRevisions, StreamableHttpClientTransport } from '../../runtime/index.js';
import { startV1Streamable, startV2Streamable, type RunningServer } from './peers/http-servers.js';

interface Peer {
  readonly name: string;
  start(): Promise<RunningServer>;
  /** Sessions, a standalone stream (where sampling goes in JSON mode) and DELETE on close. */
  readonly stateful: boolean;
  /** Answers over SSE with an event store, so the `drop` tool exercises resumption. */
  readonly resumable: boolean;
}

const peers: Peer[] = [
  { name: 'v1 stateful', start: () => startV1Streamable('stateful'), stateful: true, resumable: true },
  { name: 'v1 stateful JSON', start: () => startV1Streamable('stateful-json'), stateful: true, resumable: false },
  { name: 'v1 stateless', start: () => startV1Streamable('stateless'), stateful: false, resumable: false },
  { name: 'v2 stateful', start: () => startV2Streamable('stateful'), stateful: true, resumable: true },
  { name: 'v2 stateless', start: () => startV2Streamable('stateless'), stateful: false, resumable: false },
];

function newClient(protocolVersion: string, errors: Error[]): Client {
  const client = new Client(
    { name: 'mcpgen-http-interop', version: '1.0.0' },
    { protocolVersion, capabilities: { sampling: {} }, onerror: (error) => errors.push(error) },
  );
  client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'interop-model' }));
  return client;
}

function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

describe.each(peers)('Streamable HTTP against the official $name server', (peer) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await peer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(statefulRevisions)('%s: initialize, tools, progress, sampling, resumption, close', async (revision) => {
    const errors: Error[] = [];
    const client = newClient(revision, errors);
    const transport = new StreamableHttpClientTransport(server.url, { reconnect: { initialDelayMs: 50 } });
    const first = server.log.length;
    await client.connect(transport);
    expect(client.protocolVersion).toBe(revision);
    expect(client.serverInfo?.name).toContain(peer.name.startsWith('v1') ? 'v1-' : 'v2-');
    expect(transport.protocolVersion).toBe(revision);
    expect(transport.sessionId === undefined).toBe(!peer.stateful);

    const tools = await client.listAll('tools/list');
    expect(tools.map((tool) => tool.name).sort()).toEqual(['drop', 'echo', 'sample', 'slow']);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('echo: hi');

    const progress: number[] = [];
    const slow = await client.callTool({ name: 'slow', arguments: { steps: 3 } }, { onprogress: (update) => progress.push(update.progress) });
    expect(textOf(slow)).toBe('done');
    expect(progress).toEqual(peer.name === 'v1 stateful JSON' ? [] : [1, 2, 3]);

    if (peer.stateful) {
      expect(textOf(await client.callTool({ name: 'sample' }))).toBe('sampled');
    }
    if (peer.resumable) {
      const dropped: number[] = [];
      const result = await client.callTool({ name: 'drop' }, { onprogress: (update) => dropped.push(update.progress) });
      expect(textOf(result)).toBe('survived');
      expect(dropped).toEqual([1, 2]);
      const resumed = server.log.slice(first).filter((entry) => entry.method === 'GET' && entry.lastEventId !== undefined);
      // Servers close streams early only for clients that understand priming events (2025-11-25).
      expect(resumed.length > 0).toBe(revision >= '2025-11-25');
    }

    const sessionId = transport.sessionId;
    await client.close();
    const mine = server.log.slice(first);
    const posts = mine.filter((entry) => entry.method === 'POST');
    expect(posts.slice(1).every((entry) => entry.protocolVersion === revision)).toBe(true);
    expect(posts[0]!.protocolVersion).toBeUndefined();
    if (peer.stateful) {
      expect(posts.slice(1).every((entry) => entry.sessionId === sessionId)).toBe(true);
      await expect.poll(() => mine.concat(server.log.slice(first + mine.length)).find((entry) => entry.method === 'DELETE')?.status).toBe(200);
      expect(server.closedSessions).toContain(sessionId);
    } else {
      expect(server.log.slice(first).some((entry) => entry.method === 'DELETE')).toBe(false);
    }
    expect(errors.map((error) => error.message)).toEqual([]);
  });
});

describe.each(peers.filter((peer) => peer.stateful))('session expiry on the official $name server', (peer) => {
  it('re-initializes transparently and replays the request that met the 404', async () => {
    const server = await peer.start();
    try {
      const errors: Error[] = [];
      const client = newClient('2025-11-25', errors);
      const renewed: string[] = [];
      const transport = new StreamableHttpClientTransport(server.url, { onsessionrenewed: (renewal) => renewed.push(renewal.expiredSessionId) });
      await client.connect(transport);
      const expired = transport.sessionId;
      await server.expireSessions();
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'again' } }))).toBe('echo: again');
      expect(renewed).toEqual([expired]);
      expect(transport.sessionId).toBeDefined();
      expect(transport.sessionId).not.toBe(expired);
      const statuses = server.log.filter((entry) => entry.method === 'POST').map((entry) => entry.status);
      expect(statuses).toContain(404);
      await client.close();
      expect(errors.map((error) => error.message)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
