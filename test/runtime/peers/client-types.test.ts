/**
 * What a Client offers by its protocol types, at run time: a method the negotiated revision
 * lacks is refused locally with an SdkError that names the method, the negotiated revision and
 * era, where the method exists and how to pin such a revision; every typed sender exists. The
 * compile-time side is test/runtime/fixtures/client-types/era-typing.ts (checked by typecheck).
 */
import { describe, expect, it } from 'vitest';
import { clientNotificationSenders, clientRequestSenders, serverNotificationSenders, serverRequestSenders } from '../../../generated/senders.js';
import { Client, createLinkedPair, McpServer, SdkError, Server, type Stateful } from '../../../runtime/index.js';

const info = { name: 'era-types', version: '1.0.0' };

function notes(): McpServer {
  const mcp = new McpServer(info);
  mcp.registerResource('readme', 'mem://readme', {}, (uri) => ({ contents: [{ uri, text: 'hello' }] }));
  return mcp;
}

async function connected<C extends Client<Stateful.ProtocolTypes> | Client>(client: C, server: McpServer | Server): Promise<C> {
  const [clientSide, serverSide] = createLinkedPair({ serialize: true });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

describe('a method the negotiated revision lacks', () => {
  it('is refused locally against a stateless server, naming the method, the revision, the era and the pin', async () => {
    const server = new Server(info, { supportedRevisions: ['2026-07-28'], capabilities: { resources: { subscribe: true } } });
    server.setRequestHandler('resources/read', (params) => ({ contents: [{ uri: params.uri, text: 'hello' }] }));
    const client = await connected(new Client(info), server);
    expect(client.era).toBe('stateless');
    // @ts-expect-error resources/subscribe exists only in the stateful era
    const failure = await (client.subscribe({ uri: 'mem://readme' }) as Promise<unknown>).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect(failure).toMatchObject({
      code: 'UNKNOWN_METHOD',
      data: { method: 'resources/subscribe', protocolVersion: '2026-07-28', era: 'stateless', availableIn: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] },
    });
    expect((failure as SdkError).message).toBe(
      'resources/subscribe does not exist in 2026-07-28 (stateless era), the revision this connection negotiated; it exists in 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25 (stateful era). ' +
        "To use it, pin such a revision: new Client<ProtocolTypes>(info, { protocolVersion: '2025-11-25' }) with ProtocolTypes imported from 'mcpgen/2025-11-25'",
    );
    // @ts-expect-error logging/setLevel exists only in the stateful era
    await expect(client.setLoggingLevel({ level: 'info' })).rejects.toThrow(/^logging\/setLevel does not exist in 2026-07-28 \(stateless era\)/);
    // @ts-expect-error notifications/roots/list_changed exists only in the stateful era
    await expect(client.notifyRootsListChanged()).rejects.toThrow(/^notifications\/roots\/list_changed does not exist in 2026-07-28 \(stateless era\)/);
    // The connection is unharmed: what both eras have still works.
    expect(await client.readResource({ uri: 'mem://readme' })).toMatchObject({ contents: [{ uri: 'mem://readme', text: 'hello' }] });
    await client.close();
  });

  it('is refused on a stateful connection too, pointing at the stateless era with negotiation pin', async () => {
    const client = await connected(new Client(info, { protocolVersion: '2025-11-25' }), notes());
    expect(client.era).toBe('stateful');
    // @ts-expect-error server/discover exists only in the stateless era
    const failure = await (client.discover({}) as Promise<unknown>).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'UNKNOWN_METHOD', data: { method: 'server/discover', protocolVersion: '2025-11-25', era: 'stateful' } });
    expect((failure as SdkError).message).toContain("it exists in 2026-07-28 (stateless era). To use it, pin such a revision: new Client<ProtocolTypes>(info, { protocolVersion: '2026-07-28', negotiation: 'pin' })");
    // @ts-expect-error subscriptions/listen exists only in the stateless era
    await expect(client.listen({ toolsListChanged: true })).rejects.toThrow(/^subscriptions\/listen does not exist in 2025-11-25 \(stateful era\)/);
    await client.close();
  });

  it('is sent by a Client typed with and pinned to a revision that has it', async () => {
    const client = await connected(new Client<Stateful.ProtocolTypes>(info, { protocolVersion: '2025-11-25' }), notes());
    expect(await client.subscribe({ uri: 'mem://readme' })).toEqual({});
    expect(await client.ping()).toEqual({});
    await client.close();
  });
});

describe('typed senders', () => {
  it('exist at run time for every sender of the generated tables', () => {
    const client = new Client(info) as unknown as Record<string, unknown>;
    const missing = [...Object.keys(clientRequestSenders), ...Object.keys(clientNotificationSenders)].filter((name) => typeof client[name] !== 'function');
    expect(missing).toEqual([]);
  });

  it('exist at run time on a Server for every sender of the generated tables', () => {
    const server = new Server(info) as unknown as Record<string, unknown>;
    const missing = [...Object.keys(serverRequestSenders), ...Object.keys(serverNotificationSenders)].filter((name) => typeof server[name] !== 'function');
    expect(missing).toEqual([]);
  });
});
