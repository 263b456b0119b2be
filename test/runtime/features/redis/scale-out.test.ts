// Scale-out on Redis: three replica processes behind a plain round-robin proxy, state on a real
// redis-server (own process unless REDIS_URL names one). Covers a stateful session hopping
// replicas with its GET stream on one of them, a replica killed mid-stream and the stream resumed
// elsewhere, a 2026-07-28 MRTR flow hopping replicas (and a tampered state), list-changed fan-out
// to subscriptions/listen streams on every replica, and Redis stopped and restarted under load.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHttpClientTransport, type Stateful } from '../../../../runtime/index.js';
import { RedisConnection, RedisEventStore, RedisRequestStateKeyRing } from '../../../../runtime/features/redis/index.js';
import { CLIENT_CAPABILITIES_META, PROTOCOL_VERSION_META } from '../../../../runtime/era/meta.js';
import { messageOf, SseReader, type TestEvent } from '../../transports/http/server-support.js';
import { RedisProcess, Replica, RoundRobinProxy } from './cluster.js';

const STATEFUL = '2025-11-25';
const STATELESS = '2026-07-28';
const prefix = `t${randomBytes(4).toString('hex')}`;
let redis: RedisProcess | undefined;
let redisUrl: string;
let replicas: Replica[] = [];
let proxy: RoundRobinProxy;
let direct: RedisConnection;

beforeAll(async () => {
  if (process.env.REDIS_URL !== undefined && process.env.REDIS_URL !== '') {
    redisUrl = process.env.REDIS_URL;
  } else {
    redis = await RedisProcess.start();
    redisUrl = redis.url;
  }
  replicas = await Promise.all(['r1', 'r2', 'r3'].map((name) => Replica.spawn(name, redisUrl, prefix)));
  proxy = await RoundRobinProxy.start(() => replicas.filter((replica) => replica.alive));
  direct = await RedisConnection.connect({ url: redisUrl, prefix });
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await Promise.all(replicas.map((replica) => replica.stop()));
  await direct?.close();
  await redis?.dispose();
}, 20_000);

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await wait(20);
  }
}

/** A raw POST through the proxy; returns the response and its JSON-RPC answer (JSON or SSE). */
async function post(body: unknown, headers: Record<string, string>): Promise<{ status: number; headers: Headers; message: Record<string, any> | undefined }> {
  const response = await fetch(proxy.url, {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) {
    const reader = new SseReader(response.body);
    const events = await reader.until((event) => {
      const message = messageOf(event);
      return message !== undefined && 'id' in message && !('method' in message);
    });
    await reader.cancel();
    return { status: response.status, headers: response.headers, message: messageOf(events[events.length - 1]!) };
  }
  const text = await response.text();
  return { status: response.status, headers: response.headers, message: text === '' ? undefined : (JSON.parse(text) as Record<string, any>) };
}

/** A raw stateful session: initialize and initialized through the proxy. */
async function openSession(): Promise<string> {
  const init = await post(
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: STATEFUL, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
    { 'mcp-protocol-version': STATEFUL },
  );
  const session = init.headers.get('mcp-session-id');
  expect(session).toBeTruthy();
  const ack = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-protocol-version': STATEFUL, 'mcp-session-id': session! });
  expect(ack.status).toBe(202);
  return session!;
}

let nextId = 1;
function callStateful(session: string, name: string, args: Record<string, unknown> = {}) {
  return post({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } }, { 'mcp-protocol-version': STATEFUL, 'mcp-session-id': session });
}

function statelessMeta(): Record<string, unknown> {
  return { [PROTOCOL_VERSION_META]: STATELESS, [CLIENT_CAPABILITIES_META]: { elicitation: { form: {} } } };
}

function callStateless(name: string, params: Record<string, unknown>) {
  return post(
    { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { _meta: statelessMeta(), name, ...params } },
    { 'mcp-protocol-version': STATELESS, 'mcp-method': 'tools/call', 'mcp-name': name },
  );
}

/** Opens the standalone GET stream of `session` (resuming after `lastEventId`). */
async function openGet(session: string, lastEventId?: string): Promise<{ reader: SseReader; upstream: string }> {
  const response = await fetch(proxy.url, {
    headers: { accept: 'text/event-stream', 'mcp-protocol-version': STATEFUL, 'mcp-session-id': session, ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}) },
  });
  expect(response.status).toBe(200);
  return { reader: new SseReader(response.body), upstream: response.headers.get('x-upstream')! };
}

const seqOf = (event: TestEvent): number | undefined => {
  const message = messageOf(event);
  return message?.method === 'notifications/message' ? ((message.params as { data?: { seq?: number } } | undefined)?.data?.seq) : undefined;
};

describe('Redis scale-out behind a round-robin proxy', () => {
  it('serves a 2025-11-25 session from every replica; its GET stream hears notifications caused on the others', async () => {
    const client = new Client({ name: 'hopper', version: '1.0.0' }, { protocolVersion: STATEFUL, negotiation: 'pin' });
    const logs: { seq: number; from: string }[] = [];
    let listChanged = 0;
    client.setNotificationHandler('notifications/message', (params) => {
      logs.push(params.data as { seq: number; from: string });
    });
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      listChanged++;
    });
    await client.connect(new StreamableHttpClientTransport(proxy.url));
    const session = await eventually(() => proxy.log.find((entry) => entry.method === 'GET' && entry.session !== undefined)?.session, 'the GET stream');
    const holder = proxy.log.find((entry) => entry.method === 'GET' && entry.session === session)!.upstream;
    const served = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      served.add((result.content[0] as { text: string }).text);
    }
    expect([...served].sort()).toEqual(['r1', 'r2', 'r3']);
    for (let seq = 1; seq <= 6; seq++) await client.callTool({ name: 'notify', arguments: { seq } });
    await eventually(() => (logs.length >= 6 ? true : undefined), 'six notifications on the GET stream');
    await wait(100);
    expect(logs.map((log) => log.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    // Caused on every replica, delivered by the one holding the stream.
    expect(new Set(logs.map((log) => log.from))).toEqual(new Set(['r1', 'r2', 'r3']));
    expect(['r1', 'r2', 'r3']).toContain(holder);
    // A tool list change made on one replica reaches this session's GET stream exactly once.
    await client.callTool({ name: 'add-tool', arguments: { tool: `stateful-${randomBytes(2).toString('hex')}` } });
    await eventually(() => (listChanged > 0 ? true : undefined), 'tools/list_changed on the GET stream');
    await wait(200);
    expect(listChanged).toBe(1);
    await client.close();
  }, 30_000);

  it('delivers resource updates to a 2025-11-25 session that subscribed on another replica, until it unsubscribes', async () => {
    const client = new Client<Stateful.ProtocolTypes>({ name: 'subscriber', version: '1.0.0' }, { protocolVersion: STATEFUL, negotiation: 'pin' });
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (params) => {
      updates.push(params.uri);
    });
    await client.connect(new StreamableHttpClientTransport(proxy.url));
    const session = await eventually(() => proxy.log.find((entry) => entry.method === 'GET' && entry.session !== undefined && entry.session === (client as unknown as { protocol: { transport?: { sessionId?: string } } }).protocol.transport?.sessionId)?.session, 'the GET stream');
    expect(session).toBeDefined();
    await client.subscribe({ uri: 'test://doc' });
    const touchedBy = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const result = await client.callTool({ name: 'touch-doc', arguments: {} });
      touchedBy.add((result.content[0] as { text: string }).text.split(' ')[0]!);
    }
    // Updates announced on three replicas, delivered once each by the one holding the stream.
    expect(touchedBy.size).toBe(3);
    await eventually(() => (updates.length >= 3 ? true : undefined), 'three resources/updated on the GET stream');
    await client.unsubscribe({ uri: 'test://doc' });
    await client.callTool({ name: 'touch-doc', arguments: {} });
    await wait(300);
    expect(updates).toEqual(['test://doc', 'test://doc', 'test://doc']);
    await client.close();
  }, 30_000);

  it('completes sampling and elicitation round trips of a 2025-11-25 tool call while every POST hops replicas', async () => {
    const client = new Client<Stateful.ProtocolTypes>({ name: 'consulted', version: '1.0.0' }, { protocolVersion: STATEFUL, negotiation: 'pin', capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} } });
    client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///work' }] }));
    const asked: string[] = [];
    client.setRequestHandler('sampling/createMessage', (params) => {
      const content = params.messages[0]!.content;
      asked.push(`sample ${Array.isArray(content) ? '' : content.type === 'text' ? content.text : ''}`);
      return { role: 'assistant', content: { type: 'text', text: 'forty-two' }, model: 'test-model' };
    });
    client.setRequestHandler('elicitation/create', (params) => {
      asked.push(`elicit ${params.message}`);
      return { action: 'accept', content: { ok: true } };
    });
    const start = proxy.log.length;
    await client.connect(new StreamableHttpClientTransport(proxy.url));
    const session = await eventually(() => proxy.log.slice(start).find((entry) => entry.method === 'GET' && entry.session !== undefined)?.session, 'the GET stream');
    for (let i = 0; i < 3; i++) {
      const before = proxy.log.length;
      const result = await client.callTool({ name: 'consult', arguments: { topic: `life-${i}` } });
      expect((result.content[0] as { text: string }).text).toMatch(/^r\d: forty-two; published$/);
      // The call, the sampling response and the elicitation response: three POSTs, three replicas.
      // The last 202 may be logged after the result arrived (the relay answers the POST after publishing).
      const posts = await eventually(() => {
        const found = proxy.log.slice(before).filter((entry) => entry.method === 'POST' && entry.session === session);
        return found.length >= 3 ? found : undefined;
      }, 'three POSTs in the log');
      expect(posts).toHaveLength(3);
      expect(new Set(posts.map((entry) => entry.upstream)).size).toBe(3);
    }
    expect(asked).toEqual([0, 1, 2].flatMap((i) => [`sample About life-${i}?`, `elicit Publish the answer on life-${i}?`]));
    // Concurrent calls on different replicas' copies of the session: their request ids must not collide.
    const results = await Promise.all([0, 1, 2].map((i) => client.callTool({ name: 'consult', arguments: { topic: `parallel-${i}` } })));
    for (const result of results) expect((result.content[0] as { text: string }).text).toMatch(/^r\d: forty-two; published$/);
    expect(asked).toHaveLength(12);
    // A request sent outside the call's stream travels on the GET stream (held by one replica)
    // and its answer reaches the replica awaiting it, wherever the balancer sends it.
    const holder = proxy.log.slice(start).find((entry) => entry.method === 'GET' && entry.session === session)!.upstream;
    const aside = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const result = await client.callTool({ name: 'roots-aside', arguments: {} });
      const [from, roots] = (result.content[0] as { text: string }).text.split(': ');
      expect(roots).toBe('file:///work');
      aside.add(from!);
    }
    expect([...aside].some((from) => from !== holder)).toBe(true);
    await client.close();
  }, 30_000);

  it('routes progress notifications of the client for a server request to the replica awaiting it, wherever they land', async () => {
    const client = new Client<Stateful.ProtocolTypes>({ name: 'progressing', version: '1.0.0' }, { protocolVersion: STATEFUL, negotiation: 'pin', capabilities: { sampling: {} } });
    const echoed = new Map<number, () => void>();
    const heard = (step: number): Promise<void> => new Promise((resolve) => echoed.set(step, resolve));
    client.setRequestHandler('sampling/createMessage', async (_params, context) => {
      // Each step waits until the server echoed the one before: progress it never heard stalls the call.
      for (let step = 1; step <= 6; step++) {
        const echo = heard(step);
        await context.reportProgress(step);
        await echo;
      }
      return { role: 'assistant', content: { type: 'text', text: 'done' }, model: 'test-model' };
    });
    await client.connect(new StreamableHttpClientTransport(proxy.url));
    const before = proxy.log.length;
    const result = await client.callTool({ name: 'sample-progress', arguments: {} }, { timeout: 15_000, onprogress: (progress) => echoed.get(progress.progress)?.() });
    const [owner, said] = (result.content[0] as { text: string }).text.split(': ');
    expect(said).toBe('heard 1,2,3,4,5,6');
    // The six progress POSTs went round the replicas: most were relayed to the owner.
    const posts = proxy.log.slice(before).filter((entry) => entry.method === 'POST');
    expect(posts.filter((entry) => entry.upstream !== owner).length).toBeGreaterThanOrEqual(3);
    await client.close();
  }, 30_000);

  it('completes a 2026-07-28 MRTR flow across replicas, across a key rotation, and refuses a tampered requestState', async () => {
    const first = await callStateless('confirm', { arguments: { what: 'deploy' } });
    expect(first.message?.result).toMatchObject({ resultType: 'input_required' });
    const state = first.message!.result.requestState as string;
    const firstReplica = first.headers.get('x-upstream');
    const second = await callStateless('confirm', { arguments: { what: 'deploy' }, requestState: state, inputResponses: { confirm: { action: 'accept', content: { ok: true } } } });
    expect(second.headers.get('x-upstream')).not.toBe(firstReplica);
    expect(second.message?.result).toMatchObject({ resultType: 'complete' });
    expect(second.message!.result.content[0].text).toMatch(/^r\d: confirmed deploy$/);

    // Tampered: one character of the payload changed; every replica refuses it.
    const parts = state.split('.');
    parts[2] = parts[2]!.slice(0, -2) + (parts[2]!.endsWith('A') ? 'B' : 'A') + parts[2]!.slice(-1);
    for (let i = 0; i < 3; i++) {
      const tampered = await callStateless('confirm', { arguments: { what: 'deploy' }, requestState: parts.join('.'), inputResponses: { confirm: { action: 'accept', content: { ok: true } } } });
      expect(tampered.message?.error?.code).toBe(-32602);
      expect(tampered.message?.error?.message).toMatch(/requestState/);
    }

    // A rotation (as another replica would do it): states sealed with the new key open everywhere.
    const ring = await RedisRequestStateKeyRing.load(direct);
    await ring.rotate();
    ring.close();
    const newest = ring.keys()[0]!.id;
    await wait(1_200); // the replicas' background refresh
    const sealed = await callStateless('confirm', { arguments: { what: 'rollback' } });
    const token = sealed.message!.result.requestState as string;
    expect(token.split('.')[1]).toBe(newest);
    const done = await callStateless('confirm', { arguments: { what: 'rollback' }, requestState: token, inputResponses: { confirm: { action: 'accept', content: { ok: false } } } });
    expect(done.headers.get('x-upstream')).not.toBe(sealed.headers.get('x-upstream'));
    expect(done.message!.result.content[0].text).toMatch(/refused rollback/);
    // A state sealed with the key before the rotation still opens (retained).
    const old = await callStateless('confirm', { arguments: { what: 'deploy' }, requestState: state, inputResponses: { confirm: { action: 'accept', content: { ok: true } } } });
    expect(old.message?.result).toMatchObject({ resultType: 'complete' });
  }, 30_000);

  it('fans a tool list change on one replica out to subscriptions/listen streams on all replicas', async () => {
    const listens: { reader: SseReader; upstream: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(proxy.url, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': STATELESS, 'mcp-method': 'subscriptions/listen' },
        body: JSON.stringify({ jsonrpc: '2.0', id: `listen-${i}`, method: 'subscriptions/listen', params: { _meta: statelessMeta(), notifications: { toolsListChanged: true } } }),
      });
      const reader = new SseReader(response.body);
      await reader.until((event) => messageOf(event)?.method === 'notifications/subscriptions/acknowledged');
      listens.push({ reader, upstream: response.headers.get('x-upstream')! });
    }
    expect(new Set(listens.map((listen) => listen.upstream))).toEqual(new Set(['r1', 'r2', 'r3']));
    const added = await callStateless('add-tool', { arguments: { tool: `t-${randomBytes(2).toString('hex')}` } });
    expect(added.message?.result?.resultType).toBe('complete');
    for (const listen of listens) {
      const events = await listen.reader.until((event) => messageOf(event)?.method === 'notifications/tools/list_changed');
      const change = messageOf(events[events.length - 1]!)!;
      expect((change.params as { _meta: Record<string, unknown> })._meta['io.modelcontextprotocol/subscriptionId']).toMatch(/^listen-/);
    }
    // Exactly once: nothing else arrives on any stream for a while.
    const extra = await Promise.race([Promise.any(listens.map((listen) => listen.reader.next())), wait(300).then(() => 'none')]);
    expect(extra === 'none' || (extra as TestEvent).comment !== undefined).toBe(true);
    await Promise.all(listens.map((listen) => listen.reader.cancel()));
  }, 30_000);

  it('resumes a GET stream on another replica after its replica is killed: every acknowledged event exactly once', async () => {
    const session = await openSession();
    const first = await openGet(session);
    const priming = await first.reader.next();
    expect(priming?.id).toMatch(/^gs_/);
    const victim = replicas.find((replica) => replica.name === first.upstream)!;
    const received: number[] = [];
    let lastId = priming!.id!;
    const acknowledged: number[] = [];
    // Reads the first stream until it breaks.
    const firstDone = (async () => {
      for (let event = await first.reader.next().catch(() => undefined); event !== undefined; event = await first.reader.next().catch(() => undefined)) {
        const seq = seqOf(event);
        if (seq !== undefined) received.push(seq);
        if (event.id !== undefined) lastId = event.id;
      }
    })();
    let seq = 0;
    for (; seq < 8; seq++) {
      const reply = await callStateful(session, 'notify', { seq });
      if (reply.message?.result !== undefined) acknowledged.push(seq);
    }
    await eventually(() => (received.length >= 8 ? true : undefined), 'events before the kill');
    await victim.kill();
    await Promise.race([firstDone, wait(3_000).then(() => {
      throw new Error('the first GET stream did not end when its replica died');
    })]);
    // Calls go on while the client is away; the balancer now only has the survivors.
    for (; seq < 16; seq++) {
      const reply = await callStateful(session, 'notify', { seq });
      if (reply.message?.result !== undefined) acknowledged.push(seq);
    }
    const second = await openGet(session, lastId);
    expect(second.upstream).not.toBe(victim.name);
    const secondDone = (async () => {
      for (let event = await second.reader.next(); event !== undefined; event = await second.reader.next()) {
        const seq = seqOf(event);
        if (seq !== undefined) received.push(seq);
      }
    })();
    for (; seq < 20; seq++) {
      const reply = await callStateful(session, 'notify', { seq });
      if (reply.message?.result !== undefined) acknowledged.push(seq);
    }
    await eventually(() => (acknowledged.every((n) => received.includes(n)) ? true : undefined), 'every acknowledged event');
    await wait(200);
    await second.reader.cancel();
    await secondDone.catch(() => undefined);
    if (process.env.MCPGEN_REPORT === '1') console.log(`kill/resume: killed ${victim.name}, resumed on ${second.upstream}, ${received.length} events for ${acknowledged.length} acknowledged calls`);
    expect(acknowledged).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect([...received].sort((a, b) => a - b)).toEqual(acknowledged);
    // Respawn the victim for what follows.
    const index = replicas.indexOf(victim);
    replicas[index] = await Replica.spawn(victim.name, redisUrl, prefix);
  }, 40_000);

  it('stays up while Redis is stopped and restarted under load: clear errors, then recovery, sessions kept', async () => {
    // Its own redis-server (AOF on) and two replicas, since it stops Redis.
    const own = await RedisProcess.start();
    const pair = await Promise.all(['x1', 'x2'].map((name) => Replica.spawn(name, own.url, prefix)));
    const local = await RoundRobinProxy.start(() => pair);
    const target = proxy;
    proxy = local;
    try {
      const session = await openSession();
      expect((await callStateful(session, 'whoami')).message?.result).toBeDefined();
      let stop = false;
      const outcomes: { ok: number; unavailable: number; other: string[] } = { ok: 0, unavailable: 0, other: [] };
      const load = (async () => {
        while (!stop) {
          try {
            const reply = await callStateful(session, 'whoami');
            if (reply.message?.result !== undefined) outcomes.ok++;
            else if (reply.status === 503 && /shared session store cannot be reached/.test(String(reply.message?.error?.message))) outcomes.unavailable++;
            else outcomes.other.push(`${reply.status} ${JSON.stringify(reply.message)}`);
          } catch (error) {
            outcomes.other.push(String(error));
          }
          await wait(10);
        }
      })();
      await wait(300);
      await own.stop();
      await eventually(() => (outcomes.unavailable >= 3 ? true : undefined), '503 answers while Redis is down');
      // Stateless-era requests need no shared state for a plain call: still served.
      const during = await callStateless('whoami', { arguments: {} });
      expect(during.message?.result?.resultType).toBe('complete');
      await own.resume();
      const okBefore = outcomes.ok;
      await eventually(() => (outcomes.ok >= okBefore + 5 ? true : undefined), 'recovery after Redis restarted', 10_000);
      stop = true;
      await load;
      if (process.env.MCPGEN_REPORT === '1') console.log(`redis restart: ${JSON.stringify({ ok: outcomes.ok, unavailable: outcomes.unavailable })}`);
      expect(outcomes.other).toEqual([]);
      expect(pair.every((replica) => replica.alive)).toBe(true);
      // The session made before the outage (acknowledged, so on disk) is still served by both replicas.
      // A replica may still be reconnecting (503, retried); the session itself must never be lost (404).
      for (let i = 0; i < 2; i++) {
        const reply = await eventually(async () => {
          const attempt = await callStateful(session, 'whoami');
          return attempt.status === 503 ? undefined : attempt;
        }, 'both replicas reconnected');
        expect(reply.message?.result).toBeDefined();
      }
      expect(pair.map((replica) => replica.stderr.join('')).join('')).toMatch(/Lost the Redis .* connection; reconnecting/);
    } finally {
      proxy = target;
      await local.close();
      await Promise.all(pair.map((replica) => replica.stop()));
      await own.dispose();
    }
  }, 40_000);
});

describe('RedisEventStore', () => {
  it('replays after a cursor and refuses a cursor whose successors were trimmed', async () => {
    const store = new RedisEventStore(direct, { maxEventsPerStream: 10 });
    const stream = `s${randomBytes(3).toString('hex')}.1`;
    const ids: string[] = [];
    ids.push(await store.storeEvent(stream, null));
    for (let i = 0; i < 3; i++) ids.push(await store.storeEvent(stream, { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i } }));
    const replayed: unknown[] = [];
    expect(await store.replayEventsAfter(ids[0]!, (id, message) => void replayed.push([id, message]))).toBe(stream);
    expect(replayed.map((entry) => (entry as [string, any])[1].params.data)).toEqual([0, 1, 2]);
    expect(await store.replayEventsAfter(`${stream}_1-0`, () => undefined)).toBeUndefined();
    expect(await store.replayEventsAfter('nonsense', () => undefined)).toBeUndefined();
    // Exact trimming so the first cursor goes: resuming from it must fail, not skip.
    await direct.command(['XTRIM', direct.key('ev', stream), 'MAXLEN', '1']);
    expect(await store.replayEventsAfter(ids[0]!, () => undefined)).toBeUndefined();
    const ttl = await direct.command<number>(['PTTL', direct.key('ev', stream)]);
    expect(ttl).toBeGreaterThan(0);
  });
});
