// Worker: validation throughput of each implementation's own schemas on the same payloads.
// mcpgen: its generated AOT validators; v2: @modelcontextprotocol/core's Zod schemas (the ones
// the SDK validates with); v1: the Zod schemas of @modelcontextprotocol/sdk/types.js; floor:
// ajv compiling the same definitions of the pinned schema at run time.
import { performance } from 'node:perf_hooks';
import { monotonicUs } from '../lib/call-loop.js';
import { loadMcpgenRevision } from '../lib/mcpgen-dist.js';
import { CASE_DEFINITION, payload, VALIDATION_CASES, type ValidationCase } from '../lib/payloads.js';
import type { ImplName } from '../lib/types.js';
import { runWorker, workerArgs } from '../lib/worker.js';

interface Args {
  readonly impl: ImplName;
  readonly durationMs: number;
  readonly warmupMs: number;
}

type Definition = 'CallToolRequest' | 'CallToolResult' | 'ListToolsResult';
type Check = (value: unknown) => boolean;

const args = workerArgs<Args>();

interface SafeParser {
  safeParse(value: unknown): { success: boolean };
}

function fromZod(schemas: Record<`${Definition}Schema`, SafeParser>): Record<Definition, Check> {
  return {
    CallToolRequest: (value) => schemas.CallToolRequestSchema.safeParse(value).success,
    CallToolResult: (value) => schemas.CallToolResultSchema.safeParse(value).success,
    ListToolsResult: (value) => schemas.ListToolsResultSchema.safeParse(value).success,
  };
}

async function checks(impl: ImplName): Promise<Record<Definition, Check>> {
  switch (impl) {
    case 'mcpgen': {
      const revision = await loadMcpgenRevision();
      return {
        CallToolRequest: (value) => revision.validateCallToolRequest(value),
        CallToolResult: (value) => revision.validateCallToolResult(value),
        ListToolsResult: (value) => revision.validateListToolsResult(value),
      };
    }
    case 'v2':
      return fromZod(await import('@modelcontextprotocol/core'));
    case 'v1':
      return fromZod(await import('@modelcontextprotocol/sdk/types.js'));
    case 'floor': {
      const { compileFloorValidators } = await import('../lib/ajv-floor.js');
      return compileFloorValidators(['CallToolRequest', 'CallToolResult', 'ListToolsResult']);
    }
  }
}

const BATCH = 200;

/** Calls `check(value)` in batches for `durationMs`; returns ops/s. */
function opsPerSecond(check: Check, value: unknown, expected: boolean, durationMs: number): number {
  let ops = 0;
  let wrong = 0;
  const start = performance.now();
  const end = start + durationMs;
  let now = start;
  while (now < end) {
    for (let i = 0; i < BATCH; i++) if (check(value) !== expected) wrong++;
    ops += BATCH;
    now = performance.now();
  }
  if (wrong > 0) throw new Error('a validator changed its answer mid-run');
  return ops / ((now - start) / 1000);
}

runWorker(async () => {
  const table = await checks(args.impl);
  const results: Partial<Record<ValidationCase, { opsPerSecond: number } | { error: string }>> = {};
  const startUs = monotonicUs();
  for (const name of VALIDATION_CASES) {
    const { definition, valid } = CASE_DEFINITION[name];
    const check = table[definition];
    const value = payload(name);
    if (check(value) !== valid) {
      results[name] = { error: `${args.impl} ${valid ? 'rejects' : 'accepts'} the ${name} payload` };
      continue;
    }
    opsPerSecond(check, value, valid, args.warmupMs);
    results[name] = { opsPerSecond: opsPerSecond(check, value, valid, args.durationMs) };
  }
  return { ...results, window: { startUs, endUs: monotonicUs() } };
});
