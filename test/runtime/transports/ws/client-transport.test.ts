// mcpgen's WebSocket client transport against the Node endpoint on 127.0.0.1: dropped sockets
// (answers lost with the socket are answered, the transport reconnects and replays the
// stateful handshake, or gives up and closes), a normal closure, handshake headers, the
// subprotocol, and the standard WebSocket class's limits (no headers, oversized messages).
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { Client, ProtocolError, Server, type ClientOptions } from '../../../../runtime/index.js';
import { InMemoryOAuthStore } from '../../../../runtime/features/auth/index.js';
import { WebSocketClientTransport, type WebSocketClientTransportOptions } from '../../../../runtime/ws.js';
import { createMcpWebSocketServer, type McpWebSocketServer, type McpWebSocketServerOptions } from '../../../../runtime/ws-node.js';

interface Rig {
  readonly url: string;
  readonly endpoint: McpWebSocketServer;
  readonly http: HttpServer;
  /** The raw socket of every upgrade, to drop it the hard way. */
  readonly sockets: Duplex[];
  /** Every session the endpoint created. */
  readonly servers: Server[];
  /** Resolves when the `hang` tool's handler has started. */
  hangStarted(): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function rig(options: Partial<McpWebSocketServerOptions> = {}): Promise<Rig> {
  const servers: Server[] = [];
  const sockets: Duplex[] = [];
  let started: () => void = () => undefined;
  let startedPromise = new Promise<void>((resolve) => {
    started = resolve;
  });
  const endpoint = createMcpWebSocketServer({
    path: '/mcp',
    server: () => {
      const server = new Server({ name: 'ws-client-test', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }, { name: 'hang', inputSchema: { type: 'object' } }] }));
      server.setRequestHandler('tools/call', async (params, context) => {
        if (params.name === 'hang') {
          started();
          await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
        }
        return { content: [{ type: 'text', text: String(params.arguments?.text ?? 'x'.repeat(Number(params.arguments?.size ?? 0))) }] };
      });
      servers.push(server);
      return server;
    },
    ...options,
  });
  const http = createServer();
  http.on('upgrade', (_request, socket: Duplex) => sockets.push(socket));
  const detach = endpoint.attach(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    detach();
    await endpoint.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });
  return {
    url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    endpoint,
    http,
    sockets,
    servers,
    hangStarted: async () => {
      await startedPromise;
      startedPromise = new Promise<void>((resolve) => {
        started = resolve;
      });
    },
  };
}

async function connected(url: string, options: WebSocketClientTransportOptions = {}, clientOptions: ClientOptions = {}): Promise<{ client: Client; transport: WebSocketClientTransport; errors: Error[] }> {
  const errors: Error[] = [];
  const client = new Client({ name: 'ws-client', version: '1.0.0' }, { eraCache: false, onerror: (error) => errors.push(error), ...clientOptions });
  const transport = new WebSocketClientTransport(url, { WebSocket, reconnect: { initialDelayMs: 0, maxRetries: 3 }, ...options });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport, errors };
}

/** Resolves at the transport's next `onerror` (the engine's handler keeps running). */
function nextTransportError(transport: WebSocketClientTransport): Promise<Error> {
  const original = transport.onerror;
  return new Promise((resolve) => {
    transport.onerror = (error) => {
      transport.onerror = original;
      original?.(error);
      resolve(error);
    };
  });
}

const textOf = (result: unknown): string => ((result as { content: { text: string }[] }).content[0]!.text);

describe('WebSocket client transport: dropped sockets', () => {
  it('answers a request whose socket dropped, reconnects and replays the stateful handshake for the new session', async () => {
    const setup = await rig();
    const { client, transport } = await connected(setup.url, {}, { protocolVersion: '2025-11-25' });
    expect(client.era).toBe('stateful');
    const hanging = client.callTool({ name: 'hang', arguments: {} });
    await setup.hangStarted();
    const dropped = nextTransportError(transport);
    setup.sockets[0]!.destroy();
    const failure = await hanging.then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect(failure).toMatchObject({ code: -32000 });
    expect((failure as Error).message).toContain('closed (code 1006) before the answer arrived');
    expect((await dropped).message).toContain('code 1006');
    // The call waits for the reconnection, which ran initialize again on a session of its own.
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'again' } }))).toBe('again');
    expect(setup.servers).toHaveLength(2);
    expect(setup.servers[1]!.protocolVersion).toBe('2025-11-25');
    expect(setup.servers[1]!.clientInfo).toEqual({ name: 'ws-client', version: '1.0.0' });
    expect(setup.servers[1]!.isInitialized).toBe(true);
  });

  it('reconnects in the stateless era without a handshake: every request carries its own', async () => {
    const setup = await rig();
    const { client, transport } = await connected(setup.url);
    expect(client.era).toBe('stateless');
    const dropped = nextTransportError(transport);
    setup.sockets[0]!.destroy();
    await dropped;
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'stateless' } }))).toBe('stateless');
    expect(setup.servers).toHaveLength(2);
    expect(setup.servers[1]!.protocolVersion).toBe('2026-07-28');
  });

  it('gives up after maxRetries failed attempts: closes with the failure as closeReason', async () => {
    const setup = await rig();
    const { client, transport } = await connected(setup.url, { reconnect: { initialDelayMs: 0, maxRetries: 2 } });
    const closed = new Promise<void>((resolve) => {
      client.onclose = resolve;
    });
    // Later upgrades are refused: every reconnection attempt fails.
    setup.http.removeAllListeners('upgrade');
    setup.http.on('upgrade', (_request, socket: Duplex) => socket.end('HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n'));
    setup.sockets[0]!.destroy();
    await closed;
    expect(transport.closeReason?.message).toMatch(/stayed down after 2 reconnection attempts: .*refused with HTTP 503/);
    await expect(client.callTool({ name: 'echo', arguments: {} })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  it('does not reconnect after a normal closure by the server', async () => {
    const setup = await rig();
    const { client, transport } = await connected(setup.url);
    const closed = new Promise<void>((resolve) => {
      client.onclose = resolve;
    });
    await client.callTool({ name: 'echo', arguments: {} });
    await setup.servers[0]!.close();
    await closed;
    expect(transport.closeReason?.message).toContain('closed (code 1000)');
    expect(setup.servers).toHaveLength(1);
  });

  it('with the ws class, refuses an answer over maxMessageBytes unread: the request fails saying so, the socket comes back', async () => {
    const setup = await rig();
    const { client } = await connected(setup.url, { maxMessageBytes: 4096 });
    const failure = await client.callTool({ name: 'echo', arguments: { size: 10_000 } }).then(() => undefined, (error: unknown) => error);
    // ws refuses the frame from its header and drops the socket itself, so the close is abnormal (1006).
    expect(failure).toMatchObject({ code: -32000, message: expect.stringContaining('closed (code 1006: Max payload size exceeded) before the answer arrived') });
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'back' } }))).toBe('back');
    expect(setup.servers).toHaveLength(2);
  });

  it('bounds the messages waiting for a reconnection', async () => {
    const setup = await rig();
    const { client, transport } = await connected(setup.url, { maxQueuedMessages: 1, reconnect: { initialDelayMs: 60_000, maxRetries: 1 } });
    const dropped = nextTransportError(transport);
    setup.sockets[0]!.destroy();
    await dropped;
    const first = client.callTool({ name: 'echo', arguments: { text: 'queued' } });
    await expect(client.callTool({ name: 'echo', arguments: {} })).rejects.toMatchObject({ code: 'SEND_FAILED' });
    await client.close();
    await expect(first).rejects.toMatchObject({ code: expect.stringMatching(/NOT_CONNECTED|CONNECTION_CLOSED|SEND_FAILED/) });
  });
});

describe('WebSocket client transport: handshake', () => {
  it('sends its headers (computed per handshake) with the ws class', async () => {
    const seen: (string | undefined)[] = [];
    const setup = await rig({ guard: async (request) => {
      seen.push(request.header('x-api-key'));
      return { request };
    } });
    let count = 0;
    const { transport } = await connected(setup.url, { headers: () => ({ 'x-api-key': `key-${++count}` }) });
    const dropped = nextTransportError(transport);
    setup.sockets[0]!.destroy();
    await dropped;
    expect(setup.servers).toHaveLength(1);
    const { client } = await connected(setup.url, { headers: { 'x-api-key': 'fixed' } });
    await client.callTool({ name: 'echo', arguments: {} });
    expect(seen[0]).toBe('key-1');
    expect(seen).toContain('fixed');
  });

  it('rejects start with the refusal status, and a server that selects no mcp subprotocol', async () => {
    const setup = await rig({ guard: async () => ({ reply: { kind: 'body', status: 401, headers: {}, body: '' } }) });
    await expect(new WebSocketClientTransport(setup.url, { WebSocket }).start()).rejects.toMatchObject({ name: 'TransportError', status: 401 });
    const other = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => false });
    await new Promise<void>((resolve) => other.once('listening', resolve));
    cleanups.push(() => new Promise<void>((resolve) => other.close(() => resolve())));
    const url = `ws://127.0.0.1:${(other.address() as AddressInfo).port}/`;
    await expect(new WebSocketClientTransport(url, { WebSocket }).start()).rejects.toThrow(/Server sent no subprotocol/);
    await expect(new WebSocketClientTransport(url, { WebSocket: StandardWebSocket }).start()).rejects.toMatchObject({ name: 'TransportError' });
  });

  it('ends a handshake in progress on close(), firing onclose once', async () => {
    const setup = await rig();
    const transport = new WebSocketClientTransport(setup.url, { WebSocket });
    let closes = 0;
    transport.onclose = () => closes++;
    const starting = transport.start();
    await transport.close();
    await expect(starting).rejects.toMatchObject({ name: 'TransportError', message: expect.stringContaining('timed out or was aborted') });
    await transport.close();
    expect(closes).toBe(1);
    await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  it('refuses URLs that are no WebSocket URLs, and runtimes without a WebSocket class', async () => {
    expect(() => new WebSocketClientTransport('http://127.0.0.1/mcp')).toThrow(/ws: or wss:/);
    expect((globalThis as { WebSocket?: unknown }).WebSocket).toBeUndefined();
    await expect(new WebSocketClientTransport('ws://127.0.0.1:1/mcp').start()).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('install the `ws` package') });
  });
});

/** The standard WebSocket API (as browsers have it) over a ws socket: no headers, no event emitter. */
class StandardWebSocket {
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  binaryType = 'blob';
  private readonly inner: WebSocket;

  constructor(url: string, protocols?: string | string[]) {
    this.inner = new WebSocket(url, protocols);
    this.inner.onopen = () => this.onopen?.({});
    this.inner.onmessage = (event) => this.onmessage?.({ data: typeof event.data === 'string' ? event.data : String(event.data) });
    this.inner.onclose = (event) => this.onclose?.({ code: event.code, reason: event.reason });
    this.inner.onerror = () => this.onerror?.({});
  }

  get readyState(): number {
    return this.inner.readyState;
  }

  get protocol(): string {
    return this.inner.protocol;
  }

  get bufferedAmount(): number {
    return this.inner.bufferedAmount;
  }

  send(text: string): void {
    this.inner.send(text);
  }

  close(code?: number, reason?: string): void {
    this.inner.close(code, reason);
  }
}

describe('WebSocket client transport: the standard WebSocket class', () => {
  it('talks MCP, refuses headers and an authProvider it cannot send, and fails a request whose answer exceeds maxMessageBytes', async () => {
    const setup = await rig();
    await expect(new WebSocketClientTransport(setup.url, { WebSocket: StandardWebSocket, headers: { 'x-api-key': 'k' } }).start())
      .rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('sends no request headers') });
    const provider = { clientMetadata: { client_name: 'x' }, redirectUrl: 'http://127.0.0.1:1/cb', store: new InMemoryOAuthStore(), redirectToAuthorization: async () => undefined };
    await expect(new WebSocketClientTransport(setup.url, { WebSocket: StandardWebSocket, authProvider: provider }).start())
      .rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('An authProvider needs a WebSocket class that sends headers') });
    const { client } = await connected(setup.url, { WebSocket: StandardWebSocket, maxMessageBytes: 4096 });
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'standard' } }))).toBe('standard');
    await expect(client.callTool({ name: 'echo', arguments: { size: 10_000 } })).rejects.toThrow(/4096-byte limit/);
    // The connection stays usable.
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
  });
});
