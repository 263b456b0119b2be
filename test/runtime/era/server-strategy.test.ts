/** The Server's era strategies: what each state admits, how it runs a handler, where notifications go. */
import { describe, expect, it } from 'vitest';
import { revisionModule } from '../../../generated/2025-11-25/index.js';
import { Method } from '../../../generated/methods.js';
import type { JSONRPCRequest } from '../../../runtime/core/jsonrpc.js';
import { ProtocolError } from '../../../runtime/core/errors.js';
import type { RequestContext } from '../../../runtime/core/request-context.js';
import { resolveRevisions } from '../../../runtime/core/revisions.js';
import { defaultRequestStateCodec } from '../../../runtime/era/request-state.js';
import { serverEras, type ServerEraHost } from '../../../runtime/era/server-strategy.js';
import { Subscriptions } from '../../../runtime/era/subscriptions.js';
import type { Negotiated } from '../../../runtime/era/negotiated.js';
import { createLinkedPair, Server } from '../../../runtime/index.js';

function fakeHost(): { host: ServerEraHost; notified: Array<{ method: string; related: unknown }>; settled: Array<Negotiated | undefined>; published: string[] } {
  const notified: Array<{ method: string; related: unknown }> = [];
  const settled: Array<Negotiated | undefined> = [];
  const published: string[] = [];
  const revisions = resolveRevisions(undefined, undefined, ['stateful', 'stateless'], undefined);
  const subscriptions = new Subscriptions({}, async () => {});
  const publish = subscriptions.publish.bind(subscriptions);
  subscriptions.publish = (method, params) => {
    published.push(method);
    return publish(method, params);
  };
  const host: ServerEraHost = {
    versions: { stateful: revisions.ofEra('stateful'), stateless: revisions.ofEra('stateless'), revisions, defaultRevision: '2025-11-25' },
    state: undefined,
    settle: (state) => settled.push(state),
    bound: revisionModule,
    bind: () => {},
    stateless: { serverInfo: { name: 's', version: '1' }, codec: defaultRequestStateCodec() },
    subscriptions,
    notify: async (method, _params, options) => {
      notified.push({ method, related: options?.relatedRequestId });
    },
  };
  return { host, notified, settled, published };
}

const context = { method: Method.ToolsList } as unknown as RequestContext;
const statelessMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
};
const toolsList: JSONRPCRequest = { jsonrpc: '2.0', id: 1, method: Method.ToolsList, params: { _meta: statelessMeta } };

describe('serverEras', () => {
  it('refuses requests before anything is negotiated, naming the method', () => {
    const { none } = serverEras(fakeHost().host);
    let thrown: unknown;
    try {
      none.run(Method.ToolsList, () => ({ tools: [] }), undefined, context);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProtocolError);
    expect(thrown).toMatchObject({ code: revisionModule.errorCodes.INVALID_REQUEST, message: `Received ${Method.ToolsList} before initialize` });
    expect(none).toMatchObject({ era: undefined, handshakeFree: false, restorable: true });
  });

  it('admits every request of a stateful session as it is and runs the handler directly', async () => {
    const { host, settled } = fakeHost();
    const { stateful } = serverEras(host);
    expect(stateful.revisionFor(toolsList)).toBeUndefined();
    expect(stateful.admit(toolsList)).toBeUndefined();
    expect(settled).toEqual([]);
    expect(stateful.run(Method.ToolsList, (params) => ({ echoed: params }), { a: 1 }, context)).toEqual({ echoed: { a: 1 } });
  });

  it('lets a request naming a stateless version settle the stateless era while nothing is negotiated', async () => {
    const { host, settled } = fakeHost();
    const { none } = serverEras(host);
    expect(none.revisionFor(toolsList)).toBe('2026-07-28');
    await host.versions.revisions.load('2026-07-28');
    expect(none.admit(toolsList)).toBeUndefined();
    expect(settled).toMatchObject([{ era: 'stateless', revision: '2026-07-28' }]);
  });

  it('asks for no load in the stateless era when the request names the bound revision, and for the one it names otherwise', async () => {
    const { host } = fakeHost();
    const stateless2026 = await host.versions.revisions.load('2026-07-28');
    const bound = { ...host, bound: stateless2026 };
    const { stateless } = serverEras(bound);
    expect(stateless.revisionFor(toolsList)).toBeUndefined();
    const { stateless: boundElsewhere } = serverEras(host);
    expect(boundElsewhere.revisionFor(toolsList)).toBe('2026-07-28');
  });

  it('sends a stateless notification of no request to the listen streams only', async () => {
    const { host, notified, published } = fakeHost();
    const { stateless, stateful } = serverEras(host);
    expect(stateless).toMatchObject({ era: 'stateless', handshakeFree: true, restorable: false });
    await stateless.notify(Method.NotificationsToolsListChanged, undefined, undefined);
    expect(published).toEqual([Method.NotificationsToolsListChanged]);
    expect(notified).toEqual([]);
    await stateless.notify(Method.NotificationsProgress, { progress: 1, progressToken: 't' }, { relatedRequestId: 7 });
    await stateful.notify(Method.NotificationsToolsListChanged, undefined, undefined);
    expect(notified).toEqual([{ method: Method.NotificationsProgress, related: 7 }, { method: Method.NotificationsToolsListChanged, related: undefined }]);
    expect(published).toHaveLength(1);
  });
});

describe('a Server switching strategies with its negotiated state', () => {
  async function connected() {
    const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: { listChanged: true } } });
    server.setRequestHandler(Method.ToolsList, () => ({ tools: [] }));
    const [a, b] = createLinkedPair();
    await server.connect(b);
    const received: Array<Record<string, unknown>> = [];
    const replies = new Map<number, (message: Record<string, unknown>) => void>();
    a.onmessage = (message) => {
      const value = message as Record<string, unknown>;
      received.push(value);
      if (typeof value.id === 'number' && !('method' in value)) replies.get(value.id)?.(value);
    };
    await a.start();
    let next = 1;
    const request = async (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const id = next++;
      const reply = new Promise<Record<string, unknown>>((resolve) => replies.set(id, resolve));
      await a.send({ jsonrpc: '2.0', id, method, params });
      return reply;
    };
    return { server, request, received };
  }

  it('serves the stateless era after a request naming its version, and refuses to restore a session into it', async () => {
    const { server, request, received } = await connected();
    expect(server.isInitialized).toBe(false);
    const reply = await request(Method.ToolsList, toolsList.params as Record<string, unknown>);
    expect(reply.result).toMatchObject({ tools: [], resultType: 'complete' });
    expect(server.era).toBe('stateless');
    expect(server.isInitialized).toBe(true);
    expect(() => server.restoreSession({ protocolVersion: '2025-11-25', clientCapabilities: {}, clientInfo: { name: 'c', version: '1' }, initialized: true }))
      .toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }) as unknown as Error);
    // A change notification of no request goes to listen streams (none here), not to the wire.
    const before = received.length;
    await server.notification(Method.NotificationsToolsListChanged, undefined as never);
    expect(received).toHaveLength(before);
  });

  it('falls back to the handshake after a stateless probe, and then sends change notifications on the wire', async () => {
    const { server, request, received } = await connected();
    await request(Method.ToolsList, toolsList.params as Record<string, unknown>);
    const init = await request(Method.Initialize, { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } });
    expect(init.result).toMatchObject({ protocolVersion: '2025-11-25' });
    expect(server.era).toBe('stateful');
    expect(server.isInitialized).toBe(false);
    await server.notification(Method.NotificationsToolsListChanged, undefined as never);
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(received.some((message) => message.method === Method.NotificationsToolsListChanged)).toBe(true);
  });
});
