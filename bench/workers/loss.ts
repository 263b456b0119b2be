// Worker: the loss runs against mcpgen's HTTP server (workers/loss-server.ts), with a raw
// JSON-RPC client (lib/raw-http.ts) so that every message of every response is counted.
// - `requests`: `requests` tools/call echoes spread over `connections` keep-alive connections
//   and as many sessions, all issued at once; each must be answered exactly once, with its own
//   text. 429/503 refusals are counted apart, must carry Retry-After, and are retried.
// - `streams`: `streams` tools/call POSTs at once, spread over `sessions` sessions, each
//   answered over SSE with progress 0..steps then its result; the server holds every stream
//   open until all are, so they are provably concurrent. Each must receive all its messages,
//   in order, once.
// Both then ask the server for its stats: nothing may be left pending, and the server must have
// run each request exactly once. Prints the counts; the scenario fails on any loss.
import { Agent } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { firstJsonLine, spawnNode, stopChild } from '../lib/child.js';
import { LatencyRecorder } from '../lib/latency.js';
import { loadMcpgenRevision } from '../lib/mcpgen-dist.js';
import { harnessScript } from '../lib/paths.js';
import { peakRssBytes } from '../lib/proc-memory.js';
import { rawPost, responseId, type RawReply } from '../lib/raw-http.js';
import { runWorker, workerArgs } from '../lib/worker.js';
import type { StreamOutcome } from './loss-server.js';

/** `deadlineMs`: when the run must be over; what is unanswered then is aborted and counted lost. */
type Args = { readonly deadlineMs: number } & (
  | { readonly kind: 'requests'; readonly requests: number; readonly connections: number; readonly retries: number }
  | { readonly kind: 'streams'; readonly streams: number; readonly sessions: number; readonly steps: number; readonly barrierMs: number }
);

/** Counts every run reports; `lost`, `duplicated`, `wrong`, `stray`, `failed` and `leftPending` must all be 0. */
export interface LossCounts {
  readonly sent: number;
  readonly answered: number;
  /** Requests without an answer (or a stream missing any of its messages). */
  readonly lost: number;
  /** Requests answered (or progress messages received) more than once. */
  readonly duplicated: number;
  /** Answers with another request's content, an error, or progress out of order. */
  readonly wrong: number;
  /** Responses or progress for no request of this run. */
  readonly stray: number;
  /** POSTs that failed outright: an HTTP error other than a retried refusal, a reset connection. */
  readonly failed: number;
  /** Requests the server still counts as pending after the run, and SSE responses it holds open. */
  readonly leftPending: number;
  /** Times the server's handlers ran, which must equal `sent`. */
  readonly executed: number;
}

export interface LossResult extends LossCounts {
  readonly seconds: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** 429 and 503 refusals (each retried after its Retry-After), and those without the header. */
  readonly refusals: number;
  readonly refusalsWithoutRetryAfter: number;
  readonly connectionsUsed: number;
  /**
   * Most streams open at once as the client saw them (streams run only): a stream may end before
   * the client has read the first event of the last one, so this can fall short of `sent`.
   */
  readonly peakOpenStreams: number;
  /** Streams whose handler was let go before all `sent` were open (the server's count; must be 0). */
  readonly notTogether: number;
  readonly serverPeakRssBytes: number | null;
  readonly firstProblem: string | undefined;
}

interface ServerStats {
  readonly stats: { readonly pendingRequests: number; readonly connections: number };
  readonly seen: { readonly echo: number; readonly streamsAnswered: number; readonly barrierTimedOut: boolean };
}

const args = workerArgs<Args>();
const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

runWorker(async () => {
  const { revision } = await loadMcpgenRevision();
  const server = spawnNode(harnessScript('workers/loss-server.js'), { barrierMs: args.kind === 'streams' ? args.barrierMs : 0 });
  try {
    const { port } = await firstJsonLine<{ port: number }>(server, 30_000);
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    const agent = new Agent({ keepAlive: true, maxSockets: args.kind === 'requests' ? args.connections : Infinity });
    const deadline = new AbortController();
    const deadlineTimer = setTimeout(() => deadline.abort(), args.deadlineMs);
    const sockets = new Set<Socket>();
    const onsocket = (socket: Socket): void => {
      sockets.add(socket);
    };
    let problem: string | undefined;
    const note = (what: string): void => {
      problem ??= what;
    };
    let refusals = 0;
    let refusalsWithoutRetryAfter = 0;
    let failed = 0;
    // Refusals carry Retry-After (seconds) and are retried after it; anything else is a failure.
    const post = async (body: unknown, sessionId: string | undefined, onmessage?: (message: unknown) => void): Promise<RawReply | undefined> => {
      const retries = args.kind === 'requests' ? args.retries : 0;
      for (let attempt = 0; ; attempt++) {
        let reply: RawReply;
        try {
          reply = await rawPost({ agent, url, body, sessionId, protocolVersion: sessionId === undefined ? undefined : revision, onmessage, onsocket, signal: deadline.signal });
        } catch (error) {
          failed++;
          note(`POST failed: ${(error as Error).message}`);
          return undefined;
        }
        if ((reply.status === 429 || reply.status === 503) && attempt < retries) {
          refusals++;
          const after = Number(reply.headers['retry-after']);
          if (!Number.isFinite(after)) refusalsWithoutRetryAfter++;
          await wait(1000 * (Number.isFinite(after) ? after : 1));
          continue;
        }
        if (reply.status !== 200 && reply.status !== 202) {
          failed++;
          note(`HTTP ${reply.status}: ${JSON.stringify(reply.messages[0] ?? null)}`);
          return undefined;
        }
        return reply;
      }
    };
    const sessionCount = args.kind === 'requests' ? args.connections : args.sessions;
    const sessions = await Promise.all(
      Array.from({ length: sessionCount }, async (_, index) => {
        const reply = await post(
          { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: `loss-${index}`, version: '1.0.0' } } },
          undefined,
        );
        const id = reply?.headers['mcp-session-id'];
        if (typeof id !== 'string') throw new Error(`initialize ${index} got no session id`);
        await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, id);
        return id;
      }),
    );

    const sent = args.kind === 'requests' ? args.requests : args.streams;
    const answers = new Uint32Array(sent);
    const latencies = new LatencyRecorder();
    let wrong = 0;
    let stray = 0;
    let duplicated = 0;
    let open = 0;
    let peakOpenStreams = 0;
    let notTogether = 0;
    const indexOf = (id: unknown): number | undefined => (typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= sent ? id - 1 : undefined);
    const answer = (message: unknown, expected: (text: string, index: number) => boolean): void => {
      const index = indexOf(responseId(message));
      if (index === undefined) {
        stray++;
        note(`stray message ${JSON.stringify(message).slice(0, 200)}`);
        return;
      }
      answers[index] = answers[index]! + 1;
      const text = ((message as { result?: { content?: { text?: unknown }[] } }).result?.content?.[0]?.text ?? null) as string | null;
      if (text === null || !expected(text, index)) {
        wrong++;
        note(`request ${index + 1} answered ${JSON.stringify(message).slice(0, 200)}`);
      }
    };

    const start = performance.now();
    if (args.kind === 'requests') {
      await Promise.all(
        Array.from({ length: sent }, async (_, index) => {
          const before = performance.now();
          const reply = await post(
            { jsonrpc: '2.0', id: index + 1, method: 'tools/call', params: { name: 'echo', arguments: { text: `request ${index + 1}` } } },
            sessions[index % sessions.length],
          );
          if (reply === undefined) return;
          latencies.record(performance.now() - before);
          for (const message of reply.messages) answer(message, (text) => text === `request ${index + 1}`);
        }),
      );
    } else {
      const { steps } = args;
      const progress = new Int32Array(sent).fill(-1);
      await Promise.all(
        Array.from({ length: sent }, async (_, index) => {
          const before = performance.now();
          let opened = false;
          const onmessage = (message: unknown): void => {
            if (!opened) {
              opened = true;
              peakOpenStreams = Math.max(peakOpenStreams, ++open);
            }
            const frame = message as { method?: unknown; params?: { progressToken?: unknown; progress?: unknown } };
            if (frame.method !== 'notifications/progress') return;
            const of = indexOf(frame.params?.progressToken);
            if (of !== index) {
              stray++;
              note(`stream ${index + 1} got progress of ${String(frame.params?.progressToken)}`);
              return;
            }
            const value = Number(frame.params?.progress);
            if (value === progress[index]) duplicated++;
            else if (value !== progress[index]! + 1) {
              wrong++;
              note(`stream ${index + 1}: progress ${value} after ${progress[index]}`);
            }
            progress[index] = Math.max(progress[index]!, value);
          };
          const reply = await post(
            { jsonrpc: '2.0', id: index + 1, method: 'tools/call', params: { name: 'stream', arguments: { steps, together: sent }, _meta: { progressToken: index + 1 } } },
            sessions[index % sessions.length],
            onmessage,
          );
          if (opened) open--;
          if (reply === undefined) return;
          latencies.record(performance.now() - before);
          for (const message of reply.messages) {
            if (responseId(message) === undefined) continue;
            answer(message, (text) => {
              const outcome = JSON.parse(text) as StreamOutcome;
              if (outcome.together < sent) notTogether++;
              return outcome.token === index + 1 && outcome.steps === steps && progress[index] === steps;
            });
          }
        }),
      );
    }
    const seconds = (performance.now() - start) / 1000;
    clearTimeout(deadlineTimer);
    if (deadline.signal.aborted) note(`the run was not over after ${args.deadlineMs} ms; what was unanswered then was aborted`);

    let answered = 0;
    let lost = 0;
    for (let index = 0; index < sent; index++) {
      const count = answers[index]!;
      if (count > 0) answered++;
      if (count === 0) lost++;
      if (count > 1) duplicated += count - 1;
    }
    if (lost > 0) note(`${lost} request(s) never answered, the first: ${answers.indexOf(0) + 1}`);
    server.stdin!.write('stats\n');
    const { stats, seen } = await firstJsonLine<ServerStats>(server, 10_000);
    const executed = args.kind === 'requests' ? seen.echo : seen.streamsAnswered;
    if (executed !== sent) note(`the server ran ${executed} handler(s) for ${sent} request(s)`);
    if (seen.barrierTimedOut) note(`not all ${sent} streams were open at once: the server's barrier timed out`);
    const leftPending = stats.pendingRequests + stats.connections;
    if (leftPending > 0) note(`after the run the server holds ${stats.pendingRequests} pending request(s) and ${stats.connections} open stream(s)`);
    agent.destroy();
    const result: LossResult = {
      sent,
      answered,
      lost,
      duplicated,
      wrong,
      stray,
      failed,
      leftPending,
      executed,
      seconds,
      perSecond: sent / seconds,
      p50Ms: latencies.quantileUs(0.5) / 1000,
      p99Ms: latencies.quantileUs(0.99) / 1000,
      refusals,
      refusalsWithoutRetryAfter,
      connectionsUsed: sockets.size,
      peakOpenStreams,
      notTogether,
      serverPeakRssBytes: peakRssBytes(server.pid!),
      firstProblem: problem,
    };
    return result;
  } finally {
    await stopChild(server);
  }
});
