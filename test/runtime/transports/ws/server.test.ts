// The Node WebSocket endpoint's admission and limits, over real sockets on 127.0.0.1: Host and
// Origin checks, the mcp subprotocol, the path, the connection cap, the payload cap, binary
// frames, the guard and its authInfo, plain HTTP requests, attaching to a node:http server and
// closing.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Server } from '../../../../runtime/index.js';
import { createMcpWebSocketServer, type McpWebSocketServer, type McpWebSocketServerOptions } from '../../../../runtime/ws-node.js';

const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

function extraServer(): Server {
  const server = new Server({ name: 'ws-server-test', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'extra', inputSchema: { type: 'object' } }] }));
  server.setRequestHandler('tools/call', (_params, context) => ({ content: [{ type: 'text', text: JSON.stringify(context.extra ?? {}) }] }));
  return server;
}

const open: McpWebSocketServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((endpoint) => endpoint.close()));
});

async function start(options: Partial<McpWebSocketServerOptions> = {}): Promise<string> {
  const endpoint = createMcpWebSocketServer({ server: extraServer, path: '/mcp', ...options });
  open.push(endpoint);
  const { port } = await endpoint.listen(0, '127.0.0.1');
  return `ws://127.0.0.1:${port}`;
}

/** Connects a raw socket; resolves with it once open, or with the refusal's status and body. */
function connect(url: string, protocols: string[] = ['mcp'], options: WebSocket.ClientOptions = {}): Promise<{ socket: WebSocket } | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols, options);
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    socket.once('error', (error) => reject(error));
  });
}

async function opened(url: string, options?: WebSocket.ClientOptions): Promise<WebSocket> {
  const outcome = await connect(url, ['mcp'], options);
  if (!('socket' in outcome)) throw new Error(`refused with ${outcome.status}: ${outcome.body}`);
  return outcome.socket;
}

/** The error message of a refusal's JSON-RPC body. */
function refusalMessage(outcome: { socket: WebSocket } | { status: number; body: string }): string {
  return (JSON.parse((outcome as { body: string }).body) as { error: { message: string } }).error.message;
}

function nextMessage(socket: WebSocket): Promise<Record<string, any>> {
  return new Promise((resolve) => socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8')))));
}

function closed(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => socket.once('close', (code: number) => resolve(code)));
}

describe('WebSocket endpoint admission', () => {
  it('refuses a foreign Host and a foreign Origin with 403, and accepts loopback pages', async () => {
    const base = await start();
    const host = await connect(`${base}/mcp`, ['mcp'], { headers: { host: 'evil.example' } });
    expect(host).toMatchObject({ status: 403 });
    expect(refusalMessage(host)).toContain('Host "evil.example" is not allowed');
    const origin = await connect(`${base}/mcp`, ['mcp'], { origin: 'https://evil.example' });
    expect(origin).toMatchObject({ status: 403 });
    expect(refusalMessage(origin)).toContain('Origin "https://evil.example" is not allowed');
    const page = await connect(`${base}/mcp`, ['mcp'], { origin: 'http://localhost:3000' });
    expect('socket' in page).toBe(true);
    (page as { socket: WebSocket }).socket.close();
  });

  it('accepts the hosts it is told to', async () => {
    const base = await start({ allowedHosts: ['mcp.example'] });
    expect(await connect(`${base}/mcp`, ['mcp'], { headers: { host: '127.0.0.1' } })).toMatchObject({ status: 403 });
    const socket = await opened(`${base}/mcp`, { headers: { host: 'mcp.example' } });
    socket.close();
  });

  it('refuses an upgrade that does not offer the mcp subprotocol with 400, and another path with 404', async () => {
    const base = await start();
    const plain = await connect(`${base}/mcp`, []);
    expect(plain).toMatchObject({ status: 400 });
    expect(refusalMessage(plain)).toContain('subprotocol "mcp" is required');
    expect(await connect(`${base}/mcp`, ['graphql-ws'])).toMatchObject({ status: 400 });
    expect(await connect(`${base}/other`)).toMatchObject({ status: 404 });
    const socket = await opened(`${base}/mcp`);
    expect(socket.protocol).toBe('mcp');
    socket.close();
  });

  it('caps the open connections (503 beyond), and frees the place when one closes', async () => {
    const base = await start({ maxConnections: 2 });
    const first = await opened(`${base}/mcp`);
    const second = await opened(`${base}/mcp`);
    const third = await connect(`${base}/mcp`);
    expect(third).toMatchObject({ status: 503 });
    expect(refusalMessage(third)).toContain('2 connections are open');
    const gone = closed(first);
    first.close();
    await gone;
    // The server sees the close after the client does: the place frees up shortly after.
    await expect.poll(async () => {
      const fourth = await connect(`${base}/mcp`);
      if (!('socket' in fourth)) return false;
      fourth.socket.close();
      return true;
    }).toBe(true);
    second.close();
  });

  it('answers a plain HTTP request with 426', async () => {
    const base = await start();
    const status = await new Promise<number>((resolve, reject) => {
      httpRequest(`${base.replace('ws:', 'http:')}/mcp`, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }).on('error', reject).end();
    });
    expect(status).toBe(426);
  });
});

describe('WebSocket endpoint messages', () => {
  it('serves a stateful session per connection and hands handlers a per-connection sessionId', async () => {
    const base = await start();
    const sockets = [await opened(`${base}/mcp`), await opened(`${base}/mcp`)];
    const ids: string[] = [];
    for (const socket of sockets) {
      socket.send(JSON.stringify(INITIALIZE));
      expect((await nextMessage(socket)).result.protocolVersion).toBe('2025-11-25');
      socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'extra', arguments: {} } }));
      const extra = JSON.parse((await nextMessage(socket)).result.content[0].text) as { sessionId: string };
      ids.push(extra.sessionId);
      socket.close();
    }
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).not.toBe(ids[0]);
  });

  it('answers a binary frame and a frame that is no JSON with -32700, and stays open', async () => {
    const base = await start();
    const socket = await opened(`${base}/mcp`);
    socket.send(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}'), { binary: true });
    expect(await nextMessage(socket)).toMatchObject({ id: null, error: { code: -32700 } });
    socket.send('not json');
    expect(await nextMessage(socket)).toMatchObject({ id: null, error: { code: -32700 } });
    socket.send(JSON.stringify(INITIALIZE));
    expect((await nextMessage(socket)).result.protocolVersion).toBe('2025-11-25');
    socket.close();
  });

  it('closes with 1009 on a message over maxPayloadBytes, before reading it', async () => {
    const base = await start({ maxPayloadBytes: 1024 });
    const socket = await opened(`${base}/mcp`);
    const code = closed(socket);
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2048) } }));
    expect(await code).toBe(1009);
  });

  it('runs the guard on the upgrade: its refusal is the HTTP answer, its authInfo reaches every handler', async () => {
    const base = await start({
      guard: async (request) => request.header('authorization') === 'Bearer good'
        ? { request: Object.assign(Object.create(request) as object, { authInfo: { subject: 'alice' } }) as typeof request }
        : { reply: { kind: 'body', status: 401, headers: { 'www-authenticate': 'Bearer realm="mcp"', 'content-type': 'application/json' }, body: '{"error":"invalid_token"}' } },
    });
    const refused = await connect(`${base}/mcp`, ['mcp'], { headers: { authorization: 'Bearer bad' } });
    expect(refused).toEqual({ status: 401, body: '{"error":"invalid_token"}' });
    const socket = await opened(`${base}/mcp`, { headers: { authorization: 'Bearer good' } });
    socket.send(JSON.stringify(INITIALIZE));
    await nextMessage(socket);
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'extra', arguments: {} } }));
    expect(JSON.parse((await nextMessage(socket)).result.content[0].text)).toMatchObject({ authInfo: { subject: 'alice' } });
    socket.close();
  });
});

describe('WebSocket endpoint lifecycle', () => {
  it('serves the upgrades of a node:http server it is attached to, beside its plain requests', async () => {
    const http = createServer((_request, response) => response.end('plain'));
    const endpoint = createMcpWebSocketServer({ server: extraServer, path: '/ws' });
    const detach = endpoint.attach(http);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    const socket = await opened(`ws://127.0.0.1:${port}/ws`);
    socket.send(JSON.stringify(INITIALIZE));
    expect((await nextMessage(socket)).result.serverInfo).toMatchObject({ name: 'ws-server-test' });
    expect(endpoint.connectionCount).toBe(1);
    const code = closed(socket);
    await endpoint.close();
    expect(await code).toBe(1000);
    expect(endpoint.connectionCount).toBe(0);
    detach();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  it('keeps the messages that arrive while an async session factory runs', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const base = await start({
      server: async () => {
        await gate;
        return extraServer();
      },
    });
    const socket = await opened(`${base}/mcp`);
    const answer = nextMessage(socket);
    await new Promise<void>((resolve, reject) => socket.send(JSON.stringify(INITIALIZE), (error) => (error ? reject(error) : resolve())));
    // A plain request to the same server answered means its loop has read the frame by now.
    await new Promise<void>((resolve, reject) => {
      httpRequest(`${base.replace('ws:', 'http:')}/mcp`, (response) => {
        response.resume();
        resolve();
      }).on('error', reject).end();
    });
    release();
    expect((await answer).result.protocolVersion).toBe('2025-11-25');
    socket.close();
  });

  it('ends the session when the client goes away', async () => {
    let serverClosed: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => {
      serverClosed = resolve;
    });
    const base = await start({
      server: () => {
        const server = extraServer();
        server.onclose = serverClosed;
        return server;
      },
    });
    const socket = await opened(`${base}/mcp`);
    socket.terminate();
    await ended;
  });
});

describe('WebSocket endpoint heartbeat', () => {
  it('ends a socket that stops answering pings, and keeps one that answers', async () => {
    const base = await start({ pingIntervalMs: 20 });
    const silent = await opened(`${base}/mcp`, { autoPong: false });
    const answering = await opened(`${base}/mcp`);
    let pings = 0;
    answering.on('ping', () => pings++);
    // The silent client is ended at the tick after the ping it left unanswered.
    expect(await closed(silent)).toBe(1006);
    expect(pings).toBeGreaterThanOrEqual(1);
    expect(answering.readyState).toBe(WebSocket.OPEN);
    answering.send(JSON.stringify(INITIALIZE));
    expect((await nextMessage(answering)).result.protocolVersion).toBe('2025-11-25');
    answering.close();
  });
});
