import { describe, expect, it } from 'vitest';
import { Client, createLinkedPair, ProtocolError, SdkError, Server, statefulRevisions, type ClientOptions, type ServerOptions, type Stateful } from '../../../runtime/index.js';
import { Protocol } from '../../../runtime/advanced.js';
import { revisionModules } from '../../../generated/all.js';

const info = { name: 'lifecycle', version: '1.0.0' };

async function pair(serverOptions: ServerOptions = {}, clientOptions: ClientOptions<Stateful.ProtocolTypes> = {}) {
  const server = new Server(info, serverOptions);
  // The handshake is what these tests are about: a Client pins the stateful era unless told otherwise.
  const client = new Client<Stateful.ProtocolTypes>(info, { ...(clientOptions.supportedRevisions === undefined ? { protocolVersion: statefulRevisions[statefulRevisions.length - 1]! } : {}), ...clientOptions });
  const [a, b] = createLinkedPair();
  await server.connect(b);
  return { server, client, connect: () => client.connect(a) };
}

/** A bare client-side engine, for sending what a well-behaved Client would not. */
async function rawClient(server: Server): Promise<Protocol> {
  const protocol = new Protocol({ side: 'client', revision: revisionModules[statefulRevisions[statefulRevisions.length - 1]!]! });
  const [a, b] = createLinkedPair();
  await server.connect(b);
  await protocol.connect(a);
  return protocol;
}

describe('version negotiation', () => {
  it('answers the requested version when supported, and the newest otherwise', async () => {
    const server = new Server(info);
    const protocol = await rawClient(server);
    const result = (await protocol.request('initialize', { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: info })) as { protocolVersion: string };
    expect(result.protocolVersion).toBe(statefulRevisions[statefulRevisions.length - 1]);
    expect(server.protocolVersion).toBe(result.protocolVersion);
  });

  it.each(statefulRevisions)('agrees on %s when both sides support it', async (revision) => {
    const { client, server, connect } = await pair({}, { protocolVersion: revision });
    expect(client.supports('tools/call')).toBe(false);
    await connect();
    expect(client.supports('tools/call')).toBe(true);
    expect(server.supports('elicitation/create')).toBe(revision >= '2025-06-18');
    expect(client.protocolVersion).toBe(revision);
    expect(server.protocolVersion).toBe(revision);
    expect(server.clientInfo).toEqual(info);
  });

  it('refuses a version the client does not support and closes the connection', async () => {
    const { client, connect } = await pair({ supportedRevisions: ['2025-11-25'] }, { supportedRevisions: ['2025-03-26', '2025-06-18'] });
    const failure = await connect().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).code).toBe('UNSUPPORTED_VERSION');
    expect((failure as SdkError).message).toContain('2025-11-25');
    await expect(client.ping()).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  it('rejects constructing with a revision that is not pinned or not released', () => {
    expect(() => new Client(info, { supportedRevisions: ['1999-01-01'] })).toThrow(RangeError);
    expect(() => new Server(info, { supportedRevisions: ['draft'] })).toThrow(/not a released stateful or stateless revision/);
    expect(new Server(info, { supportedRevisions: ['2026-07-28'] }).supportedRevisions).toEqual(['2026-07-28']);
    expect(() => new Client(info, { supportedRevisions: ['2025-03-26'], protocolVersion: '2025-06-18' })).toThrow(RangeError);
  });
});

describe('lifecycle rules', () => {
  it('answers requests before initialize with INVALID_REQUEST and a second initialize likewise', async () => {
    const server = new Server(info, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: [] }));
    const protocol = await rawClient(server);
    const early = await protocol.request('tools/list', {}).catch((error: unknown) => error);
    expect(early).toBeInstanceOf(ProtocolError);
    expect((early as ProtocolError).code).toBe(-32600);
    await protocol.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: info });
    const again = await protocol.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: info }).catch((error: unknown) => error);
    expect((again as ProtocolError).code).toBe(-32600);
    expect(await protocol.request('tools/list', {})).toEqual({ tools: [] });
  });

  it('fires oninitialized after notifications/initialized and answers ping in every state', async () => {
    const server = new Server(info);
    let initializedCalls = 0;
    const initialized = new Promise<void>((resolve) => {
      server.oninitialized = () => {
        initializedCalls += 1;
        resolve();
      };
    });
    const protocol = await rawClient(server);
    protocol.setRequestHandler('ping', () => ({}));
    // Before initialize.
    expect(await protocol.request('ping', {})).toEqual({});
    expect(server.isInitialized).toBe(false);
    // Between the initialize response and notifications/initialized, both ways.
    await protocol.request('initialize', { protocolVersion: statefulRevisions[statefulRevisions.length - 1]!, capabilities: {}, clientInfo: info });
    expect(await protocol.request('ping', {})).toEqual({});
    expect(await server.ping()).toEqual({});
    expect(server.isInitialized).toBe(false);
    expect(initializedCalls).toBe(0);
    // After notifications/initialized.
    await protocol.notification('notifications/initialized', {});
    await initialized;
    expect(server.isInitialized).toBe(true);
    expect(await protocol.request('ping', {})).toEqual({});
    expect(await server.ping()).toEqual({});
    expect(initializedCalls).toBe(1);
  });

  it('records logging/setLevel and holds back less severe log messages', async () => {
    const { client, server, connect } = await pair({ capabilities: { logging: {} } });
    const received: string[] = [];
    client.setNotificationHandler('notifications/message', (params) => {
      received.push(`${params.level}:${String(params.data)}`);
    });
    await connect();
    await server.notifyLoggingMessage({ level: 'debug', data: 'before any level is set' });
    await client.setLoggingLevel({ level: 'warning' });
    expect(server.loggingLevel).toBe('warning');
    await server.notifyLoggingMessage({ level: 'info', data: 'dropped' });
    await server.notifyLoggingMessage({ level: 'warning', data: 'kept' });
    await server.notifyLoggingMessage({ level: 'emergency', data: 'kept too' });
    await client.ping();
    expect(received).toEqual(['debug:before any level is set', 'warning:kept', 'emergency:kept too']);
  });
});

describe('capability checks', () => {
  it('refuses handlers for capabilities the endpoint did not declare', () => {
    const server = new Server(info);
    expect(() => server.setRequestHandler('tools/call', () => ({ content: [] }))).toThrow(SdkError);
    expect(() => server.setRequestHandler('resources/subscribe', () => ({}))).toThrow(/resources\.subscribe/);
    const client = new Client(info);
    expect(() => client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }))).toThrow(/sampling/);
    // completion/complete needs the server's `completions`; notification handlers are never
    // refused, because the sender's declaration governs a notification.
    expect(() => server.setRequestHandler('completion/complete', () => ({ completion: { values: [] } }))).toThrow(/completions/);
    expect(() => client.setNotificationHandler('notifications/tools/list_changed', () => undefined)).not.toThrow();
  });

  it('refuses to send requests the peer cannot serve and notifications this side did not declare', async () => {
    const { client, server, connect } = await pair({ capabilities: { tools: {} } }, { capabilities: {} });
    server.setRequestHandler('tools/list', () => ({ tools: [] }));
    await connect();
    await expect(client.listResources()).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
    await expect(server.createMessage({ messages: [], maxTokens: 1 })).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
    await expect(server.listRoots()).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
    await expect(server.notifyToolListChanged()).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
    await expect(client.notifyRootsListChanged()).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
    expect(await client.listTools()).toEqual({ tools: [] });
  });

  it('delivers a declared list-changed notification to the client handler', async () => {
    const { client, server, connect } = await pair({ capabilities: { tools: { listChanged: true } } });
    const received = new Promise<void>((resolve) => client.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
    await connect();
    await server.notifyToolListChanged();
    await received;
  });
});

describe('custom methods', () => {
  interface Query { q: string }
  interface Hits { hits: string[] }
  const isQuery = Object.assign((value: unknown): value is Query => typeof (value as Query | null)?.q === 'string', { errors: null });
  const isHits = Object.assign((value: unknown): value is Hits => Array.isArray((value as Hits | null)?.hits), { errors: null });
  const definition = { method: 'x-acme/search', params: isQuery, result: isHits, direction: 'client-to-server' as const, paramsRequired: true };

  it('sends and handles a typed method outside the schema, validating both ways', async () => {
    const { client, server, connect } = await pair();
    server.customRequest(definition).handle((params) => ({ hits: [params.q.toUpperCase()] }));
    const search = client.customRequest(definition);
    await connect();
    expect(await search.send({ q: 'mcp' })).toEqual({ hits: ['MCP'] });
    const bad = await search.send({ q: 5 } as unknown as Query).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(SdkError);
    const seen: string[] = [];
    server.customNotification({ method: 'x-acme/poke', params: isQuery, direction: 'client-to-server' }).handle((params) => {
      seen.push(params.q);
    });
    await client.customNotification({ method: 'x-acme/poke', params: isQuery, direction: 'client-to-server' }).send({ q: 'poke' });
    await client.ping();
    expect(seen).toEqual(['poke']);
  });

  it('answers a custom request the server never registered with METHOD_NOT_FOUND', async () => {
    const { client, connect } = await pair();
    const search = client.customRequest(definition);
    await connect();
    await expect(search.send({ q: 'x' })).rejects.toMatchObject({ code: -32601 });
  });
});
