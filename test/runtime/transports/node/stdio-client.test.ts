import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SdkError } from '../../../../runtime/core/errors.js';
import { StdioClientTransport, TREE_MARKER_VARIABLE, type StdioClientTransportOptions } from '../../../../runtime/transports/node/stdio-client.js';
import { Protocol } from '../../../../runtime/core/protocol.js';
import { createFakeRevision } from '../../fixtures/fake-revision.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/stdio-server-fixture.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const POSIX = process.platform !== 'win32';

/** True while `pid` runs; a zombie (exited, not yet reaped) counts as gone. */
function isRunning(pid: number): boolean {
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

const open: Protocol[] = [];

async function connectFixture(options: Partial<StdioClientTransportOptions> & { onerror?: (error: Error) => void } = {}) {
  const { onerror, ...transportOptions } = options;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', FIXTURE],
    cwd: ROOT,
    closeTimeoutMs: 300,
    killTimeoutMs: 500,
    ...transportOptions,
  });
  const protocol = new Protocol({ side: 'client', revision: createFakeRevision(), onerror });
  open.push(protocol);
  await protocol.connect(transport);
  return { protocol, transport };
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((protocol) => protocol.close()));
});

describe('StdioClientTransport', () => {
  it('talks to a spawned server, captures its stderr, and closes it gracefully', async () => {
    const chunks: string[] = [];
    const { protocol, transport } = await connectFixture({ onstderr: (chunk) => chunks.push(chunk), closeTimeoutMs: 5_000 });
    const result = await protocol.request('tools/call', { name: 'echo', arguments: { hello: 'world' } });
    expect(result).toEqual({ content: [{ type: 'text', text: '{"hello":"world"}' }] });
    expect(transport.stderr).toContain('fixture ready');
    expect(chunks.join('')).toContain('fixture ready');
    const pid = transport.pid!;
    await protocol.close();
    // Ending stdin is enough for this server: it exits by itself, with no signal.
    expect(transport.exitStatus).toEqual({ code: 0, signal: null });
    expect(transport.forceKilledPids).toEqual([]);
    expect(isRunning(pid)).toBe(false);
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  it('rejects pending requests with the exit code and stderr tail when the server crashes', async () => {
    const { protocol, transport } = await connectFixture();
    const onclose = vi.fn();
    protocol.onclose = onclose;
    const error = await protocol.request('tools/call', { name: 'crash' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect((error as Error).message).toContain('exited with code 3');
    expect((error as Error).message).toContain('fatal: the fixture crashes on purpose');
    expect(transport.exitStatus).toEqual({ code: 3, signal: null });
    expect(transport.closeReason?.message).toContain('code 3');
    expect(onclose).toHaveBeenCalledTimes(1);
  });

  it.skipIf(!POSIX)('leaves no grandchild behind after close', async () => {
    const { protocol, transport } = await connectFixture();
    const result = (await protocol.request('tools/call', { name: 'spawn-grandchild' })) as { content: { text: string }[] };
    const grandchild = Number(result.content[0]!.text);
    const child = transport.pid!;
    expect(isRunning(grandchild)).toBe(true);
    expect(isRunning(child)).toBe(true);
    await protocol.close();
    expect(isRunning(child)).toBe(false);
    expect(isRunning(grandchild)).toBe(false);
  });

  it.skipIf(!POSIX)('escalates to SIGKILL when the server ignores end of input, SIGINT and SIGTERM', async () => {
    const { protocol, transport } = await connectFixture({ closeTimeoutMs: 200, killTimeoutMs: 300 });
    await protocol.request('tools/call', { name: 'stubborn' });
    const pid = transport.pid!;
    await protocol.close();
    expect(transport.exitStatus?.signal).toBe('SIGKILL');
    expect(isRunning(pid)).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')('ends descendants that left the process group on close, naming the pids that needed SIGKILL', async () => {
    const errors: Error[] = [];
    const { protocol, transport } = await connectFixture({ closeTimeoutMs: undefined, killTimeoutMs: undefined, onerror: (error) => errors.push(error) });
    const result = (await protocol.request('tools/call', { name: 'spawn-escapees' })) as { content: { text: string }[] };
    const escapees = JSON.parse(result.content[0]!.text) as Record<string, number | undefined>;
    await protocol.request('tools/call', { name: 'stubborn' });
    const server = transport.pid!;
    const pids = [server, ...Object.values(escapees).filter((pid): pid is number => pid !== undefined)];
    expect(pids.map(isRunning)).toEqual(pids.map(() => true));
    await protocol.close();
    expect(pids.filter(isRunning)).toEqual([]);
    const forced = [server, escapees.stubborn!].sort((a, b) => a - b);
    expect(transport.forceKilledPids).toEqual(forced);
    expect(errors).toMatchObject([{ code: 'PROCESS_KILLED', data: { pids: forced } }]);
    expect(errors[0]!.message).toContain(`${forced.join(', ')}`);
  });

  it.skipIf(process.platform !== 'linux')('ends descendants that left the process group when the server exits by itself', async () => {
    const { protocol, transport } = await connectFixture();
    const result = (await protocol.request('tools/call', { name: 'spawn-escapees' })) as { content: { text: string }[] };
    const escapees = Object.values(JSON.parse(result.content[0]!.text) as Record<string, number | undefined>).filter((pid): pid is number => pid !== undefined);
    const closed = new Promise<void>((resolve) => {
      protocol.onclose = resolve;
    });
    void protocol.request('tools/call', { name: 'exit' }).catch(() => undefined);
    await closed;
    expect(escapees.filter(isRunning)).toEqual([]);
    expect(transport.forceKilledPids).toEqual([escapees[escapees.length - 1]]);
  });

  it('passes only the safe environment plus explicit additions, and caps kept stderr', async () => {
    process.env.MCPGEN_TEST_SECRET = 'do-not-leak';
    const script = [
      "process.stderr.write('x'.repeat(5000) + 'END');",
      "process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'env', params: process.env }) + '\\n');",
      'process.stdin.resume();',
    ].join('\n');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-e', script],
      env: { EXTRA_SETTING: 'on' },
      stderrCapacity: 100,
      closeTimeoutMs: 2_000,
    });
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    try {
      await transport.start();
      await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 10_000 });
      await vi.waitFor(() => expect(transport.stderr.endsWith('END')).toBe(true), { timeout: 10_000 });
      const env = (received[0] as { params: Record<string, string> }).params;
      expect(env.EXTRA_SETTING).toBe('on');
      expect(env.MCPGEN_TEST_SECRET).toBeUndefined();
      if (POSIX) {
        const allowed = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'EXTRA_SETTING', TREE_MARKER_VARIABLE];
        expect(Object.keys(env).filter((key) => !allowed.includes(key))).toEqual([]);
        expect(env.PATH).toBe(process.env.PATH);
      }
      expect(transport.stderr).toHaveLength(100);
    } finally {
      delete process.env.MCPGEN_TEST_SECRET;
      await transport.close();
    }
  });

  it('fails the request whose reply exceeds maxLineBytes at once, and keeps the connection', async () => {
    // A raw child: answers the first ping with a reply far over the cap, then answers each later
    // ping with the non-request lines it has received, so the test sees what the client sent back.
    const script = [
      "const seen = []; let pings = 0; let buffer = '';",
      "process.stdin.on('data', (chunk) => {",
      '  buffer += chunk;',
      "  let newline; while ((newline = buffer.indexOf('\\n')) !== -1) {",
      '    const message = JSON.parse(buffer.slice(0, newline)); buffer = buffer.slice(newline + 1);',
      "    if (message.method !== 'ping') { seen.push(message); continue; }",
      '    const result = pings++ === 0 ? { pad: "x".repeat(4096) } : { seen };',
      "    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\\n');",
      '  }',
      '});',
    ].join('\n');
    const transport = new StdioClientTransport({ command: process.execPath, args: ['-e', script], maxLineBytes: 1_024, closeTimeoutMs: 2_000 });
    const protocol = new Protocol({ side: 'client', revision: createFakeRevision() });
    open.push(protocol);
    await protocol.connect(transport);
    const error = await protocol.request('ping', {}, { timeout: 600_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ code: 'MESSAGE_TOO_LARGE', data: { limit: 1_024 } });
    expect((error as Error).message).toContain('1024-byte line limit');
    expect((error as Error).message).toContain('ping');
    // The connection survives, and the server was sent nothing about the skipped line.
    expect(await protocol.request('ping', {}, { timeout: 600_000 })).toEqual({ seen: [] });
  });

  it('delivers what was sent in the turn close() is called in before ending the server\'s input', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'stdio-flush-'));
    const file = join(folder, 'received.txt');
    try {
      // The server keeps all of its input and writes it out once the input ends.
      const script = "let all = ''; process.stdin.on('data', (c) => { all += c; }); process.stdin.on('end', () => { require('node:fs').writeFileSync(process.argv[1], all); });";
      const transport = new StdioClientTransport({ command: process.execPath, args: ['-e', script, file], closeTimeoutMs: 5_000 });
      await transport.start();
      const sent = [transport.send({ jsonrpc: '2.0', method: 'notifications/first' }), transport.send({ jsonrpc: '2.0', method: 'notifications/second' })];
      await transport.close();
      await Promise.all(sent);
      const lines = readFileSync(file, 'utf8').split('\n');
      expect(lines.pop()).toBe('');
      expect(lines.map((line) => JSON.parse(line).method)).toEqual(['notifications/first', 'notifications/second']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('rejects start with SPAWN_FAILED when the command does not exist', async () => {
    const transport = new StdioClientTransport({ command: '/nonexistent/mcp-server-binary' });
    await expect(transport.start()).rejects.toMatchObject({ code: 'SPAWN_FAILED' });
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });
});
