/**
 * `make examples`: runs every story over each transport it supports, a few at a time, and the
 * quickstart clients and the observability example as processes of their own. Exits 1 when any
 * of them fails or hangs.
 *
 *   npx tsx examples/run.ts [story…]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runStory, TRANSPORTS, type Story, type TransportKind } from './shared/harness.js';
import { story as auth } from './auth/client.js';
import { story as dualEra } from './dual-era-http/client.js';
import { story as host } from './host/client.js';
import { story as pinned } from './pinned-revision/client.js';
import { story as progress } from './progress-cancellation/client.js';
import { story as prompts } from './prompts/client.js';
import { story as resources } from './resources/client.js';
import { story as sampling } from './sampling-elicitation/client.js';
import { story as skills } from './skills/client.js';
import { story as tasks } from './tasks/client.js';
import { story as tools } from './tools/client.js';
import { story as websocket } from './websocket/client.js';

const STORIES: readonly Story[] = [tools, resources, prompts, sampling, tasks, progress, dualEra, pinned, auth, host, skills, websocket];
const CONCURRENCY = 3;
const TIMEOUT_MS = 60_000;
const ROOT = fileURLToPath(new URL('../', import.meta.url));

interface Job {
  readonly label: string;
  readonly run: () => Promise<void>;
}

/**
 * Runs `node --import tsx <file> <args…>` from the repository root (the quickstart and the
 * observability example are plain scripts); resolves when it exits 0.
 */
function script(file: string, args: readonly string[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`exited with ${signal ?? code}`))));
  });
}

/** The quickstart server over HTTP on a free port, with the HTTP client run against the URL it prints. */
async function quickstartHttp(): Promise<void> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'examples/quickstart/server.ts', '--http'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [line] = (await once(createInterface({ input: server.stdout }), 'line')) as [string];
    await script('examples/quickstart/http-client.ts', [line.slice(line.indexOf('http'))]);
  } finally {
    server.kill('SIGTERM');
  }
}

function withTimeout(label: string, work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} did not finish within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const selected = process.argv.slice(2);
const jobs: Job[] = [];
if (selected.length === 0 || selected.includes('quickstart')) {
  jobs.push({ label: 'quickstart over stdio', run: () => script('examples/quickstart/client.ts') });
  jobs.push({ label: 'quickstart over http', run: quickstartHttp });
}
if (selected.length === 0 || selected.includes('observability')) {
  for (const era of ['2025-11-25', '2026-07-28']) jobs.push({ label: `observability in memory, ${era}`, run: () => script('examples/observability/trace.ts', [era]) });
}
for (const story of STORIES) {
  if (selected.length > 0 && !selected.includes(story.name)) continue;
  for (const transport of story.transports ?? TRANSPORTS) jobs.push({ label: `${story.name} over ${transport}`, run: () => runStory(story, transport as TransportKind) });
}

const started = performance.now();
const failures: string[] = [];
let next = 0;
async function worker(): Promise<void> {
  while (next < jobs.length) {
    const job = jobs[next++]!;
    const jobStarted = performance.now();
    try {
      await withTimeout(job.label, job.run());
      console.log(`✓ ${job.label} (${Math.round(performance.now() - jobStarted)} ms)`);
    } catch (error) {
      failures.push(job.label);
      console.error(`✗ ${job.label}:`, error);
    }
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, () => worker()));

const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (failures.length > 0) {
  console.error(`examples: ${failures.length} of ${jobs.length} failed in ${seconds} s: ${failures.join(', ')}`);
  process.exit(1);
}
console.log(`examples: all ${jobs.length} passed in ${seconds} s`);
// Child processes and sockets are closed; exit without waiting for stray timers of failed runs.
process.exit(0);
