import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { getEventListeners, setMaxListeners } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProtocolError, SdkError } from '../../../../runtime/core/errors.js';
import { ConnectionManager, type ConnectionManagerOptions } from '../../../../runtime/features/host/manager.js';
import type { ServerConfig } from '../../../../runtime/features/host/config.js';
import { Limiter } from '../../../../runtime/features/host/limiter.js';
import type { UrlElicitationPrompt } from '../../../../runtime/features/host/url-elicitation.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/host-server.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'mcpgen-host-manager-'));

const fixture = (mode = 'normal'): ServerConfig => ({ type: 'stdio', command: process.execPath, args: ['--import', 'tsx', FIXTURE, mode], cwd: ROOT });

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

function timeouts(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

const prompts: UrlElicitationPrompt[] = [];
let answer = true;
const stderrSeen = new Map<string, number>();
let manager: ConnectionManager;

beforeAll(async () => {
  const options: ConnectionManagerOptions = {
    connectTimeoutMs: 20_000,
    stderrCapacity: 8_192,
    closeTimeoutMs: 200,
    killTimeoutMs: 500,
    onUrlElicitation: (prompt) => {
      prompts.push(prompt);
      return answer;
    },
    onstderr: (server, chunk) => stderrSeen.set(server, (stderrSeen.get(server) ?? 0) + chunk.length),
    rejected: new Map([['misconfigured', { severity: 'error', file: '/x/.mcp.json', server: 'misconfigured', path: '$.mcpServers.misconfigured.url', message: 'must be a string' }]]),
  };
  manager = new ConnectionManager({
    alpha: fixture(),
    'beta.x': fixture(),
    crashy: fixture(),
    flood: fixture('flood'),
    missing: { type: 'stdio', command: path.join(scratch, 'no-such-binary') },
    off: { ...fixture(), disabled: true },
  }, options);
  await manager.connectAll();
}, 40_000);

afterAll(async () => {
  await manager.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('ConnectionManager with local servers', () => {
  it('connects every server concurrently; failures are statuses that do not affect the others', async () => {
    const states = Object.fromEntries(Object.entries(manager.statuses()).map(([name, status]) => [name, status.state]));
    expect(states).toEqual({ alpha: 'connected', 'beta.x': 'connected', crashy: 'connected', flood: 'connected', missing: 'failed', misconfigured: 'failed', off: 'disabled' });
    expect(manager.status('missing').reason).toMatch(/^Cannot start .*no-such-binary: spawn .* ENOENT/);
    expect(manager.status('misconfigured').reason).toBe('invalid configuration at $.mcpServers.misconfigured.url in /x/.mcp.json: must be a string');
    expect(manager.status('alpha')).toMatchObject({ transport: 'stdio', protocolVersion: expect.stringMatching(/^20\d\d-/), serverInfo: { name: 'host-fixture', version: '1.0.0' } });
  });

  it("fails a server that never answers initialize after its own connectTimeoutMs, not the default, then ends it", async () => {
    // Fake timeouts: the 1.5 s deadline passes in no wall-clock time. The child is real, and
    // announces its pid on stderr (a shell does so at once, then becomes the sleep to end).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let pid: number | undefined;
    try {
      let announce: (pid: number) => void = () => undefined;
      const started = new Promise<number>((resolve) => (announce = resolve));
      const hanging = new ConnectionManager(
        { hang: { type: 'stdio', command: 'sh', args: ['-c', 'echo $$ >&2; exec sleep 600'], connectTimeoutMs: 1_500 } },
        { connectTimeoutMs: 20_000, closeTimeoutMs: 200, killTimeoutMs: 500, onstderr: (_server, chunk) => announce(Number(chunk.trim())) },
      );
      const connecting = hanging.connectAll();
      pid = await started;
      await vi.advanceTimersByTimeAsync(1_499);
      expect(hanging.status('hang').state).toBe('connecting');
      await vi.advanceTimersByTimeAsync(1);
      expect(hanging.status('hang')).toMatchObject({ state: 'failed', reason: `connecting to hang timed out after 1500 ms; stderr: ${String(pid)}` });
      await connecting;
      // Its status came first; the process is ended right after, through the close timeouts.
      const passTime = async (): Promise<void> => {
        await vi.advanceTimersByTimeAsync(10);
        // A turn of the event loop, so the child's exit can come in between the timeouts.
        await new Promise((resolve) => setImmediate(resolve));
      };
      while (running(pid)) await passTime();
      let closed = false;
      const closing = hanging.close().then(() => (closed = true));
      while (!closed) await passTime();
      await closing;
    } finally {
      vi.useRealTimers();
      // A failed run leaves no sleeping child behind.
      if (pid !== undefined && running(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('names tools mcp__<server>__<tool> and routes calls by that name', async () => {
    const tools = await manager.tools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('mcp__alpha__echo');
    const beta = tools.find((tool) => tool.server === 'beta.x' && tool.tool.name === 'echo')!;
    expect(beta.name).toMatch(/^mcp__beta_x__echo_[0-9a-f]{8}$/);
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((name) => /^[A-Za-z0-9_-]{1,64}$/.test(name))).toBe(true);
    expect(await manager.resolveTool(beta.name)).toEqual({ server: 'beta.x', tool: 'echo' });
    const result = await manager.callTool(beta.name, { text: 'via beta' });
    expect(result.content).toEqual([{ type: 'text', text: 'via beta' }]);
    await expect(manager.callTool('mcp__nobody__echo')).rejects.toThrow('no connected server offers a tool named mcp__nobody__echo');
    await expect(manager.callTool({ server: 'off', tool: 'echo' })).rejects.toThrow('off is not connected (disabled)');
  });

  it('reads resources through the manager', async () => {
    expect((await manager.resources('alpha')).map((entry) => entry.resource.uri)).toEqual(['fixture://readme']);
    const read = await manager.readResource('alpha', 'fixture://readme');
    expect(read.contents).toEqual([{ uri: 'fixture://readme', text: 'fixture readme' }]);
  });

  it('drops the tool cache on list_changed', async () => {
    const before = await manager.tools('alpha');
    expect(before.some((tool) => tool.tool.name === 'added')).toBe(false);
    await manager.callTool({ server: 'alpha', tool: 'grow' }, { name: 'added' });
    await expect.poll(async () => (await manager.tools('alpha')).some((tool) => tool.tool.name === 'added'), { timeout: 5_000 }).toBe(true);
  });

  it('leaves no timer or abort listener behind after many calls, timed out ones included', async () => {
    const controller = new AbortController();
    // 30 calls in flight share the signal, which is fine but trips Node's leak heuristic at 10.
    setMaxListeners(100, controller.signal);
    const baseline = timeouts();
    for (let round = 0; round < 10; round++) {
      await Promise.all(Array.from({ length: 30 }, (_, index) => manager.callTool({ server: 'alpha', tool: 'echo' }, { text: String(index) }, { timeout: 10_000, signal: controller.signal })));
    }
    const late = await Promise.allSettled(Array.from({ length: 10 }, () => manager.callTool({ server: 'alpha', tool: 'slow' }, { ms: 5_000 }, { timeout: 50, signal: controller.signal })));
    expect(late.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof SdkError && outcome.reason.code === 'REQUEST_TIMEOUT')).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(timeouts()).toBeLessThanOrEqual(baseline);
    // The server still answers after the timed-out calls were cancelled.
    expect((await manager.callTool({ server: 'alpha', tool: 'echo' }, { text: 'still here' })).content).toEqual([{ type: 'text', text: 'still here' }]);
  });

  it('retries a call refused with URL elicitation required (-32042) after the user completes it, up to 3 times', async () => {
    prompts.length = 0;
    answer = true;
    const ok = await manager.callTool({ server: 'alpha', tool: 'paid' }, { key: 'twice', refusals: 2 });
    expect(ok.content).toEqual([{ type: 'text', text: 'paid after 2 refusals' }]);
    expect(prompts.map((prompt) => [prompt.server, prompt.method, prompt.target, prompt.attempt, prompt.elicitations.map((item) => item.url)])).toEqual([
      ['alpha', 'tools/call', 'paid', 1, ['https://pay.example/checkout/twice/1']],
      ['alpha', 'tools/call', 'paid', 2, ['https://pay.example/checkout/twice/2']],
    ]);

    prompts.length = 0;
    const stubborn = await manager.callTool({ server: 'alpha', tool: 'paid' }, { key: 'many', refusals: 10 }).catch((error: unknown) => error);
    expect(stubborn).toBeInstanceOf(ProtocolError);
    expect((stubborn as ProtocolError).code).toBe(-32042);
    expect(prompts.map((prompt) => prompt.attempt)).toEqual([1, 2, 3]);

    prompts.length = 0;
    answer = false;
    const declined = await manager.callTool({ server: 'alpha', tool: 'paid' }, { key: 'declined', refusals: 1 }).catch((error: unknown) => error);
    expect(declined).toBeInstanceOf(SdkError);
    expect((declined as SdkError).code).toBe('REQUEST_CANCELLED');
    expect((declined as SdkError).data).toEqual({ elicitations: [expect.objectContaining({ url: 'https://pay.example/checkout/declined/1' })] });
    expect(prompts).toHaveLength(1);
    answer = true;
  });

  it('keeps only a capped tail of a flooding server’s stderr, and the server keeps working', async () => {
    for (let index = 0; index < 5; index++) {
      expect((await manager.callTool({ server: 'flood', tool: 'echo' }, { text: `call ${index}` })).content).toEqual([{ type: 'text', text: `call ${index}` }]);
    }
    await expect.poll(() => stderrSeen.get('flood') ?? 0, { timeout: 5_000 }).toBeGreaterThan(1_000_000);
    expect(manager.connection('flood').stderr.length).toBeLessThanOrEqual(8_192);
    expect(manager.connection('flood').stderr).toMatch(/x+\n$/);
  });

  it('reports a server that crashes mid-call with its exit status and stderr, and keeps the others', async () => {
    const error = await manager.callTool({ server: 'crashy', tool: 'crash' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe('CONNECTION_CLOSED');
    await expect.poll(() => manager.status('crashy').state).toBe('failed');
    expect(manager.status('crashy').reason).toMatch(/exited with code 7; stderr: .*fatal: crashing mid-call on purpose/s);
    await expect(manager.callTool({ server: 'crashy', tool: 'echo' })).rejects.toThrow(/crashy is not connected \(failed: .*code 7/);
    expect((await manager.tools()).some((tool) => tool.server === 'crashy')).toBe(false);
    expect((await manager.callTool('mcp__alpha__echo', { text: 'unaffected' })).content).toEqual([{ type: 'text', text: 'unaffected' }]);
  });
});

describe('Limiter', () => {
  it('runs at most max tasks at once, in arrival order, releasing slots on failure', async () => {
    const limiter = new Limiter(2);
    let peak = 0;
    const order: number[] = [];
    const task = (index: number) => limiter.run(async () => {
      peak = Math.max(peak, limiter.active);
      order.push(index);
      await new Promise((resolve) => setImmediate(resolve));
      if (index === 1) throw new Error('boom');
      return index;
    });
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map(task));
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(limiter.active).toBe(0);
  });
});
