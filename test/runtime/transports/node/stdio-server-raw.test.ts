// An McpServer built from the public entries, in a child process, fed raw bytes on stdin: every
// request gets exactly one answer however its reply or its input is shaped, and what JSON.parse
// makes of hostile keys never reaches a handler.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const FIXTURE = fileURLToPath(new URL('../../fixtures/mcp-stdio-fixture.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const STATELESS = '2026-07-28';

/** A raw server child: writes lines, and hands out each reply by id as it arrives. */
class RawMcpChild {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = '';
  private buffer = '';
  private readonly byId = new Map<unknown, unknown>();
  private readonly waiters = new Map<unknown, (message: unknown) => void>();
  /** Every parsed line, in order. */
  readonly lines: unknown[] = [];

  constructor() {
    this.child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], { cwd: ROOT, stdio: 'pipe' });
    this.child.stdout.on('data', (chunk: Buffer) => this.push(chunk.toString()));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
  }

  private push(text: string): void {
    this.buffer += text;
    for (let cut = this.buffer.indexOf('\n'); cut !== -1; cut = this.buffer.indexOf('\n')) {
      const parsed = JSON.parse(this.buffer.slice(0, cut)) as unknown;
      this.buffer = this.buffer.slice(cut + 1);
      this.lines.push(parsed);
      // A batch reply is filed under the id of its first member.
      const key = Array.isArray(parsed) ? (parsed[0] as { id: unknown }).id : (parsed as { id: unknown }).id;
      const waiter = this.waiters.get(key);
      if (waiter === undefined) this.byId.set(key, parsed);
      else {
        this.waiters.delete(key);
        waiter(parsed);
      }
    }
  }

  async ready(): Promise<void> {
    await vi.waitFor(() => expect(this.stderr).toContain('fixture ready'), { timeout: 20_000, interval: 20 });
  }

  write(bytes: string | Buffer): void {
    this.child.stdin.write(bytes);
  }

  /** The reply whose id (or first member's id, for a batch) is `id`. */
  reply(id: unknown): Promise<any> {
    if (this.byId.has(id)) {
      const value = this.byId.get(id);
      this.byId.delete(id);
      return Promise.resolve(value);
    }
    return new Promise((resolve) => this.waiters.set(id, resolve));
  }

  /** Writes a request line and waits for its reply. */
  async call(message: Record<string, unknown>): Promise<any> {
    this.write(`${JSON.stringify(message)}\n`);
    return this.reply(message.id);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.stdin.end();
    await once(this.child, 'exit');
  }
}

const toolCall = (id: number, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
});

/** `depth` levels of `{"a": …}` as raw JSON text, which JSON.parse takes but recursive code does not. */
const deepJson = (depth: number): string => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

describe('McpServer over raw stdio (2025-03-26, batches allowed)', () => {
  const server = new RawMcpChild();

  beforeAll(async () => {
    await server.ready();
    const init = await server.call({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.result.protocolVersion).toBe('2025-03-26');
    server.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  }, 30_000);

  afterAll(async () => {
    await server.stop();
  });

  /** Reports of replies answered with an internal error instead, so far. */
  const substituted = (): number => server.stderr.split('Answered with an internal error').length - 1;

  it.each([
    ['a 10,000-deep structuredContent', 'deep', 'Maximum call stack size exceeded'],
    ['a BigInt', 'bigint', 'BigInt'],
    ['a cycle', 'cycle', 'circular'],
  ])('answers a result holding %s with -32603 naming tools/call, and carries on', async (_label, tool, reason) => {
    const id = 10 + ['deep', 'bigint', 'cycle'].indexOf(tool);
    const reply = await server.call(toolCall(id, tool));
    expect(reply).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32603 } });
    expect(reply.error.message).toContain('tools/call');
    expect(reply.error.message).toContain(reason);
    expect(await server.call({ jsonrpc: '2.0', id: id + 100, method: 'ping' })).toEqual({ jsonrpc: '2.0', id: id + 100, result: {} });
    // stderr is another pipe: its report may trail the reply, and later tests read stderr.
    await vi.waitFor(() => expect(substituted()).toBe(id - 9), { timeout: 10_000, interval: 10 });
  });

  it('answers a batch whose one result cannot be encoded: that member with -32603, the others as they were', async () => {
    server.write(`${JSON.stringify([toolCall(20, 'cycle'), { jsonrpc: '2.0', id: 21, method: 'ping' }])}\n`);
    const reply = await server.reply(20);
    expect(reply).toHaveLength(2);
    expect(reply).toContainEqual({ jsonrpc: '2.0', id: 21, result: {} });
    const failed = reply.find((member: { id: number }) => member.id === 20);
    expect(failed.error.code).toBe(-32603);
    expect(failed.error.message).toContain('tools/call');
    await vi.waitFor(() => expect(substituted()).toBe(4), { timeout: 10_000, interval: 10 });
  });

  it('refuses 10,000-deep arguments with -32602 naming the path, before the tool runs', async () => {
    const calls = server.stderr.length;
    server.write(`{"jsonrpc":"2.0","id":30,"method":"tools/call","params":{"name":"echo","arguments":{"x":${deepJson(10_000)}}}}\n`);
    const reply = await server.reply(30);
    expect(reply.error.code).toBe(-32602);
    expect(reply.error.message).toMatch(/^Invalid params for tools\/call: \/arguments\/x(\/a)+ nests deeper than 100 levels$/);
    expect(reply.error.data.issues[0].path).toMatch(/^\/arguments\/x(\/a)+$/);
    // Nothing was reported: the request never reached a handler whose reply could fail.
    expect(server.stderr.slice(calls)).toBe('');
  });

  it('accepts arguments nested exactly to the limit and echoes them', async () => {
    // The message is level 1, params 2, arguments 3, x 4: x may hold 96 more levels.
    const reply = await server.call({ ...toolCall(31, 'echo'), params: { name: 'echo', arguments: { x: JSON.parse(deepJson(97)) } } });
    expect(reply.result.structuredContent.echo.x.a.a).toBeDefined();
    const over = await server.call({ ...toolCall(32, 'echo'), params: { name: 'echo', arguments: { x: JSON.parse(deepJson(98)) } } });
    expect(over.error.code).toBe(-32602);
  });

  it('answers a line that is not UTF-8 with -32700 and id null, as HTTP does, and carries on', async () => {
    const head = Buffer.from('{"jsonrpc":"2.0","id":40,"method":"ping","params":{"_meta":{"x":"');
    server.write(Buffer.concat([head, Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}}}\n')]));
    const reply = await server.reply(null);
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(reply.error.message).toContain('UTF-8');
    expect(await server.call({ jsonrpc: '2.0', id: 41, method: 'ping' })).toEqual({ jsonrpc: '2.0', id: 41, result: {} });
  });

  it('keeps a character split across chunks intact', async () => {
    const line = Buffer.from(`${JSON.stringify(toolCall(42, 'echo', { text: 'grüße €' }))}\n`);
    const split = line.indexOf(Buffer.from('€')) + 1;
    server.write(line.subarray(0, split));
    await new Promise((resolve) => setImmediate(resolve));
    server.write(line.subarray(split));
    expect((await server.reply(42)).result.structuredContent.echo.text).toBe('grüße €');
  });

  it('hands a raw-schema tool no __proto__ or object-valued constructor key, at any level', async () => {
    const line = '{"jsonrpc":"2.0","id":50,"method":"tools/call","params":{"name":"keys","arguments":' +
      '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"b":1}}}\n';
    server.write(line);
    const report = JSON.parse((await server.reply(50)).result.content[0].text);
    expect(report).toEqual({ own: ['b'], ownProto: false, mergedPrototypeIsObject: true, polluted: null, ownConstructor: false });
    // An escaped key is the same key once parsed.
    server.write('{"jsonrpc":"2.0","id":51,"method":"tools/call","params":{"name":"echo","arguments":{"n":{"\\u005f_proto__":{"x":1},"keep":"constructor"}}}}\n');
    expect((await server.reply(51)).result.structuredContent.echo).toEqual({ n: { keep: 'constructor' } });
  });
});

describe('McpServer over raw stdio, stateless era', () => {
  const server = new RawMcpChild();
  const meta = {
    'io.modelcontextprotocol/protocolVersion': STATELESS,
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };

  beforeAll(async () => {
    await server.ready();
  }, 30_000);

  afterAll(async () => {
    await server.stop();
  });

  it('answers an unencodable result with -32603 naming tools/call', async () => {
    const reply = await server.call(toolCall(1, 'deep', {}, meta));
    expect(reply).toMatchObject({ id: 1, error: { code: -32603 } });
    expect(reply.error.message).toContain('tools/call');
  });

  it('refuses deep arguments of a multi round-trip tool with -32602, before the request-state digest', async () => {
    const first = await server.call(toolCall(2, 'ask', {}, meta));
    expect(first.result.resultType).toBe('input_required');
    server.write(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ask","_meta":${JSON.stringify(meta)},"arguments":{"x":${deepJson(10_000)}}}}\n`);
    const reply = await server.reply(3);
    expect(reply.error.code).toBe(-32602);
    expect(reply.error.message).toContain('nests deeper than 100 levels');
  });
});
