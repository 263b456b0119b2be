/**
 * Fuzzing an McpServer over stdio, as a raw child process, in both eras: seeded runs of hostile
 * frames (see frames.ts), each followed by a ping. Every request with a usable id gets exactly one
 * answer with that id and an allowed error code, input the server cannot tie to a request gets
 * errors with id null only, nothing else comes back, the process stays up, and its memory stays
 * bounded.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED_CODES, frameOf, FUZZ_SEED, fuzzRuns, shapes } from './frames.js';

const FIXTURE = fileURLToPath(new URL('../../runtime/fixtures/mcp-stdio-fixture.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Resident memory the child may reach: far above its ~100 MB at rest, far below what unbounded buffering would take. */
const MAX_RSS_BYTES = 400 * 1024 * 1024;

type Message = { id?: unknown; method?: unknown; error?: { code: number }; result?: unknown };

class FuzzedChild {
  readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  /** Every message the server wrote, in order. */
  readonly messages: Message[] = [];
  private wake: (() => void) | undefined;
  stderr = '';

  constructor() {
    this.child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], { cwd: ROOT, stdio: 'pipe' });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString();
      for (let cut = this.buffer.indexOf('\n'); cut !== -1; cut = this.buffer.indexOf('\n')) {
        const parsed = JSON.parse(this.buffer.slice(0, cut)) as Message | Message[];
        this.buffer = this.buffer.slice(cut + 1);
        this.messages.push(...(Array.isArray(parsed) ? parsed : [parsed]));
      }
      this.wake?.();
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
      this.wake?.();
    });
  }

  /** Resolves once `done()` holds, re-checked on every output; rejects after `ms`. */
  async until(done: () => boolean, what: string, ms = 20_000): Promise<void> {
    const deadline = setTimeout(() => this.wake?.(), ms);
    const started = Date.now();
    try {
      while (!done()) {
        if (Date.now() - started > ms || this.child.exitCode !== null) throw new Error(`${what} (exit ${this.child.exitCode})\n${this.stderr.slice(-2_000)}`);
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      clearTimeout(deadline);
      this.wake = undefined;
    }
  }

  write(bytes: Buffer): void {
    this.child.stdin.write(Buffer.concat([bytes, Buffer.from('\n')]));
  }

  rss(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.stdin.end();
    await once(this.child, 'exit');
  }
}

for (const era of ['2025-11-25', '2026-07-28'] as const) {
  describe(`fuzzing McpServer over stdio (${era})`, () => {
    const server = new FuzzedChild();
    let sentinel = 0;

    beforeAll(async () => {
      await server.until(() => server.stderr.includes('fixture ready'), 'the fixture did not start');
      if (era === '2025-11-25') {
        server.write(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: era, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } })));
        await server.until(() => server.messages.some((message) => message.id === 'init'), 'no initialize answer');
        server.write(Buffer.from('{"jsonrpc":"2.0","method":"notifications/initialized"}'));
      }
    }, 30_000);

    afterAll(() => server.stop());

    it('answers every request with a usable id exactly once, and nothing else', async () => {
      await fc.assert(
        fc.asyncProperty(shapes, async (items) => {
          const start = server.messages.length;
          const frames = items.map(frameOf);
          for (const frame of frames) server.write(frame.bytes);
          sentinel += 1;
          const ping = `sentinel-${sentinel}`;
          const meta = era === '2026-07-28' ? { _meta: { 'io.modelcontextprotocol/protocolVersion': era, 'io.modelcontextprotocol/clientCapabilities': {} } } : {};
          // 2026-07-28 has no ping: its sentinel is a tools/list.
          server.write(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: ping, method: era === '2026-07-28' ? 'tools/list' : 'ping', params: meta })));
          const owed = new Set(frames.flatMap((frame) => frame.owed));
          const answered = (): Message[] => server.messages.slice(start).filter((message) => message.method === undefined);
          await server.until(() => answered().some((message) => message.id === ping) && [...owed].every((id) => answered().some((message) => message.id === id)), `unanswered: ${[...owed].filter((id) => !answered().some((message) => message.id === id)).join(', ')}`);
          const replies = answered();
          for (const id of owed) expect(replies.filter((message) => message.id === id), `answers to ${id}`).toHaveLength(1);
          for (const reply of replies) {
            if (reply.id === ping) continue;
            if (reply.id === null) expect([-32700, -32600]).toContain(reply.error?.code);
            else expect(owed.has(reply.id as string | number), `an answer to ${JSON.stringify(reply.id)}, which nobody asked`).toBe(true);
            if (reply.error !== undefined) expect(ALLOWED_CODES.has(reply.error.code), `code ${reply.error.code}`).toBe(true);
          }
          expect(replies.find((message) => message.id === ping)).toHaveProperty('result');
        }),
        { seed: FUZZ_SEED, numRuns: fuzzRuns(300), endOnFailure: true },
      );
      expect(server.child.exitCode).toBeNull();
      expect(server.rss()).toBeLessThan(MAX_RSS_BYTES);
    }, 120_000);
  });
}
