import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StdioServerTransport } from '../../../../runtime/transports/node/stdio-server.js';
import { Protocol } from '../../../../runtime/core/protocol.js';
import { ParseFailure } from '../../../../runtime/core/wire-format.js';
import { createFakeRevision } from '../../fixtures/fake-revision.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/stdio-server-fixture.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Reads newline-delimited output as a queue of lines. */
class LineQueue {
  private buffer = '';
  private readonly lines: string[] = [];
  private waiters: (() => void)[] = [];
  /** Every line ever received, for whole-stream assertions. */
  readonly all: string[] = [];

  push(chunk: Buffer | string): void {
    this.buffer += chunk.toString();
    let newline = this.buffer.indexOf('\n');
    while (newline !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      this.lines.push(line);
      this.all.push(line);
      newline = this.buffer.indexOf('\n');
    }
    const waiting = this.waiters;
    this.waiters = [];
    waiting.forEach((wake) => wake());
  }

  async next(): Promise<any> {
    while (this.lines.length === 0) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return JSON.parse(this.lines.shift()!);
  }

  get pending(): number {
    return this.lines.length;
  }
}

describe('StdioServerTransport in process', () => {
  async function serve(maxLineBytes?: number) {
    const input = new PassThrough();
    const output = new PassThrough();
    const out = new LineQueue();
    output.on('data', (chunk: Buffer) => out.push(chunk));
    const protocol = new Protocol({ side: 'server', revision: createFakeRevision() });
    protocol.setRequestHandler('ping', () => ({}));
    const transport = new StdioServerTransport({ input, output, maxLineBytes });
    await protocol.connect(transport);
    return { input, out, protocol, transport };
  }

  it('reassembles a message written in pieces', async () => {
    const { input, out } = await serve();
    input.write('{"jsonrpc":"2.0",');
    input.write('"id":1,"meth');
    input.write('od":"ping"}\n');
    expect(await out.next()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('handles several messages in one chunk', async () => {
    const { input, out } = await serve();
    input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    const ids = [(await out.next()).id, (await out.next()).id];
    expect(ids.sort()).toEqual([1, 2]);
  });

  it('answers an oversized request with INVALID_REQUEST and its own id, then carries on', async () => {
    const { input, out } = await serve(64);
    input.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(100)}"}}\n`);
    input.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    expect(await out.next()).toMatchObject({ id: 1, error: { code: -32600, message: expect.stringContaining('64-byte line limit') } });
    expect(await out.next()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('answers an oversized line with id null when its head shows no id before the cut', async () => {
    const { input, out } = await serve(64);
    input.write(`{"jsonrpc":"2.0","params":{"pad":"${'x'.repeat(100)}"},"id":1,"method":"ping"}\n`);
    expect(await out.next()).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('delivers undecodable lines as ParseFailure', async () => {
    const input = new PassThrough();
    const transport = new StdioServerTransport({ input, output: new PassThrough() });
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    input.write('{oops\n');
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]).toBeInstanceOf(ParseFailure);
  });

  it('closes on end of input, and refuses sends afterwards', async () => {
    const { input, transport, protocol } = await serve();
    const onclose = vi.fn();
    protocol.onclose = onclose;
    input.end();
    await vi.waitFor(() => expect(onclose).toHaveBeenCalledTimes(1));
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  it("writes a line the output has room for at once, and holds the next ones until 'drain'", async () => {
    const written: string[] = [];
    const callbacks: (() => void)[] = [];
    const output = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk.toString());
        callbacks.push(() => callback());
      },
    });
    const transport = new StdioServerTransport({ input: new PassThrough(), output });
    await transport.start();
    // The first line is accepted (its send resolves) and fills the buffer.
    await transport.send({ jsonrpc: '2.0', method: 'a' });
    let secondDone = false;
    const second = transport.send({ jsonrpc: '2.0', method: 'b' }).then(() => {
      secondDone = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toHaveLength(1);
    expect(secondDone).toBe(false);
    callbacks.shift()!();
    await second;
    await vi.waitFor(() => expect(written).toHaveLength(2));
    callbacks.shift()!();
    expect(written.map((line) => JSON.parse(line).method)).toEqual(['a', 'b']);
  });

  it('answers the requests of one chunk in one write', async () => {
    const input = new PassThrough();
    const writes: string[] = [];
    const output = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        writes.push(chunk.toString());
        callback();
      },
    });
    const protocol = new Protocol({ side: 'server', revision: createFakeRevision() });
    protocol.setRequestHandler('ping', () => ({}));
    await protocol.connect(new StdioServerTransport({ input, output }));
    input.write([1, 2, 3, 4].map((id) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`).join(''));
    const lines = () => writes.join('').split('\n').filter((line) => line !== '');
    await vi.waitFor(() => expect(lines()).toHaveLength(4));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.endsWith('\n')).toBe(true);
    expect(lines().map((line) => JSON.parse(line).id).sort()).toEqual([1, 2, 3, 4]);
  });

  it('writes what was sent in the turn it closes in before closing', async () => {
    const output = new PassThrough();
    const transport = new StdioServerTransport({ input: new PassThrough(), output });
    await transport.start();
    const sent = transport.send({ jsonrpc: '2.0', method: 'last' });
    await transport.close();
    expect(JSON.parse(String(output.read()))).toEqual({ jsonrpc: '2.0', method: 'last' });
    await sent;
  });

  it('reports an output error and closes', async () => {
    const output = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error('EPIPE-ish'));
      },
    });
    const transport = new StdioServerTransport({ input: new PassThrough(), output });
    const errors: Error[] = [];
    const onclose = vi.fn();
    transport.onerror = (error) => errors.push(error);
    transport.onclose = onclose;
    await transport.start();
    await transport.send({ jsonrpc: '2.0', method: 'a' }).catch(() => undefined);
    await vi.waitFor(() => expect(onclose).toHaveBeenCalledTimes(1));
    expect(errors.map((e) => e.message)).toContain('EPIPE-ish');
  });
});

/** A real server child process, fed raw bytes. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly out = new LineQueue();
  stderr = '';

  constructor(args: string[]) {
    this.child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, ...args], { cwd: ROOT, stdio: 'pipe' });
    this.child.stdout.on('data', (chunk: Buffer) => this.out.push(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
  }

  async ready(): Promise<void> {
    await vi.waitFor(() => expect(this.stderr).toContain('fixture ready'), { timeout: 20_000, interval: 20 });
  }

  write(text: string): void {
    this.child.stdin.write(text);
  }

  /** Sends a ping and expects its answer, proving the connection still works. */
  async assertAlive(id: number): Promise<void> {
    this.write(`{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`);
    expect(await this.out.next()).toEqual({ jsonrpc: '2.0', id, result: {} });
  }

  async stop(): Promise<number | null> {
    if (this.child.exitCode !== null) {
      return this.child.exitCode;
    }
    this.child.stdin.end();
    const [code] = (await once(this.child, 'exit')) as [number | null];
    return code;
  }
}

describe('stdio server child process, raw frames', () => {
  let server: RawServer;
  let unbatched: RawServer;

  beforeAll(async () => {
    server = new RawServer(['--max-line-bytes=1024']);
    unbatched = new RawServer(['--no-batching']);
    await Promise.all([server.ready(), unbatched.ready()]);
  }, 30_000);

  afterAll(async () => {
    server.child.kill();
    unbatched.child.kill();
  });

  it('answers malformed JSON with -32700 and id null', async () => {
    server.write('{"jsonrpc":"2.0","id":1,"method":\n');
    expect(await server.out.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    await server.assertAlive(100);
  });

  it('answers {"jsonrpc":"2.0"} with -32600', async () => {
    server.write('{"jsonrpc":"2.0"}\n');
    expect(await server.out.next()).toMatchObject({ id: null, error: { code: -32600 } });
    await server.assertAlive(101);
  });

  it('answers an unknown method with -32601', async () => {
    server.write('{"jsonrpc":"2.0","id":7,"method":"tools/unknown"}\n');
    expect(await server.out.next()).toMatchObject({ id: 7, error: { code: -32601 } });
    await server.assertAlive(102);
  });

  it('answers bad params with -32602 naming the field', async () => {
    server.write('{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":42}}\n');
    const reply = await server.out.next();
    expect(reply).toMatchObject({ id: 8, error: { code: -32602, message: 'Invalid params for tools/call: /name must be string' } });
    expect(reply.error.data.issues[0].path).toBe('/name');
    await server.assertAlive(103);
  });

  it('answers a batch in one array when batching is allowed', async () => {
    server.write(
      '[{"jsonrpc":"2.0","id":9,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},' +
        '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"echo","arguments":{"a":1}}}]\n',
    );
    const reply = await server.out.next();
    expect(reply).toHaveLength(2);
    expect(reply).toContainEqual({ jsonrpc: '2.0', id: 9, result: {} });
    expect(reply).toContainEqual({ jsonrpc: '2.0', id: 10, result: { content: [{ type: 'text', text: '{"a":1}' }] } });
    await server.assertAlive(104);
  });

  it('answers an empty batch and a batch with initialize with one -32600, id null', async () => {
    server.write('[]\n');
    expect(await server.out.next()).toMatchObject({ id: null, error: { code: -32600 } });
    server.write('[{"jsonrpc":"2.0","id":11,"method":"initialize","params":{"protocolVersion":"x"}},{"jsonrpc":"2.0","id":12,"method":"ping"}]\n');
    const reply = await server.out.next();
    expect(Array.isArray(reply)).toBe(false);
    expect(reply).toMatchObject({ id: null, error: { code: -32600 } });
    await server.assertAlive(105);
  });

  it('answers any batch with one -32600, id null, when batching is not allowed', async () => {
    unbatched.write('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]\n');
    const reply = await unbatched.out.next();
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    await unbatched.assertAlive(3);
    expect(unbatched.out.pending).toBe(0);
  });

  it('answers an oversized request with -32600 and its id, and keeps the connection', async () => {
    server.write(`{"jsonrpc":"2.0","id":13,"method":"ping","params":{"pad":"${'y'.repeat(5_000)}"}}\n`);
    expect(await server.out.next()).toMatchObject({ id: 13, error: { code: -32600 } });
    await server.assertAlive(106);
  });

  it('reassembles partial chunks and splits several messages per chunk', async () => {
    const first = '{"jsonrpc":"2.0","id":14,"method":"ping"}\n';
    server.write(first.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 30));
    server.write(first.slice(10, 25));
    await new Promise((resolve) => setTimeout(resolve, 30));
    server.write(`${first.slice(25)}{"jsonrpc":"2.0","id":15,"method":"ping"}\n{"jsonrpc":"2.0","id":16,`);
    server.write('"method":"ping"}\n');
    const ids = [(await server.out.next()).id, (await server.out.next()).id, (await server.out.next()).id];
    expect(ids.sort()).toEqual([14, 15, 16]);
  });

  it('writes only JSON-RPC messages to stdout and exits cleanly at end of input', async () => {
    const code = await server.stop();
    expect(code).toBe(0);
    expect(server.out.all.length).toBeGreaterThan(10);
    for (const line of server.out.all) {
      const parsed = JSON.parse(line);
      for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
        expect(message.jsonrpc).toBe('2.0');
        expect('result' in message || 'error' in message).toBe(true);
      }
    }
  });
});
