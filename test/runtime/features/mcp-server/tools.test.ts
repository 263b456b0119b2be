import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { McpServer, ProtocolError, type McpContext, type StandardJsonSchemaV1 } from '../../../../runtime/index.js';
import { connect, textOf } from './harness.js';

const info = { name: 'tools-test', version: '1.0.0' };

describe('listing', () => {
  it('derives capabilities from what is registered', async () => {
    const mcp = new McpServer(info);
    mcp.registerTool('t', {}, () => ({ content: [] }));
    const { client } = await connect(mcp);
    expect(client.serverCapabilities).toEqual({ tools: { listChanged: true }, logging: {} });
    await client.close();
  });

  it('passes title, annotations, icons, execution and _meta through, and converts schemas once', async () => {
    let conversions = 0;
    const counted = z.object({ q: z.string() });
    const props = counted['~standard'];
    const spied: StandardJsonSchemaV1 = {
      '~standard': {
        ...props,
        jsonSchema: {
          input: (options) => {
            conversions += 1;
            return props.jsonSchema.input(options);
          },
          output: props.jsonSchema.output,
        },
      },
    };
    const mcp = new McpServer(info);
    mcp.registerTool(
      'search',
      {
        title: 'Search',
        description: 'Finds things',
        inputSchema: spied,
        annotations: { title: 'Search things', readOnlyHint: true },
        icons: [{ src: 'https://example.com/s.png', mimeType: 'image/png', sizes: ['48x48'] }],
        execution: { taskSupport: 'forbidden' },
        _meta: { 'example.com/tier': 'gold' },
      },
      () => ({ content: [] }),
    );
    const { client } = await connect(mcp);
    for (let i = 0; i < 3; i++) await client.listTools();
    const [tool] = (await client.listTools()).tools;
    expect(tool).toEqual({
      name: 'search',
      title: 'Search',
      description: 'Finds things',
      inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      annotations: { title: 'Search things', readOnlyHint: true },
      icons: [{ src: 'https://example.com/s.png', mimeType: 'image/png', sizes: ['48x48'] }],
      execution: { taskSupport: 'forbidden' },
      _meta: { 'example.com/tier': 'gold' },
    });
    expect(conversions).toBe(1);
    await client.close();
  });

  it('describes a tool without an input schema as taking no arguments', async () => {
    const mcp = new McpServer(info);
    mcp.registerTool('now', {}, () => ({ content: [{ type: 'text', text: 'noon' }] }));
    const { client } = await connect(mcp);
    expect((await client.listTools()).tools[0]?.inputSchema).toEqual({ type: 'object', additionalProperties: false });
    expect(await client.callTool({ name: 'now', arguments: { when: 'today' } })).toEqual({
      content: [{ type: 'text', text: "Invalid arguments for tool now: arguments: must NOT have additional property 'when' (the tool takes no arguments)" }],
      isError: true,
    });
    await client.close();
  });
});

describe('names', () => {
  it.each(['getUser', 'DATA_EXPORT_v2', 'admin.tools.list', 'a', 'x'.repeat(128), 'with-dash'])('accepts %s', (name) => {
    expect(() => new McpServer(info).registerTool(name, {}, () => ({ content: [] }))).not.toThrow();
  });

  it.each(['', 'x'.repeat(129), 'has space', 'comma,name', 'slash/name', 'émoji'])('refuses %j', (name) => {
    expect(() => new McpServer(info).registerTool(name, {}, () => ({ content: [] }))).toThrow(RangeError);
  });

  it('refuses duplicates, and allows any non-empty name when strictToolNames is off', () => {
    const mcp = new McpServer(info, { strictToolNames: false });
    mcp.registerTool('my tool', {}, () => ({ content: [] }));
    expect(() => mcp.registerTool('my tool', {}, () => ({ content: [] }))).toThrow(/already registered/);
    expect(() => mcp.registerTool('', {}, () => ({ content: [] }))).toThrow(RangeError);
  });
});

describe('calling', () => {
  const mcp = new McpServer(info);
  mcp.registerTool(
    'forecast',
    {
      inputSchema: z.object({ city: z.string(), days: z.number().int().min(1).max(7).default(3) }),
      outputSchema: z.object({ city: z.string(), days: z.number() }),
    },
    ({ city, days }) => ({ structuredContent: { city, days } }),
  );
  mcp.registerTool(
    'raw',
    { inputSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 0 } }, required: ['n'], additionalProperties: false } },
    ({ n }) => ({ content: [{ type: 'text', text: `n=${n}` }] }),
  );
  mcp.registerTool('liar', { outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }, () => ({ structuredContent: { ok: 'yes' } }) as never);
  mcp.registerTool('silent', { outputSchema: { type: 'object' } }, () => ({ content: [{ type: 'text', text: 'no structure' }] }) as never);
  mcp.registerTool('honest-failure', { outputSchema: { type: 'object', required: ['x'] } }, () => ({ content: [{ type: 'text', text: 'upstream down' }], isError: true }));
  mcp.registerTool('throws', {}, () => {
    throw new Error('the database is unreachable');
  });
  mcp.registerTool('protocol-error', {}, () => {
    throw new ProtocolError(-32001, 'custom failure', { why: 'test' });
  });

  it('parses arguments with the schema (defaults apply) and returns structured content with a text copy', async () => {
    const { client } = await connect(mcp);
    expect(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } })).toEqual({
      content: [{ type: 'text', text: '{"city":"Oslo","days":3}' }],
      structuredContent: { city: 'Oslo', days: 3 },
    });
    await client.close();
  });

  it('answers invalid arguments with an isError result naming the fields', async () => {
    const { client } = await connect(mcp);
    const zod = await client.callTool({ name: 'forecast', arguments: { days: 9 } });
    expect(zod.isError).toBe(true);
    expect(textOf(zod)).toMatch(/^Invalid arguments for tool forecast: arguments\/city: .*; arguments\/days: /);
    const raw = await client.callTool({ name: 'raw', arguments: { n: -1, m: 2 } });
    expect(raw).toEqual({
      content: [{ type: 'text', text: "Invalid arguments for tool raw: arguments/n: must be >= 0; arguments: must NOT have additional property 'm'" }],
      isError: true,
    });
    expect(textOf(await client.callTool({ name: 'raw', arguments: { n: 4 } }))).toBe('n=4');
    await client.close();
  });

  it('checks structured content against the output schema', async () => {
    const { client } = await connect(mcp);
    expect(await client.callTool({ name: 'liar', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'Tool liar failed: its structuredContent does not match its outputSchema (a server bug): structuredContent/ok: must be boolean' }],
      isError: true,
    });
    expect(await client.callTool({ name: 'silent', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'Tool silent failed: it declares an outputSchema but returned no structuredContent (a server bug)' }],
      isError: true,
    });
    // An error result needs no structured content.
    expect(await client.callTool({ name: 'honest-failure', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'upstream down' }], isError: true });
    await client.close();
  });

  it('turns a thrown error into an isError result, and a thrown ProtocolError into a JSON-RPC error', async () => {
    const { client } = await connect(mcp);
    expect(await client.callTool({ name: 'throws', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'the database is unreachable' }], isError: true });
    await expect(client.callTool({ name: 'protocol-error', arguments: {} })).rejects.toMatchObject({ code: -32001, message: 'custom failure', data: { why: 'test' } });
    await client.close();
  });

  it('answers an unknown tool with INVALID_PARAMS', async () => {
    const { client } = await connect(mcp);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602, message: 'Unknown tool: nope' });
    await client.close();
  });

  it('aborts the handler when the client cancels', async () => {
    const local = new McpServer(info);
    let aborted: (value: unknown) => void = () => undefined;
    const sawAbort = new Promise((resolve) => (aborted = resolve));
    local.registerTool('wait', {}, (_args, context) => new Promise<never>((_resolve, reject) => context.signal.addEventListener('abort', () => {
      aborted(context.signal.reason);
      reject(new Error('stopped'));
    })));
    const { client } = await connect(local);
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, { signal: controller.signal });
    setTimeout(() => controller.abort('enough'), 10);
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    await sawAbort;
    await client.close();
  });
});

describe('handles', () => {
  it('enable, disable, update, rename and remove a tool', async () => {
    const mcp = new McpServer(info);
    const a = mcp.registerTool('a', { description: 'first' }, () => ({ content: [{ type: 'text', text: 'A' }] }));
    mcp.registerTool('b', {}, () => ({ content: [{ type: 'text', text: 'B' }] }));
    const { client } = await connect(mcp);
    const names = async (): Promise<string[]> => (await client.listTools()).tools.map((tool) => tool.name);

    a.disable();
    expect(a.enabled).toBe(false);
    expect(await names()).toEqual(['b']);
    await expect(client.callTool({ name: 'a', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    a.enable();
    expect(await names()).toEqual(['a', 'b']);

    a.update({ name: 'a2', description: 'renamed', handler: () => ({ content: [{ type: 'text', text: 'A2' }] }) });
    expect(a.name).toBe('a2');
    expect(await names()).toEqual(['a2', 'b']);
    expect((await client.listTools()).tools[0]?.description).toBe('renamed');
    expect(textOf(await client.callTool({ name: 'a2', arguments: {} }))).toBe('A2');
    expect(() => a.update({ name: 'b' })).toThrow(/already registered/);
    expect(() => a.update({ name: 'bad name' })).toThrow(RangeError);

    a.remove();
    expect(await names()).toEqual(['b']);
    // The name is free again.
    mcp.registerTool('a2', {}, () => ({ content: [] }));
    await client.close();
  });

  it('shows a tool only to the sessions its filter admits', async () => {
    const mcp = new McpServer(info);
    mcp.registerTool('modern', { available: (session) => session.supports('elicitation/create') }, () => ({ content: [] }));
    const modern = await connect(mcp, { protocolVersion: '2025-11-25' });
    const old = await connect(mcp, { protocolVersion: '2025-03-26' });
    expect((await modern.client.listTools()).tools.map((tool) => tool.name)).toEqual(['modern']);
    expect((await old.client.listTools()).tools).toEqual([]);
    await expect(old.client.callTool({ name: 'modern', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await modern.client.close();
    await old.client.close();
  });
});

describe('typed handlers', () => {
  it('infers arguments from zod and from JSON Schema literals', () => {
    const mcp = new McpServer(info);
    mcp.registerTool('zod', { inputSchema: z.object({ n: z.number(), tags: z.array(z.string()).optional() }) }, (args, context) => {
      expectTypeOf(args).toEqualTypeOf<{ n: number; tags?: string[] | undefined }>();
      expectTypeOf(context).toEqualTypeOf<McpContext>();
      return { content: [] };
    });
    mcp.registerTool('json', { inputSchema: { type: 'object', properties: { s: { type: 'string' }, k: { enum: ['x', 'y'] } }, required: ['s'], additionalProperties: false } }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ s: string; k?: 'x' | 'y' }>();
      return { content: [] };
    });
    mcp.registerTool('none', {}, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, never>>();
      return { content: [] };
    });
    mcp.registerTool('wrong', { inputSchema: z.object({ n: z.number() }) }, ({ n }) => {
      // @ts-expect-error n is a number, so it has no toUpperCase
      n.toUpperCase();
      return { content: [] };
    });
    // @ts-expect-error the handler's parameter type conflicts with the schema
    mcp.registerTool('mismatch', { inputSchema: z.object({ n: z.number() }) }, (args: { n: string }) => ({ content: [{ type: 'text', text: args.n }] }));
    // @ts-expect-error structuredContent must match the output schema
    mcp.registerTool('out', { outputSchema: z.object({ ok: z.boolean() }) }, () => ({ structuredContent: { ok: 'yes' } }));
    // @ts-expect-error a tool with an output schema must return structured content (or an error result)
    mcp.registerTool('out2', { outputSchema: z.object({ ok: z.boolean() }) }, () => ({ content: [] }));
    mcp.registerTool('out3', { outputSchema: z.object({ ok: z.boolean() }) }, () => ({ content: [], isError: true }));
  });
});
