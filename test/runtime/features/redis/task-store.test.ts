// RedisTaskStore against a real redis-server (own process unless REDIS_URL names one): the
// TaskStore contract (copies, applyTaskChange rules, expiry with the task's TTL, the owner's
// listing), atomic updates racing from two connections, Redis going away, and two
// TasksExtension "replicas" on one store: a task created through one is polled, answered and
// cancelled through the other over Streamable HTTP.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, McpServer, ProtocolError, SdkError, StreamableHttpClientTransport, type RequestContext } from '../../../../runtime/index.js';
import { isTaskHandle, TasksClient, TasksExtension, type StoredTask } from '../../../../runtime/features/tasks/index.js';
import { createMcpNodeServer, type McpNodeServer } from '../../../../runtime/node.js';
import { RedisConnection, RedisTaskStore, SharedStateUnavailableError } from '../../../../runtime/features/redis/index.js';
import { RedisProcess } from './cluster.js';

const prefix = `tt${randomBytes(4).toString('hex')}`;
let redis: RedisProcess | undefined;
let redisUrl: string;
let first: RedisConnection;
let second: RedisConnection;

beforeAll(async () => {
  if (process.env.REDIS_URL !== undefined && process.env.REDIS_URL !== '') {
    redisUrl = process.env.REDIS_URL;
  } else {
    redis = await RedisProcess.start();
    redisUrl = redis.url;
  }
  first = await RedisConnection.connect({ url: redisUrl, prefix });
  second = await RedisConnection.connect({ url: redisUrl, prefix });
}, 30_000);

afterAll(async () => {
  await first?.close();
  await second?.close();
  await redis?.dispose();
});

const iso = (ms: number): string => new Date(ms).toISOString();

/** A task created `ageMs` ago (so that a short-lived one can be past its expiry already). */
function newTask(owner: string | null, ttlMs: number | null = 60_000, ageMs = 0): StoredTask {
  const now = Date.now() - ageMs;
  return { taskId: crypto.randomUUID(), owner, status: 'working', createdAt: iso(now), lastUpdatedAt: iso(now), ttlMs, pollIntervalMs: 100, expiresAt: ttlMs === null ? null : now + ttlMs };
}

describe('RedisTaskStore', () => {
  it('stores a task under a namespaced key that expires with the task, and refuses a second create', async () => {
    const store = new RedisTaskStore(first);
    const task = newTask('subject:alice', 30_000);
    await store.create(task);
    expect(await store.get(task.taskId)).toEqual(task);
    const ttl = await first.command<number>(['PTTL', first.key('task', task.taskId)]);
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
    await expect(store.create(task)).rejects.toThrow(/already exists/);
    const forever = newTask(null, null);
    await store.create(forever);
    expect(await first.command<number>(['PTTL', first.key('task', forever.taskId)])).toBe(-1);
    expect(await store.get('no-such-task')).toBeUndefined();
  });

  it('applies changes with applyTaskChange semantics and keeps the owner and the expiry', async () => {
    const store = new RedisTaskStore(first);
    const task = newTask('subject:alice', 30_000);
    await store.create(task);
    const asked = await store.update(task.taskId, { ask: { day: { method: 'elicitation/create', params: { message: 'Which day?' } } } });
    expect(asked?.status).toBe('input_required');
    const answered = await store.update(task.taskId, { answer: { day: { action: 'accept', content: { day: 'Tue' } }, stray: 1 } });
    expect(answered?.status).toBe('working');
    expect(answered?.inputResponses).toEqual({ day: { action: 'accept', content: { day: 'Tue' } } });
    await store.update(task.taskId, { status: 'cancelled', statusMessage: 'stop' });
    const late = await store.update(task.taskId, { status: 'completed', result: { content: [] } });
    expect(late?.status).toBe('cancelled');
    expect(late?.result).toBeUndefined();
    const stored = await store.get(task.taskId);
    expect(stored).toEqual(late);
    expect(stored?.owner).toBe('subject:alice');
    expect(await first.command<number>(['PTTL', first.key('task', task.taskId)])).toBeGreaterThan(25_000);
    expect(await store.update('no-such-task', { status: 'failed' })).toBeUndefined();
  });

  it('forgets a task when its TTL runs out: Redis expires the key at expiresAt, and reads check it too', async () => {
    // The store's own clock, moved by hand: no test waits for real time to pass.
    let clock = Date.now();
    const store = new RedisTaskStore(first, { now: () => clock });
    const task = { ...newTask(null, 60_000), expiresAt: clock + 60_000 };
    await store.create(task);
    expect(await store.get(task.taskId)).toBeDefined();
    // Redis holds the key until the task's own expiry instant.
    const ttl = await first.command<number>(['PTTL', first.key('task', task.taskId)]);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Once the clock passes expiresAt, the task is gone for reads and updates, whatever Redis's clock says.
    clock = task.expiresAt + 1;
    expect(await store.get(task.taskId)).toBeUndefined();
    expect(await store.update(task.taskId, { status: 'completed' })).toBeUndefined();
    // A task whose expiry has passed by Redis's clock is dropped by Redis itself.
    const past = newTask(null, 100, 200);
    await new RedisTaskStore(first).create(past);
    expect(await first.command<number>(['EXISTS', first.key('task', past.taskId)])).toBe(0);
  });

  it('loses no change when two connections update one task at once (compare-and-set)', async () => {
    const stores = [new RedisTaskStore(first), new RedisTaskStore(second)];
    const task = newTask('session:s1');
    await stores[0]!.create(task);
    const keys = Array.from({ length: 30 }, (_, i) => `q${i}`);
    await Promise.all(keys.map((key, i) => stores[i % 2]!.update(task.taskId, { ask: { [key]: { method: 'elicitation/create' } } })));
    expect(Object.keys((await stores[0]!.get(task.taskId))!.inputRequests!).sort()).toEqual([...keys].sort());
    await Promise.all(keys.map((key, i) => stores[(i + 1) % 2]!.update(task.taskId, { answer: { [key]: { action: 'decline' } } })));
    const after = (await stores[1]!.get(task.taskId))!;
    expect(after.status).toBe('working');
    expect(Object.keys(after.inputResponses!)).toHaveLength(keys.length);
    expect(after.inputRequests).toEqual({});
  });

  it("lists an owner's live tasks a page at a time, and nobody else's", async () => {
    const store = new RedisTaskStore(first);
    const owner = `subject:${randomBytes(4).toString('hex')}`;
    const mine = [newTask(owner, 60_000), newTask(owner, 60_100), newTask(owner, 60_200)];
    for (const task of mine) await store.create(task);
    // Created 200 ms ago with a 100 ms TTL: already expired, so the listing prunes it.
    const short = newTask(owner, 100, 200);
    await store.create(short);
    await store.create(newTask(`${owner}x`));
    const page1 = await store.list(owner, undefined, 2);
    expect(page1.tasks.map((task) => task.taskId)).toEqual([mine[0]!.taskId, mine[1]!.taskId]);
    expect(page1.nextCursor).toBeDefined();
    const page2 = await store.list(owner, page1.nextCursor, 2);
    expect(page2.tasks.map((task) => task.taskId)).toEqual([mine[2]!.taskId]);
    expect(page2.nextCursor).toBeUndefined();
    expect((await store.list('subject:nobody', undefined, 10)).tasks).toEqual([]);
    await expect(store.list(owner, 'x', 2)).rejects.toThrow(RangeError);
  });

  it('fails with SharedStateUnavailableError while Redis is gone', async () => {
    const own = await RedisProcess.start();
    const connection = await RedisConnection.connect({ url: own.url, prefix, commandTimeoutMs: 500 });
    try {
      const store = new RedisTaskStore(connection);
      const task = newTask(null);
      await store.create(task);
      await own.stop();
      await expect(store.get(task.taskId)).rejects.toBeInstanceOf(SharedStateUnavailableError);
      await expect(store.update(task.taskId, { status: 'cancelled' })).rejects.toBeInstanceOf(SharedStateUnavailableError);
    } finally {
      await connection.close();
      await own.dispose();
    }
  }, 20_000);
});

describe('two TasksExtension replicas sharing one RedisTaskStore', () => {
  const nodes: McpNodeServer[] = [];
  const urls: URL[] = [];
  let cancelled: Promise<unknown>;

  /** Requests name their requester in clientInfo here; a real server binds tasks to the authenticated subject. */
  const requester = (context: RequestContext): string | null => {
    const info = context._meta?.['io.modelcontextprotocol/clientInfo'] as { name?: string } | undefined;
    return info?.name ?? null;
  };

  beforeAll(async () => {
    let onCancel: (reason: unknown) => void = () => undefined;
    cancelled = new Promise((resolve) => {
      onCancel = resolve;
    });
    for (const connection of [first, second]) {
      const tasks = new TasksExtension({ store: new RedisTaskStore(connection), pollIntervalMs: 50, requester });
      const mcp = new McpServer({ name: 'replica', version: '1.0.0' }, { extensions: [tasks] });
      mcp.registerTool('compute', { inputSchema: z.object({ ms: z.number() }), execution: { taskSupport: 'optional' } }, async ({ ms }) => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return { content: [{ type: 'text', text: `computed in ${ms} ms` }] };
      });
      mcp.registerTool('book', { execution: { taskSupport: 'required' } }, async (_args, context) => {
        const answer = await context.elicitForm('Which day?', z.object({ day: z.string() }), { inputKey: 'day' });
        return { content: [{ type: 'text', text: answer.action === 'accept' ? `booked for ${answer.content.day}` : 'not booked' }] };
      });
      mcp.registerTool('forever', { execution: { taskSupport: 'optional' } }, async (_args, context) => {
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
        onCancel(context.signal.reason);
        return { content: [] };
      });
      const node = createMcpNodeServer({ server: () => mcp.createServer(), path: '/mcp' });
      urls.push(await node.listen());
      nodes.push(node);
    }
  });

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.close()));
  });

  async function connect(name: string, replica: number): Promise<{ client: Client; tasks: TasksClient }> {
    const tasks = new TasksClient();
    const client = new Client({ name, version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, eraCache: false, extensions: [tasks] });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { day: 'Tuesday' } }));
    await client.connect(new StreamableHttpClientTransport(urls[replica]!));
    return { client, tasks };
  }

  const textOf = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]!.text;

  it('creates a task on one replica and polls it to completion through the other', async () => {
    const one = await connect('alice', 0);
    const two = await connect('alice', 1);
    const handle = await one.client.callTool({ name: 'compute', arguments: { ms: 100 } });
    expect(isTaskHandle(handle)).toBe(true);
    const taskId = (handle as unknown as { taskId: string }).taskId;
    expect((await two.tasks.get(two.client, taskId)).status).toBe('working');
    expect(textOf(await two.tasks.wait(two.client, taskId))).toBe('computed in 100 ms');
    await one.client.close();
    await two.client.close();
  });

  it('answers a task\'s question through the other replica (tasks/update), and the work picks it up', async () => {
    const one = await connect('alice', 0);
    const two = await connect('alice', 1);
    const handle = (await one.client.callTool({ name: 'book', arguments: {} })) as unknown as { taskId: string };
    expect(textOf(await two.tasks.wait(two.client, handle.taskId))).toBe('booked for Tuesday');
    await one.client.close();
    await two.client.close();
  });

  it('cancels through the other replica: the work on the first sees its signal abort', async () => {
    const one = await connect('alice', 0);
    const two = await connect('alice', 1);
    const handle = (await one.client.callTool({ name: 'forever', arguments: {} })) as unknown as { taskId: string };
    const mallory = await connect('mallory', 1);
    const refused = await mallory.tasks.cancel(mallory.client, handle.taskId).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProtocolError);
    expect((refused as ProtocolError).code).toBe(-32602);
    await two.tasks.cancel(two.client, handle.taskId);
    await cancelled;
    expect((await one.tasks.get(one.client, handle.taskId)).status).toBe('cancelled');
    await expect(one.tasks.wait(one.client, handle.taskId)).rejects.toSatisfy((error) => error instanceof SdkError && error.code === 'REQUEST_CANCELLED');
    await Promise.all([one.client.close(), two.client.close(), mallory.client.close()]);
  });
});
