/**
 * Revision modules load when first negotiated: a Server knows its revisions by their facts and
 * loads the module a message needs before dispatching it (later messages wait, in order); a
 * Client loads what it offers and what the server answers with; revisions passed as modules
 * are used as they are, with no loader.
 */
import { describe, expect, it } from 'vitest';
import { revisionModules } from '../../../generated/all.js';
import { Client, createLinkedPair, Server, type RevisionModule } from '../../../runtime/index.js';
import { Protocol } from '../../../runtime/advanced.js';
import type { RevisionLoader } from '../../../runtime/index.js';

const info = { name: 'loading', version: '1.0.0' };

/** A loader that records each load and hands out the real module, at once or when released. */
function fakeLoader(options: { manual?: boolean } = {}) {
  const calls: string[] = [];
  const waiting = new Map<string, () => void>();
  const loader: RevisionLoader = {
    load(revision) {
      calls.push(revision);
      const module = revisionModules[revision]!;
      if (options.manual !== true) return Promise.resolve(module);
      return new Promise<RevisionModule>((resolve) => waiting.set(revision, () => resolve(module)));
    },
  };
  return { loader, calls, release: (revision: string) => waiting.get(revision)!() };
}

/** A loader that must never be called. */
const forbidden: RevisionLoader = {
  load: (revision) => {
    throw new Error(`loader called for ${revision}`);
  },
};

function toolServer(options: ConstructorParameters<typeof Server>[1]): Server {
  const server = new Server(info, { capabilities: { tools: {} }, ...options });
  server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }));
  return server;
}

/** A bare client engine bound to `revision`, connected to `server`. */
async function rawClient(server: Server, revision: string): Promise<Protocol> {
  const protocol = new Protocol({ side: 'client', revision: revisionModules[revision]! });
  const [a, b] = createLinkedPair();
  await server.connect(b);
  await protocol.connect(a);
  return protocol;
}

describe('Server', () => {
  it('pinned with revisions: [module] serves without ever calling a loader', async () => {
    const server = toolServer({ revisions: [revisionModules['2025-11-25']!], revisionLoader: forbidden });
    expect(server.supportedRevisions).toEqual(['2025-11-25']);
    const client = new Client(info, { revisions: [revisionModules['2025-11-25']!], revisionLoader: forbidden });
    const [a, b] = createLinkedPair();
    await server.connect(b);
    await client.connect(a);
    expect(client.protocolVersion).toBe('2025-11-25');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
  });

  it('loads nothing at construction', () => {
    const { loader, calls } = fakeLoader();
    const server = toolServer({ revisionLoader: loader });
    expect(calls).toEqual([]);
    expect(server.protocol.revision).toBeUndefined();
  });

  it.each(['2024-11-05', '2025-06-18', '2025-11-25'])('loads exactly %s for the first initialize asking for it', async (revision) => {
    const { loader, calls } = fakeLoader();
    const server = toolServer({ revisionLoader: loader });
    const protocol = await rawClient(server, revision);
    const result = (await protocol.request('initialize', { protocolVersion: revision, capabilities: {}, clientInfo: info })) as { protocolVersion: string };
    expect(result.protocolVersion).toBe(revision);
    expect(calls).toEqual([revision]);
    await protocol.request('tools/list', {});
    expect(calls).toEqual([revision]);
  });

  it('loads exactly the stateless revision a request names in _meta', async () => {
    const server = fakeLoader();
    const client = fakeLoader();
    const s = toolServer({ revisionLoader: server.loader });
    const c = new Client(info, { revisionLoader: client.loader, eraCache: false });
    const [a, b] = createLinkedPair();
    await s.connect(b);
    await c.connect(a);
    expect(c.era).toBe('stateless');
    expect((await c.listTools()).tools).toHaveLength(1);
    expect(server.calls).toEqual(['2026-07-28']);
    expect(client.calls).toEqual(['2026-07-28']);
  });

  it('holds messages that arrive during a load behind the message that started it', async () => {
    const { loader, calls, release } = fakeLoader({ manual: true });
    const server = toolServer({ revisionLoader: loader });
    const protocol = await rawClient(server, '2025-11-25');
    const order: string[] = [];
    const initialize = protocol.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: info }).then(() => order.push('initialize'));
    // Sent before the handshake finished: it must not overtake initialize (it would be refused as "before initialize").
    const list = protocol.request('tools/list', {}).then(() => order.push('tools/list'));
    const ping = protocol.request('ping').then(() => order.push('ping'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    expect(calls).toEqual(['2025-11-25']);
    release('2025-11-25');
    await Promise.all([initialize, list, ping]);
    expect(order).toEqual(['initialize', 'tools/list', 'ping']);
    expect(calls).toEqual(['2025-11-25']);
  });

  it('restores a session whose module is not loaded yet, and serves it once loaded', async () => {
    const { loader, calls, release } = fakeLoader({ manual: true });
    const server = toolServer({ revisionLoader: loader });
    const restored = server.restoreSession({ protocolVersion: '2025-06-18', clientCapabilities: {}, clientInfo: info, initialized: true });
    expect(server.protocolVersion).toBe('2025-06-18');
    const protocol = await rawClient(server, '2025-06-18');
    const list = protocol.request('tools/list', {});
    release('2025-06-18');
    await restored;
    expect(server.protocol.revision?.revision).toBe('2025-06-18');
    expect(((await list) as { tools: unknown[] }).tools).toHaveLength(1);
    expect(calls).toEqual(['2025-06-18']);
  });
});

describe('Client', () => {
  it('loads the revision it offers, then the older one the server answers with', async () => {
    const client = fakeLoader();
    const server = toolServer({ revisions: [revisionModules['2025-06-18']!] });
    const c = new Client(info, { protocolVersion: '2025-11-25', supportedRevisions: ['2025-06-18', '2025-11-25'], revisionLoader: client.loader });
    const [a, b] = createLinkedPair();
    await server.connect(b);
    await c.connect(a);
    expect(c.protocolVersion).toBe('2025-06-18');
    expect(client.calls).toEqual(['2025-11-25', '2025-06-18']);
  });

  it('falls back from the stateless probe to the handshake, loading each revision it speaks', async () => {
    const client = fakeLoader();
    const server = fakeLoader();
    const s = toolServer({ supportedRevisions: ['2025-11-25'], revisionLoader: server.loader });
    const c = new Client(info, { revisionLoader: client.loader, eraCache: false });
    const [a, b] = createLinkedPair();
    await s.connect(b);
    await c.connect(a);
    expect(c.era).toBe('stateful');
    expect(client.calls).toEqual(['2026-07-28', '2025-11-25']);
    expect(server.calls).toEqual(['2025-11-25']);
  });
});
