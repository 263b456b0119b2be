// The durable channel between replicas, on a redis-server of this file's own: what is sent while
// the receiver's subscriber is cut off (killed, then refused while Redis is full) arrives once it
// is back, each message once and in order; the stream stays bounded and expiring.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisConnection } from '../../../../runtime/features/redis/index.js';
import { DurableReceiver, sendDurable } from '../../../../runtime/features/redis/durable-channel.js';
import { RedisProcess } from './cluster.js';

const prefix = `d${randomBytes(4).toString('hex')}`;
const bounds = { maxLength: 1_000, ttlMs: 60_000 };
let redis: RedisProcess;
let sender: RedisConnection;
let receiving: RedisConnection;

beforeAll(async () => {
  redis = await RedisProcess.start({ persistent: false });
  sender = await RedisConnection.connect({ url: redis.url, prefix });
  receiving = await RedisConnection.connect({ url: redis.url, prefix });
}, 30_000);

afterAll(async () => {
  await sender?.close();
  await receiving?.close();
  await redis?.dispose();
});

/** Cuts every subscriber connection and keeps them out (Redis full) until the returned function runs. */
async function cutSubscribers(): Promise<() => Promise<void>> {
  const connected = Number(/connected_clients:(\d+)/.exec(String(await sender.command(['INFO', 'clients'])))![1]);
  const subscribers = String(await sender.command(['CLIENT', 'LIST', 'TYPE', 'pubsub'])).trim().split('\n').length;
  await sender.command(['CONFIG', 'SET', 'maxclients', String(connected - subscribers)]);
  await sender.command(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
  return async () => {
    await sender.command(['CONFIG', 'SET', 'maxclients', '10000']);
  };
}

describe('durable channel', () => {
  it('delivers what was sent while the receiver was cut off once it is back: each message once, in order', async () => {
    const key = sender.key('d', randomBytes(3).toString('hex'));
    const got: string[] = [];
    const receiver = await DurableReceiver.listen(receiving, key, bounds, (message) => got.push(message), () => undefined);
    for (let i = 0; i < 50; i++) await sendDurable(sender, key, String(i), bounds);
    await expect.poll(() => got.length).toBe(50);
    const restore = await cutSubscribers();
    const woken: number[] = [];
    try {
      for (let i = 50; i < 100; i++) woken.push(await sendDurable(sender, key, String(i), bounds));
    } finally {
      await restore();
    }
    // Nobody heard the wake-ups: with plain pub/sub these fifty would be lost.
    expect(woken.every((count) => count === 0)).toBe(true);
    await expect.poll(() => got.length, { timeout: 10_000 }).toBe(100);
    expect(got).toEqual(Array.from({ length: 100 }, (_, i) => String(i)));
    await receiver.close();
  }, 30_000);

  it('starts after what was sent before it listened, even when woken while it places its marker', async () => {
    const key = sender.key('d', randomBytes(3).toString('hex'));
    for (let i = 0; i < 5; i++) await sendDurable(sender, key, `old-${i}`, bounds);
    const got: string[] = [];
    let sending = true;
    let sent = 0;
    // Wake-ups keep coming while the receiver subscribes and places its marker.
    const flood = (async () => {
      while (sending) await sendDurable(sender, key, `new-${sent++}`, bounds);
    })();
    const receiver = await DurableReceiver.listen(receiving, key, bounds, (message) => got.push(message), () => undefined);
    await expect.poll(() => got.length).toBeGreaterThan(3);
    sending = false;
    await flood;
    await expect.poll(() => got[got.length - 1]).toBe(`new-${sent - 1}`);
    expect(got.filter((message) => message.startsWith('old-'))).toEqual([]);
    // What it got is a gapless, duplicate-free run of the newest messages.
    const first = Number(got[0]!.slice('new-'.length));
    expect(got).toEqual(Array.from({ length: sent - first }, (_, i) => `new-${first + i}`));
    await receiver.close();
  }, 30_000);

  it('keeps the stream bounded (MAXLEN ~) and expiring', async () => {
    const key = sender.key('d', randomBytes(3).toString('hex'));
    for (let i = 0; i < 1_500; i++) await sendDurable(sender, key, String(i), bounds);
    const length = Number(await sender.command(['XLEN', key]));
    // Approximate trimming removes whole nodes (100 entries by default): never far past the bound.
    expect(length).toBeGreaterThanOrEqual(1_000);
    expect(length).toBeLessThanOrEqual(1_100);
    const ttl = Number(await sender.command(['PTTL', key]));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  }, 30_000);
});
