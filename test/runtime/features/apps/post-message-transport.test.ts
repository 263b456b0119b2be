// PostMessageTransport and windowEndpoint: values read through their JSON text, the size cap,
// the lifecycle, and the source and origin filter of a window endpoint.
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { ParseFailure } from '../../../../runtime/core/wire-format.js';
import { PostMessageTransport, windowEndpoint, type MessageEndpoint, type MessageListener } from '../../../../runtime/features/apps/index.js';

function channel(options?: { maxMessageChars?: number }) {
  const { port1, port2 } = new MessageChannel();
  const transport = new PostMessageTransport(port1 as unknown as MessageEndpoint, options);
  const received: unknown[] = [];
  let arrived: () => void = () => {};
  transport.onmessage = (message) => {
    received.push(message);
    arrived();
  };
  const next = () => new Promise<void>((resolve) => (arrived = resolve));
  return { transport, port: port2, received, next, close: () => (port1.close(), port2.close()) };
}

describe('PostMessageTransport', () => {
  it('delivers plain JSON values, and a value JSON cannot carry as a parse failure', async () => {
    const c = channel();
    await c.transport.start();
    let arrival = c.next();
    c.port.postMessage({ jsonrpc: '2.0', method: 'ping', id: 1, params: { at: new Date(0) } });
    await arrival;
    // A Date arrives as its JSON text would give it: a string.
    expect(c.received[0]).toEqual({ jsonrpc: '2.0', method: 'ping', id: 1, params: { at: '1970-01-01T00:00:00.000Z' } });
    arrival = c.next();
    c.port.postMessage({ n: 1n });
    await arrival;
    expect(c.received[1]).toBeInstanceOf(ParseFailure);
    expect((c.received[1] as ParseFailure).kind).toBe('invalid-json');
    await c.transport.close();
    c.close();
  });

  it('turns a message over the cap into an oversized failure carrying its id', async () => {
    const c = channel({ maxMessageChars: 50 });
    await c.transport.start();
    const arrival = c.next();
    c.port.postMessage({ jsonrpc: '2.0', id: 'big', method: 'x', params: { text: 'y'.repeat(100) } });
    await arrival;
    expect(c.received[0]).toMatchObject({ kind: 'oversized', oversized: { limit: 50, head: { id: 'big', method: 'x', response: false } } });
    await c.transport.close();
    c.close();
  });

  it('starts once, refuses sends when not open, closes once and then hears nothing', async () => {
    const c = channel();
    await expect(c.transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    await c.transport.start();
    await expect(c.transport.start()).rejects.toMatchObject({ code: 'ALREADY_CONNECTED' });
    let closes = 0;
    c.transport.onclose = () => void closes++;
    await c.transport.close();
    await c.transport.close();
    expect(closes).toBe(1);
    await expect(c.transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    expect(() => new PostMessageTransport(c.port as unknown as MessageEndpoint, { maxMessageChars: 0 })).toThrow(/positive integer/);
    c.close();
  });
});

describe('windowEndpoint', () => {
  it('hears only its peer window from its origin, posts to that origin, and stops hearing once removed', () => {
    const listeners = new Set<MessageListener>();
    const listenOn = { addEventListener: (_: 'message', l: MessageListener) => void listeners.add(l), removeEventListener: (_: 'message', l: MessageListener) => void listeners.delete(l) };
    const posted: [unknown, string][] = [];
    const peer = { postMessage: (message: unknown, origin: string) => void posted.push([message, origin]) };
    const endpoint = windowEndpoint(peer, 'https://sandbox.example', listenOn);
    const heard: unknown[] = [];
    const listener: MessageListener = (event) => void heard.push(event.data);
    endpoint.addEventListener('message', listener);
    const dispatch = (event: { data: unknown; source: unknown; origin: string }) => listeners.forEach((l) => l(event));
    dispatch({ data: 1, source: peer, origin: 'https://sandbox.example' });
    dispatch({ data: 2, source: {}, origin: 'https://sandbox.example' });
    dispatch({ data: 3, source: peer, origin: 'https://evil.example' });
    endpoint.postMessage('hi');
    endpoint.removeEventListener('message', listener);
    dispatch({ data: 4, source: peer, origin: 'https://sandbox.example' });
    expect(heard).toEqual([1]);
    expect(posted).toEqual([['hi', 'https://sandbox.example']]);
    expect(listeners.size).toBe(0);
  });
});
