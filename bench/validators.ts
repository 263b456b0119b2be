/**
 * Throughput of the generated validators: `npx tsx bench/validators.ts`.
 *
 * For each case: a short warm-up, then 5 timed runs of at least 0.5 s each; prints the median
 * ops/s (and the spread of the 5 runs). Every case checks first that the validator gives the
 * expected answer, so a broken validator cannot produce a fast number.
 */
import type { Validator } from '../generated/contract.js';
import * as stateful from '../generated/2025-11-25/index.js';
import * as stateless from '../generated/2026-07-28/index.js';
import { payload } from './lib/payloads.js';

const RUNS = 5;
const MIN_RUN_NS = 500_000_000n;
const WARM_UP_NS = 200_000_000n;
const BATCH = 1_000;

interface Case {
  readonly name: string;
  readonly validate: Validator;
  readonly value: unknown;
}

// The same payloads the validation scenario of `make bench` uses.
const call = payload('CallToolRequest') as { params: Record<string, unknown> };
const { tools } = payload('ListToolsResult (100 tools)') as { tools: unknown[] };
const meta2026 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench-client', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const CASES: readonly Case[] = [
  { name: '2025-11-25 CallToolRequest', validate: stateful.validateCallToolRequest, value: call },
  { name: '2025-11-25 ListToolsResult (100 tools)', validate: stateful.validateListToolsResult, value: { tools } },
  { name: '2026-07-28 CallToolRequest', validate: stateless.validateCallToolRequest, value: { ...call, params: { ...call.params, _meta: meta2026 } } },
  {
    name: '2026-07-28 ListToolsResult (100 tools)',
    validate: stateless.validateListToolsResult,
    value: { resultType: 'complete', tools, ttlMs: 60_000, cacheScope: 'public' },
  },
];

/** Calls `validate` in batches until `minNs` has passed; returns ops/s. */
function timeRun(validate: Validator, value: unknown, minNs: bigint): number {
  let calls = 0;
  let accepted = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < minNs) {
    for (let i = 0; i < BATCH; i++) if (validate(value)) accepted++;
    calls += BATCH;
    elapsed = process.hrtime.bigint() - start;
  }
  if (accepted !== calls) throw new Error('validator rejected the benchmark value mid-run');
  return calls / (Number(elapsed) / 1e9);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const format = (n: number) => Math.round(n).toLocaleString('en-US');

console.log(`node ${process.version}, ${RUNS} runs of >= ${Number(MIN_RUN_NS) / 1e9} s per case, median ops/s`);
for (const c of CASES) {
  if (!c.validate(c.value)) throw new Error(`${c.name}: the benchmark value is invalid: ${JSON.stringify(c.validate.errors)}`);
  timeRun(c.validate, c.value, WARM_UP_NS);
  const runs = Array.from({ length: RUNS }, () => timeRun(c.validate, c.value, MIN_RUN_NS));
  console.log(`${c.name.padEnd(40)} ${format(median(runs)).padStart(12)} ops/s   (runs: ${runs.map(format).join(', ')})`);
}
