import { describe, expect, it } from 'vitest';
import { createLinkedPair } from '../../../runtime/core/in-memory.js';
import { Protocol } from '../../../runtime/core/protocol.js';
import { encodableReply, sendReply, type ReplyHost } from '../../../runtime/core/substitute-replies.js';
import { DELIVERED, type Transport } from '../../../runtime/core/transport.js';
import { createFakeRevision } from '../fixtures/fake-revision.js';
import { connectedEngine, settle } from '../fixtures/engine-harness.js';

describe('encodableReply', () => {
  it('replaces only the responses JSON cannot encode, naming the method each answers', () => {
    const inbound = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ];
    const substitute = encodableReply([
      { jsonrpc: '2.0', id: 1, result: { n: 1n } },
      { jsonrpc: '2.0', id: 2, result: {} },
    ], inbound, -32603);
    expect(substitute?.message).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error: the result of tools/call cannot be encoded as JSON: Do not know how to serialize a BigInt' } },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    expect(substitute?.problems).toHaveLength(1);
  });

  it('says nothing when every response encodes: the send failed for another reason', () => {
    expect(encodableReply({ jsonrpc: '2.0', id: 1, result: {} }, { id: 1, method: 'ping' }, -32603)).toBeUndefined();
  });
});

describe('the engine sending a reply that cannot be encoded', () => {
  it('answers with -32603 through a serialising transport, reports why, and stays usable', async () => {
    const errors: Error[] = [];
    const server = new Protocol({ side: 'server', revision: createFakeRevision(), onerror: (error) => errors.push(error), validateOutgoing: false });
    const client = new Protocol({ side: 'client', revision: createFakeRevision() });
    server.setRequestHandler('ping', (params) => (params?.cycle === true ? (() => {
      const loop: Record<string, unknown> = {};
      loop.loop = loop;
      return loop;
    })() : {}));
    const [clientEnd, serverEnd] = createLinkedPair({ serialize: true });
    await server.connect(serverEnd);
    await client.connect(clientEnd);
    await expect(client.request('ping', { cycle: true })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('the result of ping cannot be encoded as JSON: Converting circular structure to JSON') });
    expect(errors.map((error) => (error as { code?: string }).code)).toEqual(['INVALID_RESULT']);
    await expect(client.request('ping')).resolves.toEqual({});
  });

  it('reports a send that fails for another reason once, without a second send', async () => {
    const { protocol, transport, errors } = await connectedEngine();
    protocol.setRequestHandler('ping', () => ({}));
    transport.sendError = new Error('pipe closed');
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await settle();
    await settle();
    expect(errors.map((error) => error.message)).toEqual(['Failed to send a reply: pipe closed']);
    expect(transport.sent).toEqual([]);
  });

  it('answers a request whose admission hook throws with -32603 naming the method', async () => {
    const { protocol, transport } = await connectedEngine();
    protocol.setRequestHandler('ping', () => ({}));
    protocol.admitRequest = () => {
      throw new RangeError('Maximum call stack size exceeded');
    };
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(await transport.nextMessage()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'Internal error while handling ping: Maximum call stack size exceeded' },
    });
  });
});

describe('sendReply', () => {
  const host: ReplyHost = { connected: () => true, internalErrorCode: () => -32603, report: () => undefined };
  const transportAnswering = (sending: () => Promise<void>): Transport => ({ start: async () => undefined, close: async () => undefined, send: sending });
  const reply = { jsonrpc: '2.0' as const, id: 1, result: {} };

  it('frees the handler place at once when the transport answers DELIVERED', () => {
    const left: string[] = [];
    sendReply(transportAnswering(() => DELIVERED), reply, { id: 1, method: 'ping' }, {}, host, () => left.push('left'));
    expect(left).toEqual(['left']);
  });

  it('frees it only once any other send has settled', async () => {
    const left: string[] = [];
    let finish: () => void = () => undefined;
    const sending = new Promise<void>((resolve) => {
      finish = resolve;
    });
    sendReply(transportAnswering(() => sending), reply, { id: 1, method: 'ping' }, {}, host, () => left.push('left'));
    await settle();
    expect(left).toEqual([]);
    finish();
    await settle();
    expect(left).toEqual(['left']);
  });
});
