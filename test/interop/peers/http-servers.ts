// Interop peers over HTTP: the official servers (v1 @modelcontextprotocol/sdk and v2
// @modelcontextprotocol/server) served from node:http on 127.0.0.1, in the test process, the
// way each SDK documents it. Every server offers the same tools:
//   echo   {text}  -> "echo: <text>"
//   slow   {steps} -> one progress notification per step (20 ms apart), then "done"
//   sample         -> a sampling/createMessage request to the client during the call,
//                     answering with the sampled text
//   drop   {}      -> progress 1, then the server closes the call's SSE stream (where the
//                     SDK and the negotiated revision allow it), waits, sends progress 2 and
//                     the result "survived", which the client must fetch by resuming
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CreateMessageResultSchema, type CallToolResult as V1CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  createMcpHandler,
  McpServer as V2McpServer,
  WebStandardStreamableHTTPServerTransport,
  type CallToolResult as V2CallToolResult,
  type EventStore,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { writeWebResponse, toWebRequest } from './node-fetch-bridge.js';

const STEP_MS = 20;

/** One HTTP request a server received, with the status it answered. */
export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly sessionId: string | undefined;
  readonly protocolVersion: string | undefined;
  readonly lastEventId: string | undefined;
  status?: number;
}

/** A server listening on 127.0.0.1. */
export interface RunningServer {
  /** The URL clients connect to. */
  readonly url: URL;
  readonly log: LoggedRequest[];
  /** Session ids the server closed (through DELETE or otherwise). */
  readonly closedSessions: string[];
  /** Ends every session on the server side, so that their ids get 404 from then on. */
  expireSessions(): Promise<void>;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: unknown) => Promise<void>;

async function listen(path: string, handler: Handler, cleanup: () => Promise<void> = async () => undefined, closedSessions: string[] = []): Promise<RunningServer> {
  const log: LoggedRequest[] = [];
  const server: HttpServer = createServer((req, res) => {
    const entry: LoggedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      sessionId: header(req, 'mcp-session-id'),
      protocolVersion: header(req, 'mcp-protocol-version'),
      lastEventId: header(req, 'last-event-id'),
    };
    log.push(entry);
    res.on('finish', () => {
      entry.status = res.statusCode;
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      handler(req, res, body).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}${path}`),
    log,
    closedSessions,
    expireSessions: cleanup,
    async close() {
      await cleanup();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Answers a request that names no live session the way the official examples do: 404 for an
 * unknown session id, 400 for anything but an initialize without one. Returns whether it answered.
 */
function refusedWithoutSession(req: IncomingMessage, res: ServerResponse, sessionId: string | undefined, body: unknown): boolean {
  if (sessionId !== undefined) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
    return true;
  }
  if (req.method !== 'POST' || !isInitialize(body)) {
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: no session' } }));
    return true;
  }
  return false;
}

function isInitialize(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** An in-memory event store of the interface both SDKs define, so that streams can resume. */
export class MemoryEventStore implements EventStore {
  private readonly events: Array<{ id: string; streamId: string; message: unknown }> = [];

  async storeEvent(streamId: string, message: never): Promise<string> {
    const id = `${streamId}_${this.events.length}`;
    this.events.push({ id, streamId, message });
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((event) => event.id === eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: never) => Promise<void> }): Promise<string> {
    const index = this.events.findIndex((event) => event.id === lastEventId);
    if (index === -1) throw new Error(`unknown event id ${lastEventId}`);
    const streamId = this.events[index]!.streamId;
    for (const event of this.events.slice(index + 1)) {
      // Priming events carry an empty object, not a message.
      if (event.streamId === streamId && Object.keys(event.message as object).length > 0) {
        await send(event.id, event.message as never);
      }
    }
    return streamId;
  }
}

// ---------------------------------------------------------------- v1 (@modelcontextprotocol/sdk)

function v1Text(text: string): V1CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/**
 * `unrelatedSampling`: send the sampling request unrelated to the call, so that it travels on
 * the standalone GET stream; needed in JSON response mode, where v1 drops messages related to
 * a request that are not its response.
 */
function createV1Server(name: string, unrelatedSampling = false): V1McpServer {
  const mcp = new V1McpServer({ name, version: '1.0.0' }, { capabilities: { logging: {} } });
  mcp.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => v1Text(`echo: ${text}`));
  mcp.registerTool('slow', { inputSchema: { steps: z.number() } }, async ({ steps }, extra) => {
    const progressToken = extra._meta?.progressToken;
    for (let step = 1; step <= steps; step++) {
      await sleep(STEP_MS);
      if (progressToken !== undefined) {
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: step, total: steps } });
      }
    }
    return v1Text('done');
  });
  mcp.registerTool('sample', {}, async (extra) => {
    const params = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Say something.' } }], maxTokens: 16 };
    const sampled = unrelatedSampling
      ? await mcp.server.createMessage(params)
      : await extra.sendRequest({ method: 'sampling/createMessage', params }, CreateMessageResultSchema);
    return v1Text(sampled.content.type === 'text' ? sampled.content.text : `[${sampled.content.type}]`);
  });
  mcp.registerTool('drop', {}, async (extra) => {
    const progressToken = extra._meta?.progressToken;
    const notify = async (progress: number): Promise<void> => {
      if (progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total: 2 } });
    };
    await notify(1);
    await sleep(STEP_MS);
    extra.closeSSEStream?.();
    await sleep(100);
    await notify(2);
    return v1Text('survived');
  });
  return mcp;
}

/** How a v1 Streamable HTTP server is wired. */
export type V1StreamableMode = 'stateful' | 'stateful-json' | 'stateless';

/**
 * v1 McpServer over StreamableHTTPServerTransport on `/mcp`. Stateful modes keep one
 * transport and server per session (created on `initialize`, found by `Mcp-Session-Id`) with
 * an event store and a 50 ms retry interval; `stateful-json` answers with JSON bodies; the
 * stateless mode serves each POST with a fresh server and transport and refuses GET and DELETE
 * with 405, as the SDK's stateless example does.
 */
export async function startV1Streamable(mode: V1StreamableMode): Promise<RunningServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const closedSessions: string[] = [];
  const handler: Handler = async (req, res, body) => {
    if (mode === 'stateless') {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const mcp = createV1Server('v1-streamable-stateless');
      res.on('close', () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    const sessionId = header(req, 'mcp-session-id');
    let transport = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (transport === undefined) {
      if (refusedWithoutSession(req, res, sessionId, body)) return;
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: mode === 'stateful-json',
        eventStore: new MemoryEventStore(),
        retryInterval: 50,
        onsessioninitialized: (id) => void sessions.set(id, created),
        onsessionclosed: (id) => {
          sessions.delete(id);
          closedSessions.push(id);
        },
      });
      await createV1Server(`v1-streamable-${mode}`, mode === 'stateful-json').connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  };
  const cleanup = async (): Promise<void> => {
    const open = [...sessions.values()];
    sessions.clear();
    await Promise.all(open.map((transport) => transport.close()));
  };
  return listen('/mcp', handler, cleanup, closedSessions);
}

/**
 * v1 McpServer over the legacy SSEServerTransport: GET `/sse` opens the stream and announces
 * `/messages?sessionId=…`, where POSTs go. Nothing answers on any other path (404), which is
 * what a Streamable HTTP probe of `/sse` runs into.
 */
export async function startV1Sse(): Promise<RunningServer> {
  const sessions = new Map<string, SSEServerTransport>();
  const closedSessions: string[] = [];
  const handler: Handler = async (req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      res.on('close', () => {
        sessions.delete(transport.sessionId);
        closedSessions.push(transport.sessionId);
      });
      await createV1Server('v1-sse').connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
      if (transport === undefined) {
        res.writeHead(404).end('Unknown session');
        return;
      }
      await transport.handlePostMessage(req, res, body);
      return;
    }
    res.writeHead(404).end('Not found');
  };
  const cleanup = async (): Promise<void> => {
    await Promise.all([...sessions.values()].map((transport) => transport.close()));
  };
  return listen('/sse', handler, cleanup, closedSessions);
}

// ---------------------------------------------------------------- v2 (@modelcontextprotocol/server)

function v2Text(text: string): V2CallToolResult {
  return { content: [{ type: 'text', text }] };
}

function createV2Server(name: string): V2McpServer {
  const mcp = new V2McpServer({ name, version: '1.0.0' }, { capabilities: { logging: {} } });
  mcp.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => v2Text(`echo: ${text}`));
  mcp.registerTool('slow', { inputSchema: z.object({ steps: z.number() }) }, async ({ steps }, ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (let step = 1; step <= steps; step++) {
      await sleep(STEP_MS);
      if (progressToken !== undefined) {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: step, total: steps } });
      }
    }
    return v2Text('done');
  });
  mcp.registerTool('sample', {}, async (ctx) => {
    const sampled = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: 'Say something.' } }], maxTokens: 16 });
    const first = Array.isArray(sampled.content) ? sampled.content[0] : sampled.content;
    return v2Text(first?.type === 'text' ? first.text : `[${first?.type}]`);
  });
  mcp.registerTool('drop', {}, async (ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const notify = async (progress: number): Promise<void> => {
      if (progressToken !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total: 2 } });
    };
    await notify(1);
    await sleep(STEP_MS);
    ctx.http?.closeSSE?.();
    await sleep(100);
    await notify(2);
    return v2Text('survived');
  });
  return mcp;
}

/** How a v2 Streamable HTTP server is wired. */
export type V2StreamableMode = 'stateful' | 'stateless';

/**
 * v2 over HTTP on `/mcp`, bridged from node:http to the SDK's web-standard face. `stateful`:
 * one McpServer and WebStandardStreamableHTTPServerTransport per session, with an event
 * store and a 50 ms retry interval. `stateless`: `createMcpHandler(factory).fetch`, the v2
 * serving entry, whose 2025-era traffic is served statelessly (GET and DELETE get 405).
 */
export async function startV2Streamable(mode: V2StreamableMode): Promise<RunningServer> {
  const closedSessions: string[] = [];
  if (mode === 'stateless') {
    const entry = createMcpHandler(() => createV2Server('v2-streamable-stateless'));
    const handler: Handler = async (req, res, body) => {
      const response = await entry.fetch(toWebRequest(req, res, body), { parsedBody: body });
      await writeWebResponse(response, res);
    };
    return listen('/mcp', handler, () => entry.close(), closedSessions);
  }
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const handler: Handler = async (req, res, body) => {
    const sessionId = header(req, 'mcp-session-id');
    let transport = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (transport === undefined) {
      if (refusedWithoutSession(req, res, sessionId, body)) return;
      const created = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new MemoryEventStore(),
        retryInterval: 50,
        onsessioninitialized: (id) => void sessions.set(id, created),
        onsessionclosed: (id) => {
          sessions.delete(id);
          closedSessions.push(id);
        },
      });
      await createV2Server('v2-streamable-stateful').connect(created);
      transport = created;
    }
    const response = await transport.handleRequest(toWebRequest(req, res, body), { parsedBody: body });
    await writeWebResponse(response, res);
  };
  const cleanup = async (): Promise<void> => {
    const open = [...sessions.values()];
    sessions.clear();
    await Promise.all(open.map((transport) => transport.close()));
  };
  return listen('/mcp', handler, cleanup, closedSessions);
}
