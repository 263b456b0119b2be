// Scale-out under faults: three replica processes behind a plain round-robin proxy, on a
// redis-server of this file's own (no persistence, so a restart starts empty), which the tests
// stall (SIGSTOP/SIGCONT), restart and cut the pub/sub links of. Never the shared Redis.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHttpClientTransport, type Stateful } from '../../../../runtime/index.js';
import { RedisConnection } from '../../../../runtime/features/redis/index.js';
import { CLIENT_CAPABILITIES_META, PROTOCOL_VERSION_META } from '../../../../runtime/era/meta.js';
import { messageOf, SseReader } from '../../transports/http/server-support.js';
import { RedisProcess, Replica, RoundRobinProxy } from './cluster.js';

const STATEFUL = '2025-11-25';
const STATELESS = '2026-07-28';
const prefix = `f${randomBytes(4).toString('hex')}`;
let redis: RedisProcess;
let replicas: Replica[] = [];
let proxy: RoundRobinProxy;
let direct: RedisConnection;
/** Figures for the report (MCPGEN_REPORT=1 prints them). */
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  redis = await RedisProcess.start({ persistent: false });
  replicas = await Promise.all(['r1', 'r2', 'r3'].map((name) => Replica.spawn(name, redis.url, prefix)));
  proxy = await RoundRobinProxy.start(() => replicas.filter((replica) => replica.alive));
  direct = await RedisConnection.connect({ url: redis.url, prefix, commandTimeoutMs: 5_000 });
}, 60_000);

afterAll(async () => {
  if (process.env.MCPGEN_REPORT === '1') console.log(`faults: ${JSON.stringify(figures)}`);
  await proxy?.close();
  await Promise.all(replicas.map((replica) => replica.stop()));
  await direct?.close();
  await redis?.dispose();
}, 20_000);

const stderrOf = (): string => replicas.map((replica) => replica.stderr.join('')).join('');
const textOf = (result: { content: unknown[] }): string => (result.content[0] as { text: string }).text;

/** A raw POST through the proxy; returns the status and its JSON-RPC answer (JSON or SSE). */
async function post(body: unknown, headers: Record<string, string>): Promise<{ status: number; message: Record<string, any> | undefined }> {
  const response = await fetch(proxy.url, {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const reader = new SseReader(response.body);
    const events = await reader.until((event) => {
      const message = messageOf(event);
      return message !== undefined && 'id' in message && !('method' in message);
    });
    await reader.cancel();
    return { status: response.status, message: messageOf(events[events.length - 1]!) };
  }
  const text = await response.text();
  return { status: response.status, message: text === '' ? undefined : (JSON.parse(text) as Record<string, any>) };
}

let nextId = 1;
function callStateless(name: string, params: Record<string, unknown>) {
  return post(
    { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { _meta: { [PROTOCOL_VERSION_META]: STATELESS, [CLIENT_CAPABILITIES_META]: { elicitation: { form: {} } } }, name, ...params } },
    { 'mcp-protocol-version': STATELESS, 'mcp-method': 'tools/call', 'mcp-name': name },
  );
}

function statefulClient(name: string, errors: Error[] = []): Client<Stateful.ProtocolTypes> {
  return new Client<Stateful.ProtocolTypes>({ name, version: '1.0.0' }, { protocolVersion: STATEFUL, negotiation: 'pin', capabilities: { sampling: {} }, onerror: (error) => errors.push(error) });
}

const sampled = { role: 'assistant' as const, content: { type: 'text' as const, text: 'sampled' }, model: 'test-model' };

describe('Redis scale-out under faults', () => {
  it('delivers each of 100 relayed answers exactly once while every pub/sub link of the replicas reconnects', async () => {
    const client = statefulClient('burst');
    let answered = 0;
    client.setRequestHandler('sampling/createMessage', async () => {
      answered++;
      // Mid-burst, Redis drops every subscriber connection; the replicas reconnect on their own.
      if (answered === 30) await direct.command(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
      return sampled;
    });
    await client.connect(new StreamableHttpClientTransport(proxy.url));
    const before = proxy.log.length;
    const result = await client.callTool({ name: 'burst', arguments: { count: 100, timeoutMs: 6_000 } }, { timeout: 20_000 });
    const outcome = JSON.parse(textOf(result)) as { replica: string; delivered: number; failed: number };
    const relayed = proxy.log.slice(before).filter((entry) => entry.method === 'POST' && entry.upstream !== outcome.replica).length;
    figures.burst = { ...outcome, answered, postsToOtherReplicas: relayed };
    expect(answered).toBe(100);
    // Most answers landed on another replica than the one awaiting them: they were relayed.
    expect(relayed).toBeGreaterThanOrEqual(50);
    expect(outcome).toMatchObject({ delivered: 100, failed: 0 });
    // Exactly once: no replica received an answer twice (the engine reports a second one as unknown).
    expect(stderrOf()).not.toMatch(/unknown request id|is dropped/);
    await client.close();
  }, 30_000);

  it('tells subscriptions/listen streams on every replica of a list change made while their pub/sub links reconnect, once each', async () => {
    const listens: SseReader[] = [];
    const upstreams = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const response = await fetch(proxy.url, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': STATELESS, 'mcp-method': 'subscriptions/listen' },
        body: JSON.stringify({ jsonrpc: '2.0', id: `listen-${i}`, method: 'subscriptions/listen', params: { _meta: { [PROTOCOL_VERSION_META]: STATELESS, [CLIENT_CAPABILITIES_META]: {} }, notifications: { toolsListChanged: true, resourceSubscriptions: ['test://doc'] } } }),
      });
      const reader = new SseReader(response.body);
      await reader.until((event) => messageOf(event)?.method === 'notifications/subscriptions/acknowledged');
      listens.push(reader);
      upstreams.add(response.headers.get('x-upstream')!);
    }
    expect(upstreams.size).toBe(3);
    // Redis drops every subscriber connection and, full for now, refuses them back.
    const connected = Number(/connected_clients:(\d+)/.exec(String(await direct.command(['INFO', 'clients'])))![1]);
    const subscribers = String(await direct.command(['CLIENT', 'LIST', 'TYPE', 'pubsub'])).trim().split('\n').length;
    await direct.command(['CONFIG', 'SET', 'maxclients', String(connected - subscribers)]);
    await direct.command(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
    let added: Awaited<ReturnType<typeof callStateless>>;
    try {
      // Sent while no replica's subscriber is connected.
      added = await callStateless('add-tool', { arguments: { tool: `t-${randomBytes(2).toString('hex')}` } });
      expect(await direct.command(['CLIENT', 'LIST', 'TYPE', 'pubsub'])).toBe('');
    } finally {
      await direct.command(['CONFIG', 'SET', 'maxclients', '10000']);
    }
    expect(added.message?.result?.resultType).toBe('complete');
    for (const reader of listens) await reader.until((event) => messageOf(event)?.method === 'notifications/tools/list_changed');
    // Once: a resource update sent after the reconnection is the next message each stream hears.
    await callStateless('touch-doc', { arguments: {} });
    for (const reader of listens) {
      const events = await reader.until((event) => messageOf(event) !== undefined);
      expect(events.map((event) => messageOf(event)?.method).filter((method) => method !== undefined)).toEqual(['notifications/resources/updated']);
    }
    await Promise.all(listens.map((reader) => reader.cancel()));
  }, 30_000);

  it('completes a tool call whose sampling answer is sent while Redis stalls for 3 s', async () => {
    const errors: Error[] = [];
    const client = statefulClient('stalled', errors);
    let stalled: Promise<number> | undefined;
    client.setRequestHandler('sampling/createMessage', () => {
      // The fault: Redis freezes with its connections open, and carries on 3 s later.
      redis.pause();
      stalled = new Promise((resolve) => setTimeout(() => {
        redis.unpause();
        resolve(Date.now());
      }, 3_000));
      return sampled;
    });
    await client.connect(new StreamableHttpClientTransport(proxy.url));
    const started = Date.now();
    let outcome: string;
    try {
      const result = await client.callTool({ name: 'sample-once', arguments: {} }, { timeout: 12_000 });
      outcome = textOf(result);
    } catch (error) {
      outcome = `failed: ${(error as Error).message}`;
    }
    const resumedAt = await stalled!;
    figures.stall = { outcome, callMs: Date.now() - started, afterRedisBackMs: Date.now() - resumedAt, errors: errors.map((error) => error.message) };
    expect(outcome).toMatch(/^r\d: sampled$/);
    expect(errors).toEqual([]);
    await client.close();
  }, 30_000);

  it('refuses no 2026-07-28 MRTR call while Redis restarts empty and the replicas find their key ring gone', async () => {
    const tally = { completed: 0, refused: 0, other: [] as string[] };
    const flow = async (i: number): Promise<void> => {
      const what = `deploy-${i}`;
      const first = await callStateless('confirm', { arguments: { what } });
      const state = first.message?.result?.requestState as string | undefined;
      if (state === undefined) {
        tally.other.push(`first round: ${first.status} ${JSON.stringify(first.message)}`);
        return;
      }
      const second = await callStateless('confirm', { arguments: { what }, requestState: state, inputResponses: { confirm: { action: 'accept', content: { ok: true } } } });
      if (second.message?.result?.resultType === 'complete') tally.completed++;
      else if (second.message?.error?.code === -32602) tally.refused++;
      else tally.other.push(`second round: ${second.status} ${JSON.stringify(second.message)}`);
    };
    let i = 0;
    for (; i < 10; i++) await flow(i);
    await redis.stop();
    await redis.resume();
    // The replicas refresh their ring every second: the calls span several refreshes of each.
    const until = Date.now() + 3_500;
    while (Date.now() < until) await Promise.all([flow(i++), flow(i++)]);
    figures.restartEmpty = { flows: i, completed: tally.completed, refused: tally.refused, other: tally.other.length };
    expect(tally.other).toEqual([]);
    expect(tally.refused).toBe(0);
    expect(tally.completed).toBe(i);
  }, 30_000);

  it('does not take a live replica for dead: a stream it still writes resumes elsewhere as an open stream, not 410', async () => {
    const init = await fetch(proxy.url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': STATEFUL },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: STATEFUL, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    const session = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    const headers = { 'mcp-protocol-version': STATEFUL, 'mcp-session-id': session };
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    const call = await fetch(proxy.url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'live-1', method: 'tools/call', params: { name: 'linger', arguments: {}, _meta: { progressToken: 'p' } } }),
    });
    const writer = call.headers.get('x-upstream');
    const reader = new SseReader(call.body);
    const events = await reader.until((event) => messageOf(event)?.method === 'notifications/progress');
    await reader.cancel();
    // The client went away; its writer did not. The resumption lands on the next replica.
    const resumed = await fetch(proxy.url, { headers: { accept: 'text/event-stream', ...headers, 'last-event-id': events[events.length - 1]!.id! } });
    expect(resumed.headers.get('x-upstream')).not.toBe(writer);
    expect(resumed.status).toBe(200);
    await resumed.body?.cancel();
    expect((await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'live-1' } }, headers)).status).toBe(202);
  }, 30_000);

  it('tells the client within 2 s of the replacement stream that the replica running its tool call died', async () => {
    const errors: Error[] = [];
    const client = statefulClient('orphaned', errors);
    await client.connect(new StreamableHttpClientTransport(proxy.url));
    let killedAt = 0;
    let victim: Replica | undefined;
    let outcome: string;
    try {
      await client.callTool({ name: 'linger', arguments: {} }, {
        timeout: 60_000,
        onprogress: (progress) => {
          victim = replicas.find((replica) => progress.message === `running on ${replica.name}`);
          killedAt = Date.now();
          void victim?.kill();
        },
      });
      outcome = 'completed';
    } catch (error) {
      outcome = (error as Error).message;
    }
    const failedAt = Date.now();
    expect(victim).toBeDefined();
    // The first resumption of the call's stream answered by a surviving replica.
    const replacement = proxy.log.find((entry) => entry.sentAt >= killedAt && entry.method === 'GET' && entry.lastEventId !== undefined && !entry.lastEventId.startsWith('gs_'));
    figures.kill = { outcome, afterKillMs: failedAt - killedAt, afterReplacementAskedMs: replacement === undefined ? undefined : failedAt - replacement.sentAt, replacementStatus: replacement?.status };
    expect(replacement).toBeDefined();
    expect(replacement!.upstream).not.toBe(victim!.name);
    // Counted from when the resumption was sent, so the replacement's own checks are inside.
    expect(failedAt - replacement!.sentAt).toBeLessThan(2_000);
    expect(outcome).toMatch(/replica .*(stopped|gone)|unknown/i);
    expect(outcome).not.toMatch(/reconnecting is disabled/);
    await client.close();
  }, 60_000);
});
