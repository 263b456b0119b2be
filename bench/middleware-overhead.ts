/**
 * What middleware and telemetry cost per call: `npx tsx bench/middleware-overhead.ts`.
 *
 * Echo `tools/call` round trips between a low-level Server and a Client (the `memory` and
 * `stdio` scenarios' programs), sequentially, with nothing registered, with mcpgen/otel's
 * `telemetry()` on both sides and no OpenTelemetry SDK (the API's no-op tracer and meter), and
 * with an empty middleware on both sides. Prints the median CPU µs per call over 5 runs (or
 * `--runs N`) of at least 1 s per configuration (both processes for stdio: the server's CPU
 * from /proc) and each configuration's ratio to the first, run by run. The configurations take
 * turns every 100 calls, so that the load of a busy machine falls on all of them alike.
 *
 *   MCPGEN_BASELINE=/path/to/other/checkout npx tsx bench/middleware-overhead.ts
 *
 * adds a "baseline" configuration: that checkout's runtime (the commit before middleware
 * existed, say) with nothing registered, measured in the same runs as the others, and
 *
 *   MCPGEN_BEFORE=/path/to/earlier/checkout npx tsx bench/middleware-overhead.ts --ms 300 --runs 31
 *
 * adds `before:` configurations, that checkout's runtime with each of the three registrations,
 * for an A/B of a change to the chain or to telemetry within the same runs. `--ms` sets the
 * length of a run per configuration (shorter runs, more of them: a steadier median on a busy
 * machine).
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ownCpuMicros, processCpuMicros } from './lib/cpu.js';
import { numberArgument } from './lib/cli-args.js';
import { median } from './lib/stats.js';

type Registration = 'none' | 'noop-telemetry' | 'empty-middleware';
type Config = 'baseline' | Registration | `before:${Registration}`;
const REGISTRATIONS: readonly Registration[] = ['none', 'noop-telemetry', 'empty-middleware'];
const baseline = process.env.MCPGEN_BASELINE;
const before = process.env.MCPGEN_BEFORE;
const CONFIGS: readonly Config[] = [
  ...(baseline === undefined ? [] : ['baseline' as const]),
  ...REGISTRATIONS.flatMap((registration): Config[] => (before === undefined ? [registration] : [`before:${registration}`, registration])),
];

const RUNS = numberArgument('--runs', 5);
const MIN_RUN_MS = numberArgument('--ms', 1_000);
const WARM_UP_CALLS = 3_000;
const BATCH = 100;

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');

/** The runtime/ folder a configuration loads. */
function runtimeOf(config: Config): string {
  return path.join(config === 'baseline' ? baseline! : config.startsWith('before:') ? before! : root, 'runtime');
}

type Mcpgen = typeof import('../runtime/index.js');
type McpgenNode = typeof import('../runtime/node.js');
type Otel = typeof import('../runtime/features/otel/index.js');
type AnyMiddleware = Parameters<InstanceType<Mcpgen['Client']>['use']>[0];

async function middlewareFor(config: Config): Promise<AnyMiddleware[]> {
  const registration = config.replace(/^before:/, '');
  if (registration === 'none' || registration === 'baseline') return [];
  if (registration === 'empty-middleware') return [{ incoming: (_call, next) => next(), outgoing: (_call, next) => next() }];
  const otel = (await import(path.join(runtimeOf(config), 'features/otel/index.js'))) as Otel;
  return [otel.telemetry()];
}

async function echoServer(config: Config) {
  const { Server } = (await import(path.join(runtimeOf(config), 'index.js'))) as Mcpgen;
  const server = new Server({ name: 'bench-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  for (const middleware of await middlewareFor(config)) server.use(middleware);
  server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] }));
  server.setRequestHandler('tools/call', (params) => ({ content: [{ type: 'text', text: String(params.arguments?.text ?? '') }] }));
  return server;
}

interface Connection {
  call(): Promise<void>;
  /** CPU µs both sides used so far. */
  cpu(): number;
  close(): Promise<void>;
}

async function connect(transport: 'memory' | 'stdio', config: Config): Promise<Connection> {
  const mcpgen = (await import(path.join(runtimeOf(config), 'index.js'))) as Mcpgen;
  const client = new mcpgen.Client({ name: 'bench-client', version: '1.0.0' });
  for (const middleware of await middlewareFor(config)) client.use(middleware);
  let serverPid: number | undefined;
  if (transport === 'memory') {
    const [clientEnd, serverEnd] = mcpgen.createLinkedPair();
    await (await echoServer(config)).connect(serverEnd);
    await client.connect(clientEnd);
  } else {
    const { StdioClientTransport } = (await import(path.join(runtimeOf(config), 'node.js'))) as McpgenNode;
    const stdio = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', config],
      env: { ...(baseline === undefined ? {} : { MCPGEN_BASELINE: baseline }), ...(before === undefined ? {} : { MCPGEN_BEFORE: before }) },
    });
    await client.connect(stdio);
    serverPid = stdio.pid;
  }
  return {
    async call() {
      const result = await client.callTool({ name: 'echo', arguments: { text: 'ping' } });
      if ((result.content[0] as { text?: string } | undefined)?.text !== 'ping') throw new Error('wrong echo');
    },
    cpu: () => ownCpuMicros() + (serverPid === undefined ? 0 : (processCpuMicros(serverPid) ?? Number.NaN)),
    close: () => client.close(),
  };
}

/**
 * CPU µs per call of each connection over one run: batches of BATCH calls, the connections
 * taking turns batch by batch, for at least MIN_RUN_MS per connection. Taking turns this often
 * gives every configuration the same share of whatever else the machine is doing.
 */
async function timedRun(connections: ReadonlyMap<Config, Connection>, order: readonly Config[]): Promise<Map<Config, number>> {
  const cpu = new Map<Config, number>(order.map((config) => [config, 0]));
  let batches = 0;
  const started = performance.now();
  while (performance.now() - started < MIN_RUN_MS * order.length) {
    for (const config of order) {
      const connection = connections.get(config)!;
      const before = connection.cpu();
      for (let i = 0; i < BATCH; i++) await connection.call();
      cpu.set(config, cpu.get(config)! + connection.cpu() - before);
    }
    batches++;
  }
  return new Map([...cpu].map(([config, micros]) => [config, micros / (batches * BATCH)]));
}

async function measure(transport: 'memory' | 'stdio', configs: readonly Config[]): Promise<void> {
  const connections = new Map<Config, Connection>();
  for (const config of configs) {
    const connection = await connect(transport, config);
    for (let i = 0; i < WARM_UP_CALLS; i++) await connection.call();
    connections.set(config, connection);
  }
  const perCall = new Map<Config, number[]>(configs.map((config) => [config, []]));
  for (let run = 0; run < RUNS; run++) {
    const measured = await timedRun(connections, run % 2 === 0 ? configs : [...configs].reverse());
    for (const [config, micros] of measured) perCall.get(config)!.push(micros);
  }
  for (const connection of connections.values()) await connection.close();
  const none = perCall.get('baseline') ?? perCall.get('none');
  for (const config of configs) {
    const values = perCall.get(config)!;
    const ratios = none === undefined ? [] : values.map((value, run) => value / none[run]!);
    const ratio = ratios.length === 0 ? '' : `  ×${median(ratios).toFixed(3)} of ${perCall.has('baseline') ? 'baseline' : 'none'} [${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}]`;
    console.log(`${transport.padEnd(6)} ${config.padEnd(23)} ${median(values).toFixed(1).padStart(7)} µs CPU/call${ratio}`);
  }
}

const serve = process.argv.indexOf('--serve');
if (serve !== -1) {
  const config = process.argv[serve + 1] as Config;
  const { StdioServerTransport } = (await import(path.join(runtimeOf(config), 'node.js'))) as McpgenNode;
  await (await echoServer(config)).connect(new StdioServerTransport());
} else {
  const only = process.argv.indexOf('--only');
  const configs = only === -1 ? CONFIGS : CONFIGS.filter((config) => process.argv[only + 1]!.split(',').includes(config));
  console.log(`middleware-overhead: ${baseline === undefined ? '' : `baseline ${baseline}, `}${before === undefined ? '' : `before ${before}, `}load average ${(await import('node:os')).loadavg().map((load) => load.toFixed(2)).join(' ')}`);
  for (const transport of ['memory', 'stdio'] as const) await measure(transport, configs);
}
