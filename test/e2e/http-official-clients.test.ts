// Our HTTP server (Node adapter, real sockets on 127.0.0.1) against the official TypeScript
// SDK clients: v2 (@modelcontextprotocol/client) and v1 (@modelcontextprotocol/sdk) Streamable
// HTTP transports for every stateful revision they can request, the v1 and v2 SSE transports
// against the legacy HTTP+SSE leg, SEP-1699 polling, and 100 concurrent isolated sessions.
import {
  Client as V2Client,
  SSEClientTransport as V2SseTransport,
  StreamableHTTPClientTransport as V2StreamableTransport,
  SUPPORTED_PROTOCOL_VERSIONS as V2_VERSIONS,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as V1SseTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as V1StreamableTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport as V1Transport, TransportSendOptions as V1SendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema, type JSONRPCMessage as V1Message } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../../runtime/index.js';
import { InMemoryEventStore } from '../../runtime/http.js';
import { createMcpNodeServer, type McpNodeServer } from '../../runtime/node.js';
import { createHttpTestServer, eventually } from '../runtime/transports/http/server-support.js';
import { createDemoServer } from './fixtures/demo-server.js';

const STREAMABLE_REVISIONS = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;

interface Endpoint {
  readonly node: McpNodeServer;
  readonly url: URL;
}

async function serve(server: () => Server): Promise<Endpoint> {
  const node = createMcpNodeServer({
    server,
    path: '/mcp',
    eventStore: new InMemoryEventStore({ maxEvents: 50_000 }),
    retryMs: 30,
    legacySse: { ssePath: '/sse', messagePath: '/messages' },
  });
  return { node, url: await node.listen() };
}

let demo: Endpoint;
let tools: Endpoint;
beforeAll(async () => {
  [demo, tools] = await Promise.all([serve(createDemoServer), serve(createHttpTestServer)]);
});
afterAll(async () => {
  await Promise.all([demo.node.close(), tools.node.close()]);
});

const samplingReply = (text: string) => ({ role: 'assistant' as const, content: { type: 'text' as const, text: `re: ${text}` }, model: 'official-client' });
const textOf = (result: unknown): string => ((result as { content: Array<{ text: string }> }).content[0]!.text);

/** What the wrapper needs of a v1 HTTP client transport. */
interface V1HttpTransport extends V1Transport {
  setProtocolVersion?(version: string): void;
}

/** The v1 Client always offers its newest revision; this wrapper rewrites the offer, like the stdio interop peer does. */
class PinnedVersionTransport implements V1Transport {
  onmessage?: V1Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(
    readonly inner: V1HttpTransport,
    private readonly version: string,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    await this.inner.start();
  }

  async send(message: V1Message, options?: V1SendOptions): Promise<void> {
    const pinned = 'method' in message && message.method === 'initialize' && 'id' in message
      ? { ...message, params: { ...message.params, protocolVersion: this.version } }
      : message;
    await this.inner.send(pinned as V1Message, options);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}

function newV1Client(): V1Client {
  const client = new V1Client({ name: 'official-v1', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, (request) => samplingReply((request.params.messages[0]!.content as { text: string }).text));
  return client;
}

function newV2Client(version: string): V2Client {
  const client = new V2Client(
    { name: 'official-v2', version: '1.0.0' },
    { capabilities: { sampling: {} }, supportedProtocolVersions: [version, ...V2_VERSIONS.filter((v: string) => v !== version)] },
  );
  client.setRequestHandler('sampling/createMessage', (request) => samplingReply((request.params.messages[0]!.content as { text: string }).text));
  return client;
}

describe.each(STREAMABLE_REVISIONS)('official v2 Streamable HTTP client, revision %s', (revision) => {
  it('initializes, lists and calls tools with progress and sampling, and deletes the session', async () => {
    const client = newV2Client(revision);
    const transport = new V2StreamableTransport(demo.url);
    await client.connect(transport);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      expect(client.getServerVersion()).toEqual({ name: 'e2e-server', version: '1.0.0' });
      const sessionId = transport.sessionId!;
      expect(demo.node.mcp.sessions.get(sessionId)?.protocolVersion).toBe(revision);
      expect((await client.listTools()).tools.length).toBeGreaterThan(20);
      const progress: number[] = [];
      const slow = await client.callTool({ name: 'slow', arguments: { steps: 3 } }, { onprogress: (update) => progress.push(update.progress) });
      expect(textOf(slow)).toBe('done');
      expect(progress).toEqual([1, 2, 3]);
      expect(textOf(await client.callTool({ name: 'sample', arguments: { text: 'ping' } }))).toBe('sampled: re: ping');
      await transport.terminateSession();
      expect(demo.node.mcp.sessions.get(sessionId)).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});

describe.each(STREAMABLE_REVISIONS)('official v1 Streamable HTTP client, revision %s', (revision) => {
  it('initializes, lists and calls tools with progress and sampling, and deletes the session', async () => {
    const client = newV1Client();
    const inner = new V1StreamableTransport(demo.url);
    await client.connect(new PinnedVersionTransport(inner, revision));
    try {
      expect(inner.protocolVersion).toBe(revision);
      const sessionId = inner.sessionId!;
      expect(demo.node.mcp.sessions.get(sessionId)?.protocolVersion).toBe(revision);
      expect((await client.listTools()).tools).toHaveLength(10);
      const progress: number[] = [];
      const slow = await client.callTool({ name: 'slow', arguments: { steps: 3 } }, undefined, { onprogress: (update) => progress.push(update.progress) });
      expect(textOf(slow)).toBe('done');
      expect(progress).toEqual([1, 2, 3]);
      expect(textOf(await client.callTool({ name: 'sample', arguments: { text: 'pong' } }))).toBe('sampled: re: pong');
      await inner.terminateSession();
      expect(demo.node.mcp.sessions.get(sessionId)).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});

describe.each(['2024-11-05', '2025-11-25'])('official v1 SSE client against the legacy leg, revision %s', (revision) => {
  it('initializes, calls tools with sampling, and ends the session with the stream', async () => {
    const client = newV1Client();
    const inner = new V1SseTransport(new URL('/sse', demo.url));
    await client.connect(new PinnedVersionTransport(inner, revision));
    const before = demo.node.mcp.sessions.ids().filter((id) => demo.node.mcp.sessions.get(id)?.transport === 'sse');
    expect(before).toHaveLength(1);
    expect(demo.node.mcp.sessions.get(before[0]!)?.protocolVersion).toBe(revision);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'legacy' } }))).toBe('echo: legacy');
    const progress: number[] = [];
    // The last progress may reach the v1 client after the result: it handles notifications a
    // microtask later than responses, and over one SSE stream both arrive back to back.
    await client.callTool({ name: 'slow', arguments: { steps: 3, stepMs: 5 } }, undefined, { onprogress: (update) => progress.push(update.progress) });
    expect(progress.slice(0, 2)).toEqual([1, 2]);
    expect(textOf(await client.callTool({ name: 'sample', arguments: { text: 'old' } }))).toBe('sampled: re: old');
    await client.close();
    await eventually(() => demo.node.mcp.sessions.get(before[0]!) === undefined);
  });
});

describe('official v2 SSE client against the legacy leg', () => {
  it('negotiates 2024-11-05 and calls a tool', async () => {
    const client = newV2Client('2024-11-05');
    await client.connect(new V2SseTransport(new URL('/sse', demo.url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2024-11-05');
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'v2 legacy' } }))).toBe('echo: v2 legacy');
    } finally {
      await client.close();
    }
  });
});

describe('SEP-1699 polling with official clients (2025-11-25)', () => {
  it('v2: the server closes the call stream mid-call and the client resumes it with GET + Last-Event-ID', async () => {
    const client = newV2Client('2025-11-25');
    const transport = new V2StreamableTransport(tools.url);
    await client.connect(transport);
    try {
      const progress: string[] = [];
      const result = await client.callTool({ name: 'poll', arguments: { pauseMs: 60 } }, { onprogress: (update) => progress.push(String(update.message)) });
      expect(textOf(result)).toBe('polled:true');
      expect(progress).toEqual(['before close', 'while away', 'still away']);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('v1: the same, through the v1 transport', async () => {
    const client = newV1Client();
    const transport = new V1StreamableTransport(tools.url);
    await client.connect(transport);
    try {
      const progress: string[] = [];
      const result = await client.callTool({ name: 'poll', arguments: { pauseMs: 60 } }, undefined, { onprogress: (update) => progress.push(String(update.message)) });
      expect(textOf(result)).toBe('polled:true');
      expect(progress).toEqual(['before close', 'while away', 'still away']);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });
});

describe('isolation', () => {
  it('keeps 100 concurrent v1 client sessions apart', async () => {
    const count = 100;
    const started = performance.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: count }, async (_, index) => {
        const client = new V1Client({ name: `iso-${index}`, version: '1.0.0' });
        const transport = new V1StreamableTransport(tools.url);
        const foreign: unknown[] = [];
        client.fallbackNotificationHandler = async (notification) => void foreign.push(notification);
        await client.connect(transport);
        const tag = `client-${index}`;
        const progress: string[] = [];
        const result = await client.callTool(
          { name: 'whoami', arguments: { tag, steps: 3, stepMs: 1 + (index % 5) } },
          undefined,
          { onprogress: (update) => progress.push(String(update.message)) },
        );
        const sessionId = transport.sessionId!;
        await transport.terminateSession();
        await client.close();
        return { tag, sessionId, text: textOf(result), progress, foreign };
      }),
    );
    const elapsedMs = Math.round(performance.now() - started);
    const failures = outcomes.filter((outcome) => outcome.status === 'rejected');
    console.info(`isolation: ${count} concurrent sessions in ${elapsedMs} ms, ${failures.length} failures`);
    expect(failures).toEqual([]);
    const sessions = new Set<string>();
    for (const outcome of outcomes) {
      const { tag, sessionId, text, progress, foreign } = (outcome as PromiseFulfilledResult<{ tag: string; sessionId: string; text: string; progress: string[]; foreign: unknown[] }>).value;
      expect(text).toBe(`${tag}@${sessionId}`);
      expect(progress).toEqual([`${tag}:1`, `${tag}:2`, `${tag}:3`]);
      expect(foreign).toEqual([]);
      sessions.add(sessionId);
    }
    expect(sessions.size).toBe(count);
    await eventually(() => tools.node.mcp.stats().sessions === 0);
    expect(tools.node.mcp.stats()).toEqual({ sessions: 0, connections: 0, timers: 0, pendingRequests: 0 });
  });
});
