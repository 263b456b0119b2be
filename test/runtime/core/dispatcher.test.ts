import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../runtime/core/errors.js';
import { connectedEngine, settle } from '../fixtures/engine-harness.js';

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('Dispatcher: answers without a promise turn', () => {
  it('sends the reply to a handler that returns a value before the inbound message is handed back', async () => {
    const { protocol, transport } = await connectedEngine();
    protocol.setRequestHandler('ping', () => ({ ok: true }));
    transport.deliver(ping(1));
    // No await between delivering and looking: the reply went out in the same turn.
    expect(transport.sent.map((frame) => frame.message)).toEqual([{ jsonrpc: '2.0', id: 1, result: { ok: true } }]);
  });

  it('answers a handler that throws in the same turn: a ProtocolError as it is, anything else with -32603 and a report', async () => {
    const { protocol, transport, errors } = await connectedEngine();
    protocol.setRequestHandler('ping', (params) => {
      if (params?.kind === 'protocol') throw new ProtocolError(-32042, 'not today', { why: 'test' });
      throw new Error('broken handler');
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'ping', params: { kind: 'protocol' } });
    transport.deliver(ping(2));
    expect(transport.sent.map((frame) => frame.message)).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32042, message: 'not today', data: { why: 'test' } } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'broken handler' } },
    ]);
    // Only the failure is reported: a ProtocolError is the handler's answer.
    expect(errors.map((error) => error.message)).toEqual([expect.stringContaining('broken handler')]);
  });

  it('waits for a handler promise and for any other thenable a handler returns', async () => {
    const { protocol, transport } = await connectedEngine();
    let finish: ((value: unknown) => void) | undefined;
    protocol.setRequestHandler('ping', (params) => params?.kind === 'thenable'
      ? { then: (resolve: (value: unknown) => void) => { finish = resolve; } }
      : Promise.resolve({ from: 'promise' }));
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'ping', params: { kind: 'thenable' } });
    transport.deliver(ping(2));
    expect(transport.sent).toHaveLength(0);
    expect(await transport.nextMessage()).toEqual({ jsonrpc: '2.0', id: 2, result: { from: 'promise' } });
    await settle();
    expect(transport.unread).toBe(0);
    finish!({ from: 'thenable' });
    expect(await transport.nextMessage()).toEqual({ jsonrpc: '2.0', id: 1, result: { from: 'thenable' } });
  });

  it('frees the place of a synchronous answer once its reply is sent, so a bound of one serves every request', async () => {
    const { protocol, transport } = await connectedEngine({ maxConcurrentInbound: 1, maxQueuedInbound: 0 });
    protocol.setRequestHandler('ping', () => ({}));
    transport.deliver(ping(1));
    await settle();
    transport.deliver(ping(2));
    await settle();
    expect(transport.sent.map((frame) => frame.message)).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
  });
});
