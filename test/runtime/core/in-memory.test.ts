import { describe, expect, it, vi } from 'vitest';
import { createLinkedPair, type InMemoryTransport } from '../../../runtime/core/in-memory.js';
import { DELIVERED } from '../../../runtime/core/transport.js';

/** The methods `end` receives, in order; `react` runs after each is recorded. */
function receivedMethods(end: InMemoryTransport, react: (method: string) => void): string[] {
  const received: string[] = [];
  end.onmessage = (message) => {
    const { method } = message as { method: string };
    received.push(method);
    react(method);
  };
  return received;
}

describe('createLinkedPair', () => {
  it('delivers asynchronously and in order', async () => {
    const [a, b] = createLinkedPair();
    const received: unknown[] = [];
    b.onmessage = (message) => received.push(message);
    await a.start();
    await b.start();
    const sending = a.send({ jsonrpc: '2.0', method: 'one' });
    void a.send({ jsonrpc: '2.0', method: 'two' });
    expect(received).toEqual([]);
    // Nothing about a handed-over message can fail later: the engine need not wait on it.
    expect(sending).toBe(DELIVERED);
    await sending;
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([
      { jsonrpc: '2.0', method: 'one' },
      { jsonrpc: '2.0', method: 'two' },
    ]);
  });

  it('holds messages sent before the peer starts until it does', async () => {
    const [a, b] = createLinkedPair();
    const received = vi.fn();
    b.onmessage = received;
    await a.start();
    await a.send({ jsonrpc: '2.0', method: 'early' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).not.toHaveBeenCalled();
    await b.start();
    await vi.waitFor(() => expect(received).toHaveBeenCalledWith({ jsonrpc: '2.0', method: 'early' }));
  });

  it('hands messages over as they are by default', async () => {
    const [a, b] = createLinkedPair();
    const received: Record<string, unknown>[] = [];
    b.onmessage = (message) => received.push(message as Record<string, unknown>);
    await a.start();
    await b.start();
    const message = { jsonrpc: '2.0' as const, method: 'x', params: { kept: 1 } };
    await a.send(message);
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]).toBe(message);
  });

  it('carries messages as JSON, not as shared objects, when asked to serialize', async () => {
    const [a, b] = createLinkedPair({ serialize: true });
    const received: Record<string, unknown>[] = [];
    b.onmessage = (message) => received.push(message as Record<string, unknown>);
    await a.start();
    await b.start();
    const params = { kept: 1, dropped: undefined };
    await a.send({ jsonrpc: '2.0', method: 'x', params });
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]!.params).toEqual({ kept: 1 });
    expect(received[0]!.params).not.toBe(params);
    expect('dropped' in (received[0]!.params as object)).toBe(false);
  });

  it('closes both ends once, and refuses sends afterwards', async () => {
    const [a, b] = createLinkedPair();
    const closedA = vi.fn();
    const closedB = vi.fn();
    a.onclose = closedA;
    b.onclose = closedB;
    await a.start();
    await b.start();
    await b.close();
    await a.close();
    expect(closedA).toHaveBeenCalledTimes(1);
    expect(closedB).toHaveBeenCalledTimes(1);
    await expect(a.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    await expect(b.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  it('drops messages in flight when the receiver closes', async () => {
    const [a, b] = createLinkedPair();
    const received = vi.fn();
    b.onmessage = received;
    await a.start();
    await b.start();
    const sent = a.send({ jsonrpc: '2.0', method: 'x' });
    const closed = b.close();
    await Promise.all([sent, closed]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).not.toHaveBeenCalled();
  });

  it('delivers what one turn sends together, in order, with what arrives during the delivery', async () => {
    const [a, b] = createLinkedPair();
    const received = receivedMethods(b, (method) => {
      // A frame that arrives while the inbox is being delivered comes after the ones before it.
      if (method === 'one') void a.send({ jsonrpc: '2.0', method: 'late' });
    });
    await a.start();
    await b.start();
    void a.send({ jsonrpc: '2.0', method: 'one' });
    void a.send({ jsonrpc: '2.0', method: 'two' });
    await Promise.resolve();
    await Promise.resolve();
    expect(received).toEqual(['one', 'two', 'late']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual(['one', 'two', 'late']);
  });

  it('keeps delivering after a receiver throws, and leaves the exception uncaught', async () => {
    const [a, b] = createLinkedPair();
    const received = receivedMethods(b, (method) => {
      if (method === 'bad') throw new Error('receiver failed');
    });
    const uncaught: unknown[] = [];
    const listeners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    const onUncaught = (error: unknown): void => {
      uncaught.push(error);
    };
    process.on('uncaughtException', onUncaught);
    try {
      await a.start();
      await b.start();
      void a.send({ jsonrpc: '2.0', method: 'bad' });
      void a.send({ jsonrpc: '2.0', method: 'good' });
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('uncaughtException', onUncaught);
      for (const listener of listeners) process.on('uncaughtException', listener);
    }
    expect(received).toEqual(['bad', 'good']);
    expect(uncaught).toEqual([new Error('receiver failed')]);
  });
});
