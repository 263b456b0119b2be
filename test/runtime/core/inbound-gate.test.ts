// The engine's bound on handling the peer's requests: so many run at once, so many more wait
// in arrival order, and the rest are refused with an error answer, never dropped.
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '../../../runtime/core/jsonrpc.js';
import { DEFAULT_INBOUND_LIMITS } from '../../../runtime/core/inbound-gate.js';
import type { TransportSendOptions } from '../../../runtime/core/transport.js';
import { connectedEngine, settle } from '../fixtures/engine-harness.js';
import { FAKE_ERROR_CODES } from '../fixtures/fake-revision.js';
import { ScriptedTransport } from '../fixtures/scripted-transport.js';

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

/** A ping handler that records which requests started and holds each until released. */
function heldPings(): { started: number[]; running: () => number; release: (id: number) => void; handler: (params: unknown, context: { requestId: unknown }) => Promise<object> } {
  const started: number[] = [];
  const releases = new Map<number, () => void>();
  let running = 0;
  return {
    started,
    running: () => running,
    release: (id) => releases.get(id)?.(),
    handler: async (_params, context) => {
      const id = context.requestId as number;
      started.push(id);
      running++;
      await new Promise<void>((resolve) => releases.set(id, resolve));
      running--;
      return { id };
    },
  };
}

/** The answers sent so far, by request id. */
function answers(transport: ScriptedTransport): Map<unknown, Record<string, any>[]> {
  const byId = new Map<unknown, Record<string, any>[]>();
  for (const frame of transport.sent) {
    for (const message of (Array.isArray(frame.message) ? frame.message : [frame.message]) as Record<string, any>[]) {
      if (!('id' in message) || 'method' in message) continue;
      byId.set(message.id, [...(byId.get(message.id) ?? []), message]);
    }
  }
  return byId;
}

describe('Protocol: bounded handling of inbound requests', () => {
  it('runs at most maxConcurrentInbound handlers, queues maxQueuedInbound in order and refuses the rest with an internal error', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client', maxConcurrentInbound: 2, maxQueuedInbound: 3 });
    const held = heldPings();
    protocol.setRequestHandler('ping', held.handler);
    for (let id = 1; id <= 7; id++) transport.deliver(ping(id));
    await settle();
    expect(held.started).toEqual([1, 2]);
    const refused = answers(transport);
    expect([...refused.keys()]).toEqual([6, 7]);
    for (const [, [answer]] of refused) {
      expect(answer!.error.code).toBe(FAKE_ERROR_CODES.INTERNAL_ERROR);
      expect(answer!.error.message).toContain('overloaded');
      expect(answer!.error.data).toEqual({ maxConcurrentInbound: 2, maxQueuedInbound: 3 });
    }
    held.release(2);
    await settle();
    expect(held.started).toEqual([1, 2, 3]);
    for (const id of [1, 3, 4, 5]) {
      held.release(id);
      await settle();
    }
    expect(held.started).toEqual([1, 2, 3, 4, 5]);
    const all = answers(transport);
    expect([...all.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect([...all.values()].every((list) => list.length === 1)).toBe(true);
    expect([1, 2, 3, 4, 5].map((id) => all.get(id)![0]!.result)).toEqual([1, 2, 3, 4, 5].map((id) => ({ id })));
  });

  it('keeps a place taken until the reply has been handed to the transport', async () => {
    class SlowSends extends ScriptedTransport {
      readonly holds: (() => void)[] = [];
      override async send(message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions): Promise<void> {
        await new Promise<void>((resolve) => this.holds.push(resolve));
        return super.send(message, options);
      }
    }
    const { protocol } = await connectedEngine({ side: 'client', maxConcurrentInbound: 1, maxQueuedInbound: 5 });
    await protocol.close();
    const transport = new SlowSends();
    await protocol.connect(transport);
    const held = heldPings();
    protocol.setRequestHandler('ping', held.handler);
    transport.deliver(ping(1));
    transport.deliver(ping(2));
    await settle();
    held.release(1);
    await settle();
    // Handler 1 is done, its reply still on its way: request 2 waits.
    expect(transport.holds).toHaveLength(1);
    expect(held.started).toEqual([1]);
    transport.holds[0]!();
    await settle();
    expect(held.started).toEqual([1, 2]);
  });

  it('never runs a queued request the peer cancelled, sends it no answer and frees its place', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client', maxConcurrentInbound: 1, maxQueuedInbound: 1 });
    const held = heldPings();
    protocol.setRequestHandler('ping', held.handler);
    transport.deliver(ping(1));
    transport.deliver(ping(2));
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'no longer needed' } });
    transport.deliver(ping(3));
    await settle();
    expect(answers(transport).size).toBe(0);
    held.release(1);
    await settle();
    held.release(3);
    await settle();
    expect(held.started).toEqual([1, 3]);
    expect([...answers(transport).keys()]).toEqual([1, 3]);
  });

  it('answers a batch larger than the bound whole, each item giving its place back when its handler ends', async () => {
    const { protocol, transport } = await connectedEngine({ maxConcurrentInbound: 2, maxQueuedInbound: 10 });
    let running = 0;
    let most = 0;
    protocol.setRequestHandler('ping', async () => {
      running++;
      most = Math.max(most, running);
      await settle();
      running--;
      return {};
    });
    transport.deliver([1, 2, 3, 4, 5, 6].map(ping));
    const reply = await transport.nextMessage();
    expect((reply as unknown as unknown[]).length).toBe(6);
    expect(most).toBe(2);
  });

  it('drops what waits when the connection closes, and starts none of it later', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client', maxConcurrentInbound: 1, maxQueuedInbound: 5 });
    const held = heldPings();
    protocol.setRequestHandler('ping', held.handler);
    transport.deliver(ping(1));
    transport.deliver(ping(2));
    await settle();
    transport.closeFromPeer();
    held.release(1);
    await settle();
    expect(held.started).toEqual([1]);
  });

  it('has separate defaults for the client and the server', async () => {
    expect(DEFAULT_INBOUND_LIMITS.client).toEqual({ maxConcurrent: 16, maxQueued: 1_000 });
    expect(DEFAULT_INBOUND_LIMITS.server).toEqual({ maxConcurrent: 256, maxQueued: 10_000 });
    for (const side of ['client', 'server'] as const) {
      const { protocol, transport } = await connectedEngine({ side });
      const held = heldPings();
      protocol.setRequestHandler('ping', held.handler);
      const { maxConcurrent } = DEFAULT_INBOUND_LIMITS[side];
      for (let id = 1; id <= maxConcurrent + 3; id++) transport.deliver(ping(id));
      await settle();
      expect(held.running()).toBe(maxConcurrent);
      expect(answers(transport).size).toBe(0);
    }
  });

  it('refuses limits that are not positive integers', async () => {
    await expect(connectedEngine({ maxConcurrentInbound: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(connectedEngine({ maxQueuedInbound: -1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
