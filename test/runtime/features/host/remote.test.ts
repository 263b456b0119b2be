import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { SdkError } from '../../../../runtime/core/errors.js';
import { createMcpHttpHandler } from '../../../../runtime/transports/http/handler.js';
import { McpServer } from '../../../../runtime/features/mcp-server/mcp-server.js';
import { toNodeHandler } from '../../../../runtime/transports/node/http.js';
import { ConnectionManager } from '../../../../runtime/features/host/manager.js';
import type { ServerState } from '../../../../runtime/features/host/server-connection.js';

/** An MCP server over Streamable HTTP that answers 401 unless the request carries `token` (when set). */
class RemoteFixture {
  private http: HttpServer | undefined;
  port = 0;
  requests = 0;

  constructor(private readonly token?: string) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  async start(port = 0): Promise<void> {
    const mcp = new McpServer({ name: 'remote-fixture', version: '1.0.0' });
    mcp.registerTool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, (args) => ({
      content: [{ type: 'text', text: String((args as { text?: unknown }).text) }],
    }));
    const handler = toNodeHandler(createMcpHttpHandler({ server: () => mcp.createServer(), legacySse: true }));
    const http = createServer((request, response) => {
      this.requests += 1;
      if (this.token !== undefined && request.headers.authorization !== `Bearer ${this.token}`) {
        response.writeHead(401, { 'www-authenticate': 'Bearer realm="mcp"', 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
        return;
      }
      handler(request, response);
    });
    await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
    this.http = http;
    this.port = (http.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const http = this.http;
    this.http = undefined;
    if (http === undefined) return;
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function fixture(token?: string): Promise<RemoteFixture> {
  const server = new RemoteFixture(token);
  await server.start();
  cleanups.push(() => server.stop());
  return server;
}

function track(manager: ConnectionManager): ConnectionManager {
  cleanups.push(() => manager.close());
  return manager;
}

describe('ConnectionManager with remote servers', () => {
  it('marks a server that answers 401 as needs-auth, and connects with an auth hook', async () => {
    const server = await fixture('good-token');
    let fetches = 0;
    const manager = track(new ConnectionManager({
      bare: { type: 'http', url: server.url },
      headers: { type: 'http', url: server.url, auth: { headers: async () => ({ authorization: 'Bearer good-token' }) } },
      fetch: {
        type: 'http',
        url: server.url,
        auth: {
          fetch: (url, init) => {
            fetches += 1;
            const headers = new Headers(init.headers);
            headers.set('authorization', 'Bearer good-token');
            return fetch(url, { ...init, headers });
          },
        },
      },
    }, { connectTimeoutMs: 10_000 }));
    const statuses = await manager.connectAll();
    expect(statuses.bare).toMatchObject({ state: 'needs-auth', reason: expect.stringContaining('HTTP 401') });
    expect(statuses.headers).toMatchObject({ state: 'connected', transport: 'streamable-http' });
    expect(statuses.fetch).toMatchObject({ state: 'connected', transport: 'streamable-http' });
    expect(fetches).toBeGreaterThan(0);
    expect((await manager.callTool('mcp__headers__echo', { text: 'authorised' })).content).toEqual([{ type: 'text', text: 'authorised' }]);
    await expect(manager.callTool({ server: 'bare', tool: 'echo' })).rejects.toThrow(/bare is not connected \(needs-auth: .*401/);
  });

  it('connects over HTTP+SSE when the entry says sse', async () => {
    const server = await fixture();
    const manager = track(new ConnectionManager({ legacy: { type: 'sse', url: `http://127.0.0.1:${server.port}/sse` } }));
    expect((await manager.connectAll()).legacy).toMatchObject({ state: 'connected', transport: 'sse' });
    expect((await manager.callTool('mcp__legacy__echo', { text: 'over sse' })).content).toEqual([{ type: 'text', text: 'over sse' }]);
  });

  it('fails fast on a refused connection without blocking other servers', async () => {
    const server = await fixture();
    const closed = await fixture();
    const deadUrl = closed.url;
    await closed.stop();
    const manager = track(new ConnectionManager({ ok: { type: 'http', url: server.url }, dead: { type: 'http', url: deadUrl } }));
    const statuses = await manager.connectAll();
    expect(statuses.ok?.state).toBe('connected');
    expect(statuses.dead).toMatchObject({ state: 'failed', reason: expect.stringMatching(/failed/) });
  });

  it('reconnects a lost remote server with backoff once it is back', async () => {
    const server = await fixture();
    const states: ServerState[] = [];
    const manager = track(new ConnectionManager({ api: { type: 'http', url: server.url } }, {
      reconnect: { initialDelayMs: 50, maxDelayMs: 200, maxAttempts: 50 },
      onstatus: (_name, status) => states.push(status.state),
    }));
    await manager.connectAll();
    expect((await manager.callTool({ server: 'api', tool: 'echo' }, { text: 'one' })).content).toEqual([{ type: 'text', text: 'one' }]);
    const port = server.port;
    await server.stop();
    const error = await manager.callTool({ server: 'api', tool: 'echo' }, { text: 'lost' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SdkError);
    await expect.poll(() => manager.status('api').state).toBe('reconnecting');
    await server.start(port);
    await expect.poll(() => manager.status('api').state, { timeout: 5_000 }).toBe('connected');
    expect((await manager.callTool({ server: 'api', tool: 'echo' }, { text: 'two' })).content).toEqual([{ type: 'text', text: 'two' }]);
    expect(states.slice(0, 3)).toEqual(['connecting', 'connected', 'reconnecting']);
    expect(states.at(-1)).toBe('connected');
  });
});
