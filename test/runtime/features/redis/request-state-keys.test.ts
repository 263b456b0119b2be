// The requestState key ring after Redis lost it (a redis-server of this file's own, flushed as a
// restart without persistence leaves it): the replicas write back the keys they hold instead of
// each minting its own, and converge on one ring.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisConnection, RedisRequestStateKeyRing } from '../../../../runtime/features/redis/index.js';
import { RedisProcess } from './cluster.js';

const prefix = `k${randomBytes(4).toString('hex')}`;
let redis: RedisProcess;
let one: RedisConnection;
let two: RedisConnection;
let three: RedisConnection;

beforeAll(async () => {
  redis = await RedisProcess.start({ persistent: false });
  const connect = () => RedisConnection.connect({ url: redis.url, prefix });
  [one, two, three] = await Promise.all([connect(), connect(), connect()]);
}, 30_000);

afterAll(async () => {
  await Promise.all([one, two, three].map((connection) => connection?.close()));
  await redis?.dispose();
});

const ids = (ring: RedisRequestStateKeyRing): string[] => ring.keys().map((key) => key.id);
const stored = async (): Promise<string[]> => ((await one.command<string[]>(['HKEYS', one.key('rs', 'keys')])) ?? []).sort();

describe('RedisRequestStateKeyRing after Redis lost the ring', () => {
  it('writes the keys a replica holds back instead of minting a new one, so the others keep theirs', async () => {
    const first = await RedisRequestStateKeyRing.load(one);
    const second = await RedisRequestStateKeyRing.load(two);
    const [key] = ids(first);
    expect(ids(second)).toEqual([key]);
    await one.command(['FLUSHDB']);
    await second.refresh();
    expect(ids(second)).toEqual([key]);
    expect(await stored()).toEqual([key]);
    await first.refresh();
    expect(ids(first)).toEqual([key]);
    first.close();
    second.close();
  });

  it('merges a key a fresh replica minted into the empty ring with the ones the others write back', async () => {
    await one.command(['FLUSHDB']);
    const old = await RedisRequestStateKeyRing.load(one);
    const [kept] = ids(old);
    await one.command(['FLUSHDB']);
    // A replica that held nothing finds the ring empty and mints the first key.
    const fresh = await RedisRequestStateKeyRing.load(three);
    const [minted] = ids(fresh);
    expect(minted).not.toBe(kept);
    await old.refresh();
    // Both keys open states everywhere; the newest seals.
    expect(ids(old)).toEqual([minted, kept]);
    await fresh.refresh();
    expect(ids(fresh)).toEqual([minted, kept]);
    expect(await stored()).toEqual([minted!, kept!].sort());
    old.close();
    fresh.close();
  });
});
