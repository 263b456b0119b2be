import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { McpServer, type ClientOptions, type Stateful } from '../../../../runtime/index.js';
import { connect, settle, textOf, until, type Connected } from './harness.js';

const info = { name: 'context-test', version: '1.0.0' };

/** A form with every primitive and every enum variant the 2025-11-25 elicitation page lists, each with a default. */
const everyField = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1, maxLength: 50, default: 'Ada' },
    email: { type: 'string', format: 'email', default: 'ada@example.com' },
    site: { type: 'string', format: 'uri' },
    born: { type: 'string', format: 'date', default: '1815-12-10' },
    seen: { type: 'string', format: 'date-time' },
    age: { type: 'integer', minimum: 0, maximum: 150, default: 36 },
    height: { type: 'number', description: 'metres', default: 1.65 },
    subscribe: { type: 'boolean', default: false },
    color: { type: 'string', enum: ['red', 'green'], default: 'red' },
    size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }], default: 's' },
    legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['Option A', 'Option B'], default: 'a' },
    tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, minItems: 1, maxItems: 2, default: ['x'] },
    flavors: { type: 'array', items: { anyOf: [{ const: 'v', title: 'Vanilla' }, { const: 'c', title: 'Chocolate' }] }, default: ['v'] },
  },
  required: ['name', 'age'],
} as const;

function server(): McpServer {
  const mcp = new McpServer(info);
  mcp.registerTool('log', {}, async (_args, context) => {
    await context.log('info', { step: 'start' }, 'worker');
    await context.log('error', 'it broke', 'worker');
    return { content: [] };
  });
  mcp.registerTool('progress', {}, async (_args, context) => {
    await context.reportProgress(1, 2, 'half');
    await context.reportProgress(2, 2);
    return { content: [] };
  });
  mcp.registerTool('sample', { inputSchema: z.object({ withTools: z.boolean() }) }, async ({ withTools }, context) => {
    const tools: Stateful.Tool[] = [{ name: 'lookup', inputSchema: { type: 'object' } }];
    const result = await context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      maxTokens: 10,
      ...(withTools ? { tools, toolChoice: { mode: 'auto' } } : {}),
    });
    return { content: [{ type: 'text', text: JSON.stringify(result.content) }] };
  });
  mcp.registerTool('form', {}, async (_args, context) => {
    const answer = await context.elicitForm('Tell me about you', everyField);
    if (answer.action === 'accept') {
      expectTypeOf(answer.content.age).toEqualTypeOf<number>();
      expectTypeOf(answer.content.tags).toEqualTypeOf<Array<'x' | 'y'> | undefined>();
    }
    return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
  });
  mcp.registerTool('zod-form', {}, async (_args, context) => {
    const answer = await context.elicitForm('Pick', z.object({ city: z.string(), nights: z.number().int().min(1).default(2) }));
    if (answer.action === 'accept') expectTypeOf(answer.content).toEqualTypeOf<{ city: string; nights: number }>();
    return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
  });
  mcp.registerTool('url', {}, async (_args, context) => {
    const answer = await context.elicitUrl({ message: 'Connect your account', url: 'https://example.com/connect', elicitationId: 'e-1' });
    if (answer.action === 'accept') await context.session.notifyElicitationComplete(answer.elicitationId);
    return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
  });
  mcp.registerTool('roots', {}, async (_args, context) => ({ content: [{ type: 'text', text: JSON.stringify(await context.listRoots()) }] }));
  return mcp;
}

interface Seen {
  sampling: Stateful.CreateMessageRequestParams[];
  elicitation: Stateful.ElicitRequestParams[];
  completed: string[];
}

async function client(mcp: McpServer, options: ClientOptions<Stateful.ProtocolTypes>, reply: Partial<Stateful.ElicitResult> = { action: 'accept', content: {} }): Promise<Connected & { seen: Seen }> {
  const connected = await connect(mcp, options);
  const seen: Seen = { sampling: [], elicitation: [], completed: [] };
  const { client: peer } = connected;
  if (options.capabilities?.sampling !== undefined) {
    peer.setRequestHandler('sampling/createMessage', (params) => {
      seen.sampling.push(params);
      return { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' };
    });
  }
  if (options.capabilities?.elicitation !== undefined) {
    peer.setRequestHandler('elicitation/create', (params) => {
      seen.elicitation.push(params);
      return { action: 'accept', ...reply } as Stateful.ElicitResult;
    });
    if (peer.supports('notifications/elicitation/complete')) {
      peer.setNotificationHandler('notifications/elicitation/complete', (params) => {
        seen.completed.push(params.elicitationId);
      });
    }
  }
  if (options.capabilities?.roots !== undefined) peer.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
  return { ...connected, seen };
}

const call = async (connected: Connected, name: string, args: Record<string, unknown> = {}): Promise<Stateful.CallToolResult> =>
  connected.client.callTool({ name, arguments: args });

describe('logging and progress', () => {
  it('sends log messages, honouring the level the client set', async () => {
    const connected = await connect(server());
    await call(connected, 'log');
    await until(() => connected.notifications.length === 2);
    expect(connected.notifications).toEqual([
      { method: 'notifications/message', params: { level: 'info', data: { step: 'start' }, logger: 'worker' } },
      { method: 'notifications/message', params: { level: 'error', data: 'it broke', logger: 'worker' } },
    ]);
    await connected.client.setLoggingLevel({ level: 'error' });
    await call(connected, 'log');
    await settle();
    expect(connected.notifications.slice(2).map((notification) => (notification.params as { level: string }).level)).toEqual(['error']);
    await connected.client.close();
  });

  it('drops log messages when logging is not declared', async () => {
    const mcp = new McpServer(info, { logging: false });
    mcp.registerTool('log', {}, async (_args, context) => {
      await context.log('error', 'unheard');
      return { content: [] };
    });
    const connected = await connect(mcp);
    expect(connected.client.serverCapabilities?.logging).toBeUndefined();
    expect(await call(connected, 'log')).toEqual({ content: [] });
    await settle();
    expect(connected.notifications).toEqual([]);
    await connected.client.close();
  });

  it('broadcasts a server-wide log message to every session', async () => {
    const mcp = server();
    const [a, b] = [await connect(mcp), await connect(mcp)];
    await mcp.sendLoggingMessage({ level: 'notice', data: 'maintenance at noon' });
    await until(() => a.notifications.length === 1 && b.notifications.length === 1);
    expect(b.notifications[0]).toEqual({ method: 'notifications/message', params: { level: 'notice', data: 'maintenance at noon' } });
    await mcp.close();
  });

  it('reports progress to a caller that asked for it', async () => {
    const connected = await connect(server());
    const updates: unknown[] = [];
    await connected.client.callTool({ name: 'progress', arguments: {} }, { onprogress: (progress) => updates.push(progress) });
    expect(updates).toEqual([{ progress: 1, total: 2, message: 'half' }, { progress: 2, total: 2 }]);
    await connected.client.close();
  });
});

describe('sampling', () => {
  it('asks the client to sample, with tools only where the client declared sampling.tools', async () => {
    const mcp = server();
    const plain = await client(mcp, { capabilities: { sampling: {} } });
    expect(textOf(await call(plain, 'sample', { withTools: false }))).toBe('{"type":"text","text":"sampled"}');
    expect(await call(plain, 'sample', { withTools: true })).toEqual({
      content: [{ type: 'text', text: 'Cannot sample with tools: the client did not declare capability sampling.tools' }],
      isError: true,
    });
    expect(plain.seen.sampling).toHaveLength(1);

    const withTools = await client(mcp, { capabilities: { sampling: { tools: {} } } });
    await call(withTools, 'sample', { withTools: true });
    expect(withTools.seen.sampling[0]).toMatchObject({ tools: [{ name: 'lookup' }], toolChoice: { mode: 'auto' } });
    await mcp.close();
  });
});

describe('elicitation', () => {
  it('sends every primitive and enum variant, and fills in defaults the client left out', async () => {
    const connected = await client(server(), { capabilities: { elicitation: { form: {} } } }, { action: 'accept', content: { name: 'Grace', tags: ['y'] } });
    const answer = JSON.parse(textOf(await call(connected, 'form')));
    expect(connected.seen.elicitation).toEqual([{ mode: 'form', message: 'Tell me about you', requestedSchema: everyField }]);
    expect(answer).toEqual({
      action: 'accept',
      content: {
        name: 'Grace',
        email: 'ada@example.com',
        born: '1815-12-10',
        age: 36,
        height: 1.65,
        subscribe: false,
        color: 'red',
        size: 's',
        legacy: 'a',
        tags: ['y'],
        flavors: ['v'],
      },
    });
    await connected.client.close();
  });

  it('rejects content that does not match the form, and passes declines through', async () => {
    const mcp = server();
    const liar = await client(mcp, { capabilities: { elicitation: {} } }, { action: 'accept', content: { name: 'Grace', age: 'old', color: 'blue' } });
    expect(await call(liar, 'form')).toEqual({
      content: [{ type: 'text', text: 'Elicitation content does not match the requested schema: content/age: must be integer; content/color: must be one of "red", "green"' }],
      isError: true,
    });
    const decliner = await client(mcp, { capabilities: { elicitation: {} } }, { action: 'decline' });
    expect(JSON.parse(textOf(await call(decliner, 'form')))).toEqual({ action: 'decline' });
    await mcp.close();
  });

  it('accepts a zod schema, parsing the content with it', async () => {
    const connected = await client(server(), { capabilities: { elicitation: {} } }, { action: 'accept', content: { city: 'Bergen' } });
    expect(JSON.parse(textOf(await call(connected, 'zod-form')))).toEqual({ action: 'accept', content: { city: 'Bergen', nights: 2 } });
    expect(connected.seen.elicitation[0]).toMatchObject({ requestedSchema: { type: 'object', properties: { city: { type: 'string' }, nights: { type: 'integer', default: 2 } }, required: ['city'] } });
    await connected.client.close();
  });

  it('leaves out the mode field on 2025-06-18 and fails cleanly where the revision has no elicitation', async () => {
    const mcp = server();
    const june = await client(mcp, { protocolVersion: '2025-06-18', capabilities: { elicitation: {} } }, { action: 'accept', content: { city: 'Oslo' } });
    await call(june, 'zod-form');
    expect(june.seen.elicitation[0]).not.toHaveProperty('mode');
    const march = await client(mcp, { protocolVersion: '2025-03-26', capabilities: {} });
    const result = await call(march, 'zod-form');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/elicitation\/create is not a request of revision 2025-03-26/);
    await mcp.close();
  });

  it('sends URL-mode requests to clients that support them and reports completion', async () => {
    const mcp = server();
    const connected = await client(mcp, { capabilities: { elicitation: { form: {}, url: {} } } }, { action: 'accept' });
    expect(JSON.parse(textOf(await call(connected, 'url')))).toEqual({ action: 'accept', elicitationId: 'e-1' });
    expect(connected.seen.elicitation).toEqual([{ mode: 'url', message: 'Connect your account', url: 'https://example.com/connect', elicitationId: 'e-1' }]);
    await until(() => connected.seen.completed.length === 1);
    expect(connected.seen.completed).toEqual(['e-1']);

    const formOnly = await client(mcp, { capabilities: { elicitation: {} } });
    expect(textOf(await call(formOnly, 'url'))).toBe('Cannot elicit a URL: the client did not declare capability elicitation.url');
    const urlOnly = await client(mcp, { capabilities: { elicitation: { url: {} } } });
    expect(textOf(await call(urlOnly, 'form'))).toBe('Cannot elicit a form: the client declared URL-mode elicitation only');
    const june = await client(mcp, { protocolVersion: '2025-06-18', capabilities: { elicitation: {} } });
    expect(textOf(await call(june, 'url'))).toBe('URL-mode elicitation does not exist in protocol 2025-06-18');
    await mcp.close();
  });
});

describe('roots', () => {
  it('asks the client for its roots', async () => {
    const mcp = server();
    const connected = await client(mcp, { capabilities: { roots: {} } });
    expect(JSON.parse(textOf(await call(connected, 'roots')))).toEqual([{ uri: 'file:///work', name: 'work' }]);
    const without = await client(mcp, {});
    expect(textOf(await call(without, 'roots'))).toBe('Cannot send roots/list: the peer did not declare capability roots');
    await mcp.close();
  });
});

it('exposes the session to handlers', async () => {
  const mcp = new McpServer(info);
  mcp.registerTool('whoami', {}, (_args, context) => ({
    content: [{ type: 'text', text: `${context.session.clientInfo?.name} on ${context.session.protocolVersion}, request ${String(context.requestId)}` }],
  }));
  const connected = await connect(mcp);
  expect(mcp.sessionOf(connected.session.server)).toBe(connected.session);
  expect(textOf(await call(connected, 'whoami'))).toMatch(/^test-client on 2025-11-25, request \d+$/);
  await mcp.close();
});
