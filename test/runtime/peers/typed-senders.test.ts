import { describe, expect, it } from 'vitest';
import { Client, createLinkedPair, Server } from '../../../runtime/index.js';
import { clientRequestSenders, serverNotificationSenders, serverRequestSenders } from '../../../generated/senders.js';

const info = { name: 'stubs', version: '1.0.0' };

async function connected(name: string): Promise<{ server: Server; client: Client }> {
  const server = new Server({ name, version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler('tools/list', () => ({ tools: [{ name, inputSchema: { type: 'object' } }] }));
  const [a, b] = createLinkedPair();
  await server.connect(b);
  const client = new Client(info);
  await client.connect(a);
  return { server, client };
}

describe('typed stubs', () => {
  it('live on the prototypes, so constructing a peer builds none', () => {
    const server = new Server(info, { capabilities: { tools: {} } });
    const client = new Client(info);
    for (const name of [...Object.keys(serverRequestSenders), ...Object.keys(serverNotificationSenders)]) {
      expect(Object.hasOwn(server, name), name).toBe(false);
      expect(Object.getOwnPropertyDescriptor(Server.prototype, name)?.get, name).toBeTypeOf('function');
    }
    for (const name of Object.keys(clientRequestSenders)) {
      expect(Object.hasOwn(client, name), name).toBe(false);
      expect(Object.getOwnPropertyDescriptor(Client.prototype, name)?.get, name).toBeTypeOf('function');
    }
  });

  it('send through the peer they are called on, also when taken off it', async () => {
    const peers = await Promise.all(['one', 'two'].map(connected));
    const listed = await Promise.all(peers.map(({ client }) => client.listTools()));
    expect(listed.map((result) => result.tools.map((tool) => tool.name))).toEqual([['one'], ['two']]);
    const { listTools } = peers[1]!.client;
    expect((await listTools()).tools.map((tool) => tool.name)).toEqual(['two']);
    expect(peers[1]!.client.listTools).toBe(listTools);
    await Promise.all(peers.map(({ client }) => client.close()));
  });

  it('can be replaced on one peer, and the original taken first still works', async () => {
    const { server, client } = await connected('wrapped');
    const original = server.notifyToolListChanged;
    let wrapped = 0;
    server.notifyToolListChanged = async () => {
      wrapped++;
      await original();
    };
    // The original, read before the replacement, is bound to the server: it sends without a receiver.
    await expect(server.notifyToolListChanged()).resolves.toBeUndefined();
    expect(wrapped).toBe(1);
    expect(Object.hasOwn(new Server(info, { capabilities: { tools: { listChanged: true } } }), 'notifyToolListChanged')).toBe(false);
    await client.close();
  });
});
