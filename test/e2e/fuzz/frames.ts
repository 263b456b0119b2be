/**
 * Hostile JSON-RPC input for the fuzz suites: frames a peer may send (well-formed requests with
 * random params, wrong versions and id types, garbage text, invalid UTF-8, non-object JSON,
 * batches), each with what a correct server owes it: one answer per request with a usable id.
 * Runs are seeded (`FUZZ_SEED`, default 20261202) and a few seconds long in CI;
 * `FUZZ_RUNS=5000 npx vitest run test/e2e/fuzz` runs longer.
 */
import fc from 'fast-check';
import { ErrorCodes } from '../../../runtime/index.js';

export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_261_202);
/** Runs of a property: `FUZZ_RUNS` when set (a longer opt-in run), else the suite's CI default. */
export function fuzzRuns(ciDefault: number): number {
  return Number(process.env.FUZZ_RUNS ?? ciDefault);
}

/** Methods worth aiming at: real ones (long-lived and cancelling ones left out, since they owe no prompt answer) and near misses. */
const METHODS = [
  'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/read', 'resources/templates/list', 'prompts/list', 'prompts/get',
  'completion/complete', 'logging/setLevel', 'initialize', 'server/discover', 'notifications/initialized', 'Tools/List', 'tools/call/', '',
];
/** Tools of the hostile fixture that answer at once (those that ask the user or nest on request are left out). */
const TOOLS = ['echo', 'keys', 'bigint', 'cycle', 'nope', ''];

/** One frame to send, and the id the server must answer exactly once (undefined: owes no answer with a known id). */
export interface Frame {
  readonly bytes: Buffer;
  readonly owed: readonly (string | number)[];
}

const meta = fc.oneof(
  fc.constant(undefined),
  fc.record({ 'io.modelcontextprotocol/protocolVersion': fc.constantFrom('2026-07-28', '2025-11-25', 'nope', 7 as unknown as string) }, { requiredKeys: [] }),
  fc.jsonValue({ maxDepth: 2 }),
);

const params = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 4 }),
  fc.record(
    {
      name: fc.oneof(fc.constantFrom(...TOOLS), fc.string()),
      uri: fc.oneof(fc.webUrl(), fc.string()),
      arguments: fc.jsonValue({ maxDepth: 4 }),
      level: fc.constantFrom('debug', 'info', 'loud'),
      _meta: meta,
    },
    { requiredKeys: [] },
  ),
);

type Shape = { kind: 'request'; method: string; params: unknown; idType: 'number' | 'string' | 'fraction' | 'bad' | 'none'; badId: unknown; version: unknown; junk: Record<string, unknown> }
  | { kind: 'garbage'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'scalar'; value: unknown };

const request = fc.record({
  kind: fc.constant('request' as const),
  method: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: fc.string() }),
  params,
  idType: fc.constantFrom('number', 'number', 'string', 'fraction', 'bad', 'none'),
  badId: fc.constantFrom(null, {}, [], true),
  version: fc.constantFrom('2.0', '2.0', '2.0', '1.0', 2),
  junk: fc.dictionary(fc.constantFrom('result', 'error', 'extra', '__proto__'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 1 }),
});

const shape: fc.Arbitrary<Shape> = fc.oneof(
  { weight: 8, arbitrary: request },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('garbage' as const), text: fc.string({ maxLength: 40 }).map((text) => text.replace(/\n/g, ' ')) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bytes' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 24 }).map((bytes) => bytes.map((byte) => (byte === 0x0a ? 0xff : byte))) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('scalar' as const), value: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.constant([])) }) },
);

/** A sequence of shapes, turned into frames with ids unique across the whole run. */
export const shapes = fc.array(shape, { minLength: 1, maxLength: 25 });

let counter = 0;

/** The frame of a shape; requests get a fresh id (a number or a string) unless their id is meant to be bad or absent. */
export function frameOf(item: Shape): Frame {
  switch (item.kind) {
    case 'garbage':
      return { bytes: Buffer.from(`{${item.text}`), owed: [] };
    case 'bytes':
      return { bytes: Buffer.from(item.bytes), owed: [] };
    case 'scalar':
      return { bytes: Buffer.from(JSON.stringify(item.value)), owed: [] };
    default: {
      counter += 1;
      const id = item.idType === 'number' ? 1_000_000 + counter : item.idType === 'fraction' ? counter + 0.5 : item.idType === 'string' ? `fuzz-${counter}` : item.badId;
      const message: Record<string, unknown> = { ...item.junk, jsonrpc: item.version, method: item.method };
      if (item.idType !== 'none') message.id = id;
      if (item.params !== undefined) message.params = item.params;
      // A request with a readable id is owed an answer, whatever else is wrong with it (a
      // fractional id, which MCP does not allow, is still readable: it is refused by id).
      const owed = item.idType === 'bad' || item.idType === 'none' ? [] : [id as string | number];
      return { bytes: Buffer.from(JSON.stringify(message)), owed };
    }
  }
}

/** Error codes a server may answer hostile input with: the protocol's own, from the generated table. */
export const ALLOWED_CODES: ReadonlySet<number> = new Set(Object.values(ErrorCodes));
