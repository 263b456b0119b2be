/**
 * What the server spends on one stateless-era POST: `npx tsx bench/stateless-http-server.ts`.
 *
 * Sequential 2026-07-28 `tools/call` echo POSTs from an SDK-free keep-alive `node:http` client
 * (the same bytes mcpgen's client sends: the `_meta` envelope and the Mcp-Method / Mcp-Name
 * headers) to a server process per configuration:
 * - `mcpgen`: this checkout's `createMcpNodeServer` in stateless mode, whose factory builds the
 *   README's low-level Server per request, as the comparison harness's server does;
 * - `floor`: plain `node:http` that parses the JSON-RPC request and answers it.
 * Prints the median server CPU µs per POST (from /proc, every thread of the server process)
 * over 5 runs (or `--runs N`) of at least 1 s per configuration, and each configuration's ratio
 * to the floor, run by run. The configurations take turns every 100 POSTs, so that the load of
 * a busy machine falls on all of them alike.
 *
 *   MCPGEN_BASELINE=/path/to/other/checkout npx tsx bench/stateless-http-server.ts
 *
 * adds a "baseline" configuration, that checkout's runtime, measured in the same runs, with
 * each configuration's ratio to it as well (an A/B of a change to the HTTP path).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processCpuMicros } from './lib/cpu.js';
import { numberArgument } from './lib/cli-args.js';
import { median } from './lib/stats.js';

type Config = 'floor' | 'baseline' | 'mcpgen';
const baseline = process.env.MCPGEN_BASELINE;
const CONFIGS: readonly Config[] = ['floor', ...(baseline === undefined ? [] : ['baseline' as const]), 'mcpgen'];

const RUNS = numberArgument('--runs', 5);
const MIN_RUN_MS = numberArgument('--ms', 1_000);
const WARM_UP_CALLS = 3_000;
const BATCH = 100;
const VERSION = '2026-07-28';
const here = path.dirname(fileURLToPath(import.meta.url));

type Mcpgen = typeof import('../runtime/index.js');
type McpgenNode = typeof import('../runtime/node.js');

/** Serves on a loopback port and prints it: mcpgen from `runtime`, or the floor. */
async function serve(config: Config): Promise<void> {
  if (config === 'floor') {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; params: { arguments: { text: string } } };
        const reply = { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: message.params.arguments.text }] } };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.stdout.write(`${(server.address() as { port: number }).port}\n`);
    return;
  }
  const runtime = path.join(config === 'baseline' ? baseline! : path.join(here, '..'), 'runtime');
  const { Server } = (await import(path.join(runtime, 'index.js'))) as Mcpgen;
  const { createMcpNodeServer } = (await import(path.join(runtime, 'node.js'))) as McpgenNode;
  const server = createMcpNodeServer({
    sessions: false,
    path: '/mcp',
    server: () => {
      const echo = new Server({ name: 'bench-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
      echo.setRequestHandler('tools/call', (params) => ({ content: [{ type: 'text', text: String(params.arguments?.text ?? '') }] }));
      return echo;
    },
  });
  process.stdout.write(`${(await server.listen(0)).port}\n`);
}

interface Target {
  readonly child: ChildProcess;
  readonly port: number;
  readonly agent: Agent;
}

async function start(config: Config): Promise<Target> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', config], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (data: Buffer) => resolve(Number(String(data).trim())));
    child.once('exit', (code) => reject(new Error(`the ${config} server exited (${String(code)})`)));
  });
  return { child, port, agent: new Agent({ keepAlive: true, maxSockets: 1 }) };
}

/** One POST, checked: the echo comes back with a 200. */
function call(target: Target, id: number): Promise<void> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'echo',
      arguments: { text: 'ping' },
      _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' } },
    },
  });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port: target.port, path: '/mcp', method: 'POST', agent: target.agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode === 200 && text.includes('"ping"')) resolve();
        else reject(new Error(`HTTP ${String(response.statusCode)}: ${text}`));
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Server CPU µs per POST of each configuration over one run, taking turns batch by batch. */
async function timedRun(targets: ReadonlyMap<Config, Target>, order: readonly Config[]): Promise<Map<Config, number>> {
  const cpu = new Map<Config, number>(order.map((config) => [config, 0]));
  let batches = 0;
  const started = performance.now();
  while (performance.now() - started < MIN_RUN_MS * order.length) {
    for (const config of order) {
      const target = targets.get(config)!;
      const before = processCpuMicros(target.child.pid!)!;
      for (let i = 0; i < BATCH; i++) await call(target, i);
      cpu.set(config, cpu.get(config)! + processCpuMicros(target.child.pid!)! - before);
    }
    batches++;
  }
  return new Map([...cpu].map(([config, micros]) => [config, micros / (batches * BATCH)]));
}

async function main(): Promise<void> {
  console.log(`stateless-http-server: ${baseline === undefined ? '' : `baseline ${baseline}, `}load average ${loadavg().map((load) => load.toFixed(2)).join(' ')}`);
  const targets = new Map<Config, Target>();
  for (const config of CONFIGS) {
    const target = await start(config);
    for (let i = 0; i < WARM_UP_CALLS; i++) await call(target, i);
    targets.set(config, target);
  }
  const perCall = new Map<Config, number[]>(CONFIGS.map((config) => [config, []]));
  for (let run = 0; run < RUNS; run++) {
    const measured = await timedRun(targets, run % 2 === 0 ? CONFIGS : [...CONFIGS].reverse());
    for (const [config, micros] of measured) perCall.get(config)!.push(micros);
  }
  for (const target of targets.values()) {
    target.agent.destroy();
    target.child.kill();
  }
  const ratioTo = (values: readonly number[], reference: Config): string => {
    const base = perCall.get(reference);
    if (base === undefined) return '';
    const ratios = values.map((value, run) => value / base[run]!);
    return `  ×${median(ratios).toFixed(2)} of ${reference} [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}]`;
  };
  for (const config of CONFIGS) {
    const values = perCall.get(config)!;
    const versus = config === 'floor' ? '' : `${ratioTo(values, 'floor')}${config === 'mcpgen' ? ratioTo(values, 'baseline') : ''}`;
    console.log(`${config.padEnd(9)} ${median(values).toFixed(1).padStart(7)} µs server CPU per POST${versus}`);
  }
}

const serving = process.argv.indexOf('--serve');
if (serving !== -1) await serve(process.argv[serving + 1] as Config);
else await main();
