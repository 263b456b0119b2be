/**
 * What the Redis shared state (mcpgen/redis) adds per call: `npx tsx bench/redis-overhead.ts`.
 *
 * Each case serves the same tool call through the Fetch core of createMcpHttpHandler in this
 * process (no HTTP sockets, so the difference is the shared state alone), once with the in-memory
 * defaults and once with the Redis stores, and reports per call: Redis commands (each one round
 * trip), CPU µs of this process, CPU µs of redis-server (its own process, started here on a free
 * port unless REDIS_URL is set, in which case its CPU is not measured), and latency p50/p99 of
 * sequential calls. Cases: a stateful (2025-11-25) session call on the replica that holds it, the
 * same session alternating between two replicas, a notification that goes to the session's GET
 * stream, a call whose sampling answer is POSTed to the other replica (relayed on a durable
 * channel: the sender's append and the receiver's read are a round trip each), and a 2026-07-28
 * request (plain, and one MRTR round with the shared key ring).
 *
 * These machines have 2 cores, so several replicas cannot be raced against each other here
 * meaningfully; expected scaling is derived from the per-call overhead instead (printed at the end).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processCpuMicros, ownCpuMicros } from './lib/cpu.js';
import { createMcpHttpHandler, McpServer, type McpHttpHandler } from '../runtime/index.js';
import { TasksExtension } from '../runtime/features/tasks/index.js';
import { createRedisScaleOut, RedisTaskStore, type RedisScaleOut } from '../runtime/features/redis/index.js';
import { messageOf, SseReader } from '../test/runtime/transports/http/server-support.js';

const CALLS = Number(process.env.CALLS ?? 1_000);
/** Rounds per case, memory and Redis alternating, medians reported: the machine is shared and noisy. */
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WARM_UP = 200;
const STATEFUL = '2025-11-25';
const STATELESS = '2026-07-28';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Our own redis-server (so its CPU can be read), or the one REDIS_URL names. */
async function startRedis(): Promise<{ url: string; pid: number | undefined; stop: () => void }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, pid: undefined, stop: () => undefined };
  if (spawnSync('redis-server', ['--version']).status !== 0) throw new Error('redis-server is not installed (apt-get install -y redis-server), and REDIS_URL is not set');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mcpgen-bench-redis-'));
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  return { url: `redis://127.0.0.1:${port}`, pid: child.pid, stop: () => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  } };
}

function createApp(shared: RedisScaleOut | undefined): McpServer {
  // Tasks live in Redis with the shared state, so a task created on one replica is polled on the other.
  const tasks = new TasksExtension({ pollIntervalMs: 1, ...(shared === undefined ? {} : { store: new RedisTaskStore(shared.redis) }) });
  const mcp = new McpServer({ name: 'bench', version: '1.0.0' }, shared === undefined ? { extensions: [tasks] } : { requestState: shared.keyRing.codec(), extensions: [tasks] });
  mcp.registerTool('job', { execution: { taskSupport: 'optional' } }, () => ({ content: [{ type: 'text', text: 'done' }] }));
  mcp.registerTool('echo', { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }, ({ text }) => ({ content: [{ type: 'text', text: String(text) }] }));
  mcp.registerTool('notify', {}, async (_args, context) => {
    await context.session.server.notifyLoggingMessage({ level: 'info', data: 'tick' });
    return { content: [] };
  });
  mcp.registerTool('consult', {}, async (_args, context) => {
    const sampled = await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
    return { content: [{ type: 'text', text: sampled.model }] };
  });
  mcp.registerTool('confirm', {}, async (_args, context) => {
    const answer = await context.elicitForm('ok?', { type: 'object', properties: { ok: { type: 'boolean' } } }, { inputKey: 'ok' });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return mcp;
}

function replica(shared: RedisScaleOut | undefined, mcp: McpServer): McpHttpHandler {
  const factory = () => mcp.createServer();
  return createMcpHttpHandler(shared === undefined ? { server: factory, keepAliveMs: 0 } : { ...shared.handlerOptions(factory), keepAliveMs: 0 });
}

let nextId = 1;
async function post(handler: McpHttpHandler, body: unknown, headers: Record<string, string>): Promise<Response> {
  return handler.fetch(new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', host: '127.0.0.1', ...headers },
    body: JSON.stringify(body),
  }));
}

async function json(response: Response): Promise<Record<string, any>> {
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, any>;
}

async function openSession(handler: McpHttpHandler, capabilities: Record<string, unknown> = {}): Promise<string> {
  const init = await post(handler, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: STATEFUL, capabilities, clientInfo: { name: 'bench', version: '1' } } }, { 'mcp-protocol-version': STATEFUL });
  const session = init.headers.get('mcp-session-id')!;
  await init.text();
  await post(handler, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-protocol-version': STATEFUL, 'mcp-session-id': session });
  return session;
}

const statefulCall = (handler: McpHttpHandler, session: string, name: string) =>
  post(handler, { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: name === 'echo' ? { text: 'hi' } : {} } }, { 'mcp-protocol-version': STATEFUL, 'mcp-session-id': session });

/** A call to `consult` on `handler` whose sampling request is answered by a POST to `answerOn`. */
async function sampledCall(handler: McpHttpHandler, answerOn: McpHttpHandler, session: string): Promise<void> {
  const response = await statefulCall(handler, session, 'consult');
  const reader = new SseReader(response.body);
  const asked = await reader.until((event) => messageOf(event)?.method === 'sampling/createMessage');
  const request = messageOf(asked[asked.length - 1]!)!;
  const answer = await post(answerOn, { jsonrpc: '2.0', id: request.id, result: { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' } }, { 'mcp-protocol-version': STATEFUL, 'mcp-session-id': session });
  if (answer.status !== 202) throw new Error(`answer POST: HTTP ${answer.status}`);
  const done = await reader.until((event) => {
    const message = messageOf(event);
    return message !== undefined && 'id' in message && !('method' in message);
  });
  const message = messageOf(done[done.length - 1]!) as { result?: { isError?: boolean } } | undefined;
  if (message?.result === undefined || message.result.isError === true) throw new Error(JSON.stringify(message));
  await reader.cancel();
}

const meta = { 'io.modelcontextprotocol/protocolVersion': STATELESS, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };
const statelessCall = (handler: McpHttpHandler, name: string, extra: Record<string, unknown> = {}) =>
  post(handler, { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { _meta: meta, name, arguments: name === 'echo' ? { text: 'hi' } : {}, ...extra } }, { 'mcp-protocol-version': STATELESS, 'mcp-method': 'tools/call', 'mcp-name': name });

const taskMeta = { ...meta, 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
const statelessTaskGet = (handler: McpHttpHandler, taskId: string) =>
  post(handler, { jsonrpc: '2.0', id: nextId++, method: 'tasks/get', params: { _meta: taskMeta, taskId } }, { 'mcp-protocol-version': STATELESS, 'mcp-method': 'tasks/get', 'mcp-name': taskId });

/** A task created on `handler` and polled on `pollOn` until it completed. */
async function task(handler: McpHttpHandler, pollOn: McpHttpHandler): Promise<void> {
  const created = await json(await post(handler, { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { _meta: taskMeta, name: 'job', arguments: {} } }, { 'mcp-protocol-version': STATELESS, 'mcp-method': 'tools/call', 'mcp-name': 'job' }));
  const taskId = created.result?.taskId;
  if (typeof taskId !== 'string') throw new Error(JSON.stringify(created));
  for (;;) {
    const polled = await json(await statelessTaskGet(pollOn, taskId));
    if (polled.result?.status === 'completed') return;
    if (polled.result?.status !== 'working') throw new Error(JSON.stringify(polled));
  }
}

interface Measured {
  readonly commands: number;
  readonly cpu: number;
  readonly redisCpu: number | undefined;
  readonly p50: number;
  readonly p99: number;
}

async function measure(shared: RedisScaleOut | undefined, redisPid: number | undefined, call: (i: number) => Promise<void>): Promise<Measured> {
  for (let i = 0; i < WARM_UP; i++) await call(i);
  const latencies: number[] = [];
  const commands = shared?.redis.commandsSent ?? 0;
  const redisCpu = redisPid === undefined ? null : processCpuMicros(redisPid);
  const cpu = ownCpuMicros();
  for (let i = 0; i < CALLS; i++) {
    const start = process.hrtime.bigint();
    await call(i);
    latencies.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  const ownCpu = (ownCpuMicros() - cpu) / CALLS;
  const serverCpu = redisPid === undefined || redisCpu === null ? undefined : ((processCpuMicros(redisPid) ?? 0) - redisCpu) / CALLS;
  latencies.sort((a, b) => a - b);
  return {
    commands: ((shared?.redis.commandsSent ?? 0) - commands) / CALLS,
    cpu: ownCpu,
    redisCpu: serverCpu,
    p50: latencies[Math.floor(CALLS / 2)]!,
    p99: latencies[Math.floor(CALLS * 0.99)]!,
  };
}

const redisServer = await startRedis();
const shared = await createRedisScaleOut({ url: redisServer.url, prefix: `bench${process.pid}` });
// Two replicas on the shared state in one process (each its own McpServer and handler), and an in-memory one.
const appA = createApp(shared);
const appB = createApp(shared);
await shared.bus.attach(appA);
const a = replica(shared, appA);
const b = replica(shared, appB);
const memory = replica(undefined, createApp(undefined));

type Case = { name: string; memory?: (i: number) => Promise<void>; redis: (i: number) => Promise<void> };
const memorySession = await openSession(memory);
const sharedSession = await openSession(a);
const hopSession = await openSession(a);
const memorySampling = await openSession(memory, { sampling: {} });
const relaySession = await openSession(a, { sampling: {} });
// The GET stream of `streamSession` is held by replica A, read as the client would.
const streamSession = await openSession(a);
const get = await a.fetch(new Request('http://127.0.0.1/mcp', { headers: { accept: 'text/event-stream', host: '127.0.0.1', 'mcp-protocol-version': STATEFUL, 'mcp-session-id': streamSession } }));
const reader = new SseReader(get.body);
let delivered = 0;
void (async () => {
  for (let event = await reader.next(); event !== undefined; event = await reader.next()) if (event.data !== undefined && event.data !== '') delivered++;
})();
const memoryGet = await memory.fetch(new Request('http://127.0.0.1/mcp', { headers: { accept: 'text/event-stream', host: '127.0.0.1', 'mcp-protocol-version': STATEFUL, 'mcp-session-id': memorySession } }));
const memoryReader = new SseReader(memoryGet.body);
void (async () => {
  for (let event = await memoryReader.next(); event !== undefined; event = await memoryReader.next()) {
    // drained
  }
})();

async function expectOk(response: Promise<Response>): Promise<void> {
  const body = await json(await response);
  if (body.error !== undefined || body.result?.isError === true) throw new Error(JSON.stringify(body));
}

async function mrtr(handler: McpHttpHandler, retryOn: McpHttpHandler): Promise<void> {
  const first = await json(await statelessCall(handler, 'confirm'));
  const second = await json(await statelessCall(retryOn, 'confirm', { requestState: first.result.requestState, inputResponses: { ok: { action: 'accept', content: { ok: true } } } }));
  if (second.result?.resultType !== 'complete') throw new Error(JSON.stringify(second));
}

const cases: Case[] = [
  { name: 'stateful call, same replica', memory: () => expectOk(statefulCall(memory, memorySession, 'echo')), redis: () => expectOk(statefulCall(a, sharedSession, 'echo')) },
  { name: 'stateful call, alternating replicas', redis: (i) => expectOk(statefulCall(i % 2 === 0 ? a : b, hopSession, 'echo')) },
  { name: 'stateful call + GET-stream notification', memory: () => expectOk(statefulCall(memory, memorySession, 'notify')), redis: (i) => expectOk(statefulCall(i % 2 === 0 ? a : b, streamSession, 'notify')) },
  // The call and its answer on different replicas: the answer is relayed to the one awaiting it.
  { name: 'stateful call + sampling answer relayed', memory: () => sampledCall(memory, memory, memorySampling), redis: (i) => (i % 2 === 0 ? sampledCall(a, b, relaySession) : sampledCall(b, a, relaySession)) },
  { name: '2026-07-28 call', memory: () => expectOk(statelessCall(memory, 'echo')), redis: (i) => expectOk(statelessCall(i % 2 === 0 ? a : b, 'echo')) },
  { name: '2026-07-28 MRTR (2 requests)', memory: () => mrtr(memory, memory), redis: (i) => (i % 2 === 0 ? mrtr(a, b) : mrtr(b, a)) },
  { name: '2026-07-28 task: create + poll', memory: () => task(memory, memory), redis: (i) => (i % 2 === 0 ? task(a, b) : task(b, a)) },
];

const f = (n: number | undefined, digits = 0) => (n === undefined ? '   n/a' : n.toFixed(digits).padStart(6));
console.log(`node ${process.version}, ${ROUNDS} rounds (medians) of ${CALLS} sequential calls per case after ${WARM_UP} warm-up, Fetch core in process, redis-server on loopback`);
console.log(`${'case'.padEnd(42)} ${'store'.padEnd(9)} ${'cmds/call'.padStart(9)} ${'CPU µs'.padStart(7)} ${'redis µs'.padStart(8)} ${'p50 µs'.padStart(7)} ${'p99 µs'.padStart(7)}`);
const overheads: { name: string; cpu: number; redisCpu: number | undefined; commands: number }[] = [];
function medianOf(runs: readonly Measured[]): Measured {
  const pick = (key: keyof Measured): number | undefined => {
    const values = runs.map((run) => run[key]).filter((value): value is number => value !== undefined).sort((x, y) => x - y);
    return values.length === 0 ? undefined : values[Math.floor(values.length / 2)];
  };
  return { commands: pick('commands')!, cpu: pick('cpu')!, redisCpu: pick('redisCpu'), p50: pick('p50')!, p99: pick('p99')! };
}

for (const c of cases) {
  const memoryRuns: Measured[] = [];
  const redisRuns: Measured[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (c.memory !== undefined) memoryRuns.push(await measure(undefined, undefined, c.memory));
    redisRuns.push(await measure(shared, redisServer.pid, c.redis));
  }
  const base = c.memory === undefined ? undefined : medianOf(memoryRuns);
  const withRedis = medianOf(redisRuns);
  if (base !== undefined) console.log(`${c.name.padEnd(42)} ${'memory'.padEnd(9)} ${f(0, 1).padStart(9)} ${f(base.cpu).padStart(7)} ${'-'.padStart(8)} ${f(base.p50).padStart(7)} ${f(base.p99).padStart(7)}`);
  console.log(`${c.name.padEnd(42)} ${'redis'.padEnd(9)} ${f(withRedis.commands, 1).padStart(9)} ${f(withRedis.cpu).padStart(7)} ${f(withRedis.redisCpu).padStart(8)} ${f(withRedis.p50).padStart(7)} ${f(withRedis.p99).padStart(7)}`);
  const reference = base ?? undefined;
  if (reference !== undefined) overheads.push({ name: c.name, cpu: withRedis.cpu - reference.cpu, redisCpu: withRedis.redisCpu, commands: withRedis.commands });
}
console.log(`GET-stream notifications delivered: ${delivered}`);
console.log('\nDerived scaling (2 cores here, so not raced): a replica spends the in-memory CPU per call plus the overhead');
console.log('below; Redis (single-threaded) spends its own CPU per call, which caps the cluster at ~1e6/redis µs calls/s.');
for (const o of overheads) {
  const cap = o.redisCpu === undefined || o.redisCpu <= 0 ? 'n/a' : `${Math.round(1e6 / o.redisCpu).toLocaleString('en-US')} calls/s`;
  console.log(`  ${o.name.padEnd(40)} +${o.cpu.toFixed(0)} CPU µs/call on the replica, ${o.commands.toFixed(1)} round trips, Redis cap ${cap}`);
}

reader.cancel().catch(() => undefined);
memoryReader.cancel().catch(() => undefined);
await Promise.all([a.close(), b.close(), memory.close()]);
await shared.close();
redisServer.stop();
