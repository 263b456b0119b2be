import { describe, expect, it, vi } from 'vitest';
import { connectedEngine, settle } from '../fixtures/engine-harness.js';
import { createFakeRevision } from '../fixtures/fake-revision.js';

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('Protocol: JSON-RPC batches', () => {
  it('answers each request of a batch in one array reply, leaving out notifications', async () => {
    const { protocol, transport } = await connectedEngine();
    const initialized = vi.fn();
    protocol.setRequestHandler('ping', () => ({}));
    protocol.setRequestHandler('tools/call', async () => ({ content: [] }));
    protocol.setNotificationHandler('notifications/initialized', initialized);
    transport.deliver([
      ping(1),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 3 } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ok' } },
      { jsonrpc: '2.0' },
      { jsonrpc: '2.0', id: 4, method: 'no/such' },
    ]);
    const reply = await transport.nextMessage();
    expect(Array.isArray(reply)).toBe(true);
    const byId = new Map<unknown, Record<string, any>>((reply as unknown as Record<string, any>[]).map((entry) => [entry.id, entry]));
    expect(reply).toHaveLength(5);
    expect(byId.get(1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(byId.get(2)!.error.code).toBe(-32602);
    expect(byId.get(3)).toEqual({ jsonrpc: '2.0', id: 3, result: { content: [] } });
    expect(byId.get(null)!.error.code).toBe(-32600);
    expect(byId.get(4)!.error.code).toBe(-32601);
    expect(initialized).toHaveBeenCalledTimes(1);
    await settle();
    expect(transport.unread).toBe(0);
  });

  it('sends no reply at all for a batch of notifications only', async () => {
    const { protocol, transport } = await connectedEngine();
    const initialized = vi.fn();
    protocol.setNotificationHandler('notifications/initialized', initialized);
    transport.deliver([
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    await settle();
    expect(initialized).toHaveBeenCalledTimes(2);
    expect(transport.sent).toHaveLength(0);
  });

  it('routes a batch of responses to the pending requests without replying', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    const first = protocol.request('ping');
    const second = protocol.request('ping');
    const a = await transport.nextMessage();
    const b = await transport.nextMessage();
    transport.deliver([
      { jsonrpc: '2.0', id: b.id, result: {} },
      { jsonrpc: '2.0', id: a.id, error: { code: -32000, message: 'no' } },
    ]);
    await expect(second).resolves.toEqual({});
    await expect(first).rejects.toMatchObject({ code: -32000 });
    await settle();
    expect(transport.unread).toBe(0);
  });

  it.each([
    ['a batch when the revision does not allow batching', createFakeRevision({ batching: false }), [ping(1), ping(2)]],
    ['an empty batch', createFakeRevision(), []],
    ['a batch containing initialize', createFakeRevision(), [ping(1), { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: 'x' } }]],
    ['a batch before any revision is bound', undefined, [ping(1)]],
  ])('answers %s with exactly one INVALID_REQUEST, id null, and runs none of it', async (_label, revision, batch) => {
    const { protocol, transport } = await connectedEngine({ revision });
    const handler = vi.fn(() => ({}));
    protocol.setRequestHandler('ping', handler);
    protocol.setRequestHandler('initialize', handler);
    transport.deliver(batch);
    const reply = await transport.nextMessage();
    expect(Array.isArray(reply)).toBe(false);
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    await settle();
    expect(transport.unread).toBe(0);
    expect(handler).not.toHaveBeenCalled();
    transport.deliver(ping(3));
    if (revision !== undefined) {
      expect(await transport.nextMessage()).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    }
  });

  it('leaves a request cancelled mid-batch out of the reply', async () => {
    const { protocol, transport } = await connectedEngine();
    protocol.setRequestHandler('ping', () => ({}));
    protocol.setRequestHandler('tools/call', (_params, context) => new Promise((resolve) => {
      context.signal.addEventListener('abort', () => resolve({ content: [] }));
    }));
    transport.deliver([ping(1), { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow' } }]);
    await settle();
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'no longer needed' } });
    expect(await transport.nextMessage()).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });
});
