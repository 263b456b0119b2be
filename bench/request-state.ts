/**
 * Throughput of the MRTR request-state codec: `npx tsx bench/request-state.ts`.
 *
 * Each case seals a state and opens it again (one server round as the codec sees it), signed and
 * encrypted, with a small and a larger state, one pair at a time and 16 at once; a floor line
 * gives the bare WebCrypto operations on the same bytes with a ready key. A short warm-up (which
 * also imports the keys), then 5 timed runs of at least 0.5 s each; prints the median per second,
 * the median CPU µs per operation (all threads of the process, so it includes WebCrypto's thread
 * pool and holds up better than wall-clock rates on a busy machine) and the spread. Every opened
 * state is checked, so a broken codec cannot produce a fast number.
 */
import { ownCpuMicros } from './lib/cpu.js';
import { createRequestStateBinding, digestArguments, RequestStateCodec, type RequestStateBinding } from '../runtime/era/request-state.js';

const RUNS = 5;
const MIN_RUN_NS = 500_000_000n;
const WARM_UP_NS = 200_000_000n;

interface Case {
  readonly name: string;
  readonly codec: RequestStateCodec;
  readonly encrypt: boolean;
  readonly answers: Record<string, unknown>;
}

/** One timed run: operations per second and CPU µs per operation. */
interface Run {
  readonly rate: number;
  readonly cpu: number;
}

const keys = [{ id: 'k2', secret: crypto.getRandomValues(new Uint8Array(32)) }, { id: 'k1', secret: crypto.getRandomValues(new Uint8Array(32)) }];
const signed = new RequestStateCodec({ keys });
const encrypted = new RequestStateCodec({ keys, encrypt: true });

// One elicitation answer, as after the first round of a typical tool call.
const small = { github_login: { action: 'accept', content: { name: 'octocat' } } };
// Several answers including a sampling result of about 2 KB.
const large = {
  ...small,
  confirm: { action: 'accept', content: { confirmed: true, reason: 'release window' } },
  summary: { role: 'assistant', content: { type: 'text', text: 'lorem ipsum '.repeat(170) }, model: 'bench-model', stopReason: 'endTurn' },
  roots: { roots: Array.from({ length: 8 }, (_, i) => ({ uri: `file:///work/project-${i}`, name: `project ${i}` })) },
};

const CASES: readonly Case[] = [
  { name: 'signed, small state', codec: signed, encrypt: false, answers: small },
  { name: 'encrypted, small state', codec: encrypted, encrypt: true, answers: small },
  { name: 'signed, ~2.5 KB state', codec: signed, encrypt: false, answers: large },
  { name: 'encrypted, ~2.5 KB state', codec: encrypted, encrypt: true, answers: large },
];

/** Runs `batch` (which performs `size` operations) until `minNs` has passed. */
async function timeRun(batch: () => Promise<void>, size: number, minNs: bigint): Promise<Run> {
  let ops = 0;
  const cpuStart = ownCpuMicros();
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < minNs) {
    await batch();
    ops += size;
    elapsed = process.hrtime.bigint() - start;
  }
  return { rate: ops / (Number(elapsed) / 1e9), cpu: (ownCpuMicros() - cpuStart) / ops };
}

/** A batch of `inFlight` seal+open pairs running at once (1: one after the other, awaited). */
function pairs(c: Case, binding: RequestStateBinding, inFlight: number): () => Promise<void> {
  const pair = async () => {
    const state = await c.codec.open(await c.codec.seal({ binding, round: 1, answers: c.answers }), binding);
    if (state.round !== 1) throw new Error('the codec returned the wrong state mid-run');
  };
  return async () => {
    await Promise.all(Array.from({ length: inFlight }, pair));
  };
}

/**
 * The floor: the same WebCrypto operations on the same number of bytes with a ready key and no
 * codec (HMAC sign + verify, or AES-GCM encrypt + decrypt). On Node each WebCrypto call hops to
 * the libuv thread pool, which dominates both this and the codec.
 */
async function floor(encrypt: boolean, bytes: number): Promise<() => Promise<void>> {
  const message = new Uint8Array(bytes);
  const secret = crypto.getRandomValues(new Uint8Array(32));
  if (encrypt) {
    const aes = await crypto.subtle.importKey('raw', secret, 'AES-GCM', false, ['encrypt', 'decrypt']);
    return async () => {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, aes, await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, aes, message));
    };
  }
  const hmac = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  return async () => {
    if (!(await crypto.subtle.verify('HMAC', hmac, await crypto.subtle.sign('HMAC', hmac, message), message))) throw new Error('HMAC floor failed to verify');
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const format = (n: number) => Math.round(n).toLocaleString('en-US');

async function report(name: string, unit: string, batch: () => Promise<void>, size: number, extra = ''): Promise<void> {
  await timeRun(batch, size, WARM_UP_NS);
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timeRun(batch, size, MIN_RUN_NS));
  const rates = runs.map((run) => run.rate);
  const cpu = median(runs.map((run) => run.cpu));
  console.log(`${name.padEnd(40)} ${format(median(rates)).padStart(8)} ${unit} ${cpu.toFixed(1).padStart(7)} CPU µs/op${extra}   (runs: ${rates.map(format).join(', ')})`);
}

const args = { repository: 'modelcontextprotocol/typescript-sdk', branch: 'main', dryRun: false, targets: ['staging', 'production'], options: { retries: 3 } };
const binding = await createRequestStateBinding({ method: 'tools/call', target: 'deploy', arguments: args, subject: 'user-42' });

console.log(`node ${process.version}, ${RUNS} runs of >= ${Number(MIN_RUN_NS) / 1e9} s per case, medians; an op is one seal+open pair unless noted`);
for (const c of CASES) {
  const token = await c.codec.seal({ binding, round: 1, answers: c.answers });
  await report(c.name, 'pairs/s', pairs(c, binding, 1), 1, `   token ${token.length} chars`);
  await report(`${c.name}, 16 in flight`, 'pairs/s', pairs(c, binding, 16), 16);
  // The bytes the codec feeds to WebCrypto: the signed text, or the JSON plaintext.
  const bytes = c.encrypt ? Math.floor((token.split('.')[3]!.length * 3) / 4) - 16 : token.lastIndexOf('.');
  await report(`  floor: bare WebCrypto, ${bytes} bytes`, 'pairs/s', await floor(c.encrypt, bytes), 1);
}
await report('digestArguments (one op = one call)', 'calls/s', () => digestArguments(args).then(() => undefined), 1);
