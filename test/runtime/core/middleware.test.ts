// Middleware through real engines on both sides (an in-memory pair that serializes every
// message), in both eras, and against the official v2 server over HTTP: the order of a chain,
// short-circuits, rewritten params, rejections, the notification chain and the client's
// outgoing chain around a whole multi round-trip request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createLinkedPair,
  ErrorCodes,
  isCallOf,
  McpServer,
  ProtocolError,
  SdkError,
  StreamableHttpClientTransport,
  type IncomingRequest,
  type Middleware,
  type OutgoingRequest,
  type Stateful,
} from '../../../runtime/index.js';
import { startV2Streamable, type RunningServer } from '../../interop/peers/http-servers.js';

function echoServer(options: ConstructorParameters<typeof McpServer>[1] = {}): { mcp: McpServer; calls: unknown[] } {
  const calls: unknown[] = [];
  const mcp = new McpServer({ name: 'echo', version: '1.0.0' }, options);
  mcp.registerTool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, ({ text }, context) => {
    calls.push({ text, meta: context._meta?.['example.com/tag'] });
    return { content: [{ type: 'text', text: `echo: ${text}` }] };
  });
  mcp.registerTool('confirm', {}, async (_args, context) => {
    const answer = await context.elicitForm('Sure?', { type: 'object', properties: { yes: { type: 'boolean' } } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return { mcp, calls };
}

async function connected(mcp: McpServer, era: string, middleware: Middleware[] = []): Promise<Client> {
  const [clientSide, serverSide] = createLinkedPair({ serialize: true });
  await mcp.connect(serverSide);
  const client = new Client({ name: 'client', version: '1.0.0' }, { protocolVersion: era, negotiation: 'pin', eraCache: false, capabilities: { elicitation: { form: {} }, roots: { listChanged: true } }, middleware });
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { yes: true } }));
  await client.connect(clientSide);
  return client;
}

function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

describe.each(['2025-11-25', '2026-07-28'])('server middleware, %s', (era) => {
  it('runs in the order added, the first outermost, and sees the call and its context', async () => {
    const trail: string[] = [];
    const seen: IncomingRequest[] = [];
    const layer = (name: string): Middleware => ({
      async incoming(call, next) {
        trail.push(`${name}>${call.method}`);
        if (name === 'a') seen.push(call);
        const result = await next();
        trail.push(`<${name}`);
        return result;
      },
    });
    const { mcp } = echoServer({ middleware: [layer('a')] });
    mcp.use(layer('b'));
    const client = await connected(mcp, era);
    trail.length = 0;
    seen.length = 0;
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('echo: hi');
    expect(trail).toEqual(['a>tools/call', 'b>tools/call', '<b', '<a']);
    const call = seen[0]!;
    expect(call).toMatchObject({ side: 'server', method: 'tools/call', revision: era, era: era === '2025-11-25' ? 'stateful' : 'stateless' });
    expect(call.params).toMatchObject({ name: 'echo', arguments: { text: 'hi' } });
    expect(call.requestId).toBe(call.context.requestId);
    expect(call.context.signal.aborted).toBe(false);
    await client.close();
  });

  it('short-circuits, rewrites params, and rejects with a JSON-RPC error', async () => {
    const { mcp, calls } = echoServer({
      middleware: [{
        incoming(call, next) {
          if (!isCallOf(call, 'tools/call')) return next();
          const name = call.params.name;
          if (name === 'cached') return { content: [{ type: 'text', text: 'from cache' }] };
          if (name === 'forbidden') throw new ProtocolError(ErrorCodes.INVALID_REQUEST, 'Denied by policy', { tool: name });
          return next({ ...call.params, arguments: { text: 'rewritten' } });
        },
      }],
    });
    const client = await connected(mcp, era);
    expect(textOf(await client.callTool({ name: 'cached', arguments: {} }))).toBe('from cache');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'original' } }))).toBe('echo: rewritten');
    await expect(client.callTool({ name: 'forbidden', arguments: {} })).rejects.toMatchObject({ code: ErrorCodes.INVALID_REQUEST, message: 'Denied by policy', data: { tool: 'forbidden' } });
    expect(calls).toEqual([{ text: 'rewritten', meta: undefined }]);
    await client.close();
  });

  it("wraps the client's whole call, every round of it, in its outgoing chain, and its input handlers in the incoming one", async () => {
    const outgoing: OutgoingRequest[] = [];
    const incoming: string[] = [];
    const { mcp, calls } = echoServer();
    const client = await connected(mcp, era, [{
      outgoing(call, next) {
        outgoing.push(call);
        const meta = { ...(call.params?._meta as Record<string, unknown> | undefined), 'example.com/tag': 'tagged' };
        return next({ ...call.params, _meta: meta });
      },
      incoming(call, next) {
        incoming.push(`${call.side} ${call.method} ${call.era}`);
        return next();
      },
    }]);
    outgoing.length = 0;
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'x' } }))).toBe('echo: x');
    expect(calls).toEqual([{ text: 'x', meta: 'tagged' }]);
    expect(textOf(await client.callTool({ name: 'confirm', arguments: {} }))).toBe('accept');
    // One call each, though the stateless era's confirm takes two rounds.
    expect(outgoing.map((call) => `${call.side} ${call.method} ${(call.params as { name: string }).name}`)).toEqual(['client tools/call echo', 'client tools/call confirm']);
    expect(incoming).toEqual([`client elicitation/create ${era === '2025-11-25' ? 'stateful' : 'stateless'}`]);
    await client.close();
  });

  it('short-circuits a request on the client: nothing is sent', async () => {
    const { mcp, calls } = echoServer();
    const client = await connected(mcp, era, [{
      outgoing: (call, next) => ((call.params as { name?: string }).name === 'echo' ? { content: [{ type: 'text', text: 'local' }] } : next()),
    }]);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'x' } }))).toBe('local');
    expect(calls).toEqual([]);
    await client.close();
  });
});

describe('the notification chain and the rules of next()', () => {
  it('sees notifications whether or not a handler is registered, and may drop them', async () => {
    const seen: string[] = [];
    const handled: string[] = [];
    const { mcp } = echoServer({
      middleware: [{
        notification(call, next) {
          seen.push(`${call.method} ${call.era}`);
          return call.method === 'notifications/roots/list_changed' ? undefined : next();
        },
      }],
    });
    const client = await connected(mcp, '2025-11-25');
    const session = [...mcp.sessions][0]!;
    session.server.setNotificationHandler('notifications/roots/list_changed', () => {
      handled.push('roots');
    });
    // The notification exists in the stateful era only, which this client speaks.
    await (client as unknown as Client<Stateful.ProtocolTypes>).notifyRootsListChanged();
    await client.callTool({ name: 'echo', arguments: { text: 'after' } });
    expect(seen).toEqual(['notifications/initialized stateful', 'notifications/roots/list_changed stateful']);
    expect(handled).toEqual([]);
    await client.close();
  });

  it('refuses a second next(), and a removed middleware no longer runs', async () => {
    const errors: Error[] = [];
    const twice: Middleware = {
      async incoming(_call, next) {
        await next();
        return next();
      },
    };
    const { mcp, calls } = echoServer({ onerror: (error) => errors.push(error) });
    const client = await connected(mcp, '2025-11-25');
    const remove = mcp.use(twice);
    await expect(client.callTool({ name: 'echo', arguments: { text: 'once' } })).rejects.toMatchObject({ code: ErrorCodes.INTERNAL_ERROR, message: expect.stringContaining('called next() twice') });
    expect(calls).toHaveLength(1);
    expect((errors[0] as SdkError).code).toBe('HANDLER_FAILED');
    remove();
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'again' } }))).toBe('echo: again');
    expect([...mcp.sessions][0]!.server.protocol.middleware.incoming).toBeUndefined();
    await client.close();
  });
});

describe.each(['2025-11-25', '2026-07-28'])('the outgoing notification chain, %s', (era) => {
  it("sees a server handler's progress with the request it belongs to, and may rewrite or drop it", async () => {
    const seen: string[] = [];
    const { mcp } = echoServer({
      middleware: [{
        outgoingNotification(call, next) {
          seen.push(`${call.side} ${call.method} ${String(call.options.relatedRequestId !== undefined)} ${String(call.era)}`);
          if (call.method !== 'notifications/progress') return next();
          // The second report is dropped, the first sent with another message.
          if (call.params?.progress === 2) return undefined;
          return next({ ...call.params, message: 'rewritten' } as typeof call.params);
        },
      }],
    });
    mcp.registerTool('count', {}, async (_args, context) => {
      await context.reportProgress(1, 2, 'first');
      await context.reportProgress(2, 2, 'second');
      return { content: [{ type: 'text', text: 'counted' }] };
    });
    const client = await connected(mcp, era);
    const progress: unknown[] = [];
    const result = await client.callTool({ name: 'count', arguments: {} }, { onprogress: (reported) => progress.push(reported) });
    expect(textOf(result)).toBe('counted');
    expect(progress).toEqual([{ progress: 1, total: 2, message: 'rewritten' }]);
    const stateful = era === '2025-11-25' ? 'stateful' : 'stateless';
    expect(seen).toEqual([`server notifications/progress true ${stateful}`, `server notifications/progress true ${stateful}`]);
    await client.close();
  });

  it("runs around the client's notifications, which it may drop before they are sent", async () => {
    const sent: string[] = [];
    const received: string[] = [];
    const { mcp } = echoServer({ middleware: [{ notification(call, next) { received.push(call.method); return next(); } }] });
    const dropRoots: Middleware = {
      outgoingNotification(call, next) {
        sent.push(`${call.side} ${call.method}`);
        return call.method === 'notifications/roots/list_changed' ? undefined : next();
      },
    };
    const client = await connected(mcp, era, [dropRoots]);
    if (era === '2025-11-25') {
      await (client as unknown as Client<Stateful.ProtocolTypes>).notifyRootsListChanged();
      await client.callTool({ name: 'echo', arguments: { text: 'after' } });
      expect(sent).toEqual(['client notifications/initialized', 'client notifications/roots/list_changed']);
      expect(received).toEqual(['notifications/initialized']);
    } else {
      // The stateless era has no handshake: a tool call sends no notification.
      await client.callTool({ name: 'echo', arguments: { text: 'after' } });
      expect(sent).toEqual([]);
      expect(received).toEqual([]);
    }
    await client.close();
  });
});

describe('against the official v2 server over HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startV2Streamable('stateful');
  });
  afterAll(async () => {
    await server.close();
  });

  it('rewrites what the client sends and times the answer', async () => {
    const timings: string[] = [];
    const client = new Client({ name: 'mcpgen', version: '1.0.0' }, {
      protocolVersion: '2025-11-25',
      middleware: [{
        async outgoing(call, next) {
          const started = performance.now();
          const params = call.method === 'tools/call' ? { ...call.params, arguments: { text: 'from middleware' } } : call.params;
          const result = await next(params);
          timings.push(`${call.method} ${performance.now() - started >= 0 ? 'timed' : ''}`);
          return result;
        },
      }],
    });
    await client.connect(new StreamableHttpClientTransport(server.url));
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'original' } }))).toBe('echo: from middleware');
    expect(timings).toEqual(['initialize timed', 'tools/call timed']);
    await client.close();
  });
});
