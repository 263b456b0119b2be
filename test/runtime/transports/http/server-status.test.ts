// The HTTP status rules of the Streamable HTTP server, exercised through the Fetch core (no
// sockets): sessions, headers, body checks, JSON-RPC error bodies, stateless mode.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callTool, createRig, hangStarted, initializeRequest, POST_HEADERS, SseReader, messageOf, type Rig } from './server-support.js';

let rig: Rig;
afterEach(async () => {
  await rig?.mcp.close();
});

async function errorBody(response: Response): Promise<{ id: unknown; error: { code: number; message: string } }> {
  expect(response.headers.get('content-type')).toBe('application/json');
  return (await response.json()) as { id: unknown; error: { code: number; message: string } };
}

describe('sessions', () => {
  it('mints a random session id on initialize and requires it afterwards', async () => {
    rig = createRig();
    const first = await rig.post(initializeRequest('2025-11-25'));
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json');
    const id = first.headers.get('mcp-session-id')!;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(((await first.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe('2025-11-25');
    const second = await rig.post(initializeRequest('2025-11-25'));
    expect(second.headers.get('mcp-session-id')).not.toBe(id);
    expect(rig.mcp.sessions.size).toBe(2);
    expect(rig.mcp.sessions.get(id)).toMatchObject({ id, transport: 'streamable-http', protocolVersion: '2025-11-25' });

    const missing = await rig.post(callTool(1, 'echo', { text: 'x' }));
    expect(missing.status).toBe(400);
    expect((await errorBody(missing)).error.code).toBe(-32000);
    const forged = await rig.post(callTool(1, 'echo', { text: 'x' }), { 'mcp-session-id': 'forged-session' });
    expect(forged.status).toBe(404);
    expect(await errorBody(forged)).toMatchObject({ id: null, error: { code: -32001 } });
  });

  it('ends a session on DELETE, after which its id is unknown', async () => {
    rig = createRig();
    const headers = await rig.open();
    const deleted = await rig.send('DELETE', headers);
    expect(deleted.status).toBe(204);
    expect(rig.mcp.sessions.size).toBe(0);
    expect((await rig.post(callTool(1, 'echo'), headers)).status).toBe(404);
    expect((await rig.send('GET', { ...headers, accept: 'text/event-stream' })).status).toBe(404);
    expect((await rig.send('DELETE', headers)).status).toBe(404);
    expect((await rig.send('DELETE', {})).status).toBe(400);
  });

  it('does not keep a session whose initialize failed', async () => {
    rig = createRig();
    const bad = await rig.post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } });
    expect(bad.status).toBe(200);
    expect(bad.headers.get('mcp-session-id')).toBeNull();
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32602);
    expect(rig.mcp.sessions.size).toBe(0);
  });

  it('answers an initialize sent on an existing session with a JSON-RPC error from that session', async () => {
    rig = createRig();
    const headers = await rig.open();
    const again = await rig.post(initializeRequest('2025-11-25', 5), headers);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { error: { message: string } }).error.message).toContain('already initialized');
  });

  it('requires Accept to admit both JSON and SSE on POST (406)', async () => {
    rig = createRig();
    for (const accept of [undefined, 'application/json', 'text/event-stream', 'application/json, text/event-stream;q=0']) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (accept !== undefined) headers.accept = accept;
      const response = await rig.send('POST', headers, JSON.stringify(initializeRequest('2025-11-25')));
      expect(response.status, String(accept)).toBe(406);
    }
    const wildcard = await rig.send('POST', { 'content-type': 'application/json', accept: '*/*' }, JSON.stringify(initializeRequest('2025-11-25')));
    expect(wildcard.status).toBe(200);
  });

  it('decides each Accept value on its own when acceptable and refused ones alternate', async () => {
    rig = createRig();
    const body = JSON.stringify(initializeRequest('2025-11-25'));
    for (const [accept, status] of [[POST_HEADERS.accept, 200], ['application/json', 406], [POST_HEADERS.accept, 200], ['text/event-stream', 406]] as const) {
      const response = await rig.send('POST', { 'content-type': 'application/json', accept }, body);
      expect(response.status, accept).toBe(status);
    }
  });

  it('requires Accept text/event-stream on GET (406)', async () => {
    rig = createRig();
    const headers = await rig.open();
    expect((await rig.send('GET', { ...headers, accept: 'application/json' })).status).toBe(406);
  });

  it('requires Content-Type application/json (415)', async () => {
    rig = createRig();
    const body = JSON.stringify(initializeRequest('2025-11-25'));
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const response = await rig.send('POST', { accept: POST_HEADERS.accept, 'content-type': type }, body);
      expect(response.status).toBe(415);
    }
    const withCharset = await rig.send('POST', { ...POST_HEADERS, 'content-type': 'application/json; charset=utf-8' }, body);
    expect(withCharset.status).toBe(200);
  });

  it('checks MCP-Protocol-Version after initialize; a missing header is accepted', async () => {
    rig = createRig();
    const headers = await rig.open('2025-06-18');
    const unsupported = await rig.post(callTool(1, 'echo'), { ...headers, 'mcp-protocol-version': '1999-01-01' });
    expect(unsupported.status).toBe(400);
    expect((await errorBody(unsupported)).error.message).toContain('1999-01-01');
    const mismatched = await rig.post(callTool(2, 'echo'), { ...headers, 'mcp-protocol-version': '2025-11-25' });
    expect(mismatched.status).toBe(400);
    const { 'mcp-protocol-version': _, ...withoutVersion } = headers;
    const headerless = await rig.post(callTool(3, 'echo', { text: 'ok' }), withoutVersion);
    expect(headerless.status).toBe(200);
  });

  it('answers unsupported methods with 405 and an Allow header', async () => {
    rig = createRig();
    const response = await rig.send('PUT', POST_HEADERS, '{}');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST, DELETE');
  });

  it('answers GET with 405 when the standalone stream is disabled', async () => {
    rig = createRig({ standaloneStream: false });
    const headers = await rig.open();
    expect((await rig.send('GET', { ...headers, accept: 'text/event-stream' })).status).toBe(405);
  });

  it('serves only the configured path', async () => {
    rig = createRig({ path: '/mcp' });
    expect((await rig.send('POST', POST_HEADERS, JSON.stringify(initializeRequest('2025-11-25')), '/other')).status).toBe(404);
  });
});

describe('bodies', () => {
  it('refuses bodies over maxBodyBytes with 413, declared or streamed', async () => {
    rig = createRig({ maxBodyBytes: 1024 });
    const big = JSON.stringify(callTool(1, 'echo', { text: 'x'.repeat(2000) }));
    const declared = await rig.send('POST', { ...POST_HEADERS, 'content-length': String(big.length) }, big);
    expect(declared.status).toBe(413);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(400)));
        controller.close();
      },
    });
    const streamed = await rig.mcp.fetch(
      new Request('http://localhost:3000/mcp', { method: 'POST', headers: POST_HEADERS, body: chunks, duplex: 'half' } as RequestInit),
    );
    expect(streamed.status).toBe(413);
  });

  it('answers malformed JSON with 400 and a -32700 body', async () => {
    rig = createRig();
    const response = await rig.post('{"jsonrpc": "2.0", ');
    expect(response.status).toBe(400);
    expect(await errorBody(response)).toMatchObject({ id: null, error: { code: -32700 } });
    const invalidUtf8 = await rig.mcp.fetch(new Request('http://localhost:3000/mcp', { method: 'POST', headers: POST_HEADERS, body: new Uint8Array([0x7b, 0xff, 0x7d]) }));
    expect(invalidUtf8.status).toBe(400);
    expect((await errorBody(invalidUtf8)).error.code).toBe(-32700);
  });

  it('answers invalid JSON-RPC with 400 and a -32600 body', async () => {
    rig = createRig();
    for (const body of [{ foo: 1 }, 42, [], { jsonrpc: '1.0', id: 1, method: 'x' }, { jsonrpc: '2.0', id: null, method: 'x' }]) {
      const response = await rig.post(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorBody(response)).error.code).toBe(-32600);
    }
    const withId = await rig.post({ jsonrpc: '1.0', id: 7, method: 'tools/list' });
    expect((await errorBody(withId)).id).toBe(7);
  });

  it('answers POSTed notifications and responses with 202 and no body', async () => {
    rig = createRig();
    const headers = await rig.open();
    const notification = await rig.post({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, headers);
    expect(notification.status).toBe(202);
    expect(await notification.text()).toBe('');
    const response = await rig.post({ jsonrpc: '2.0', id: 'unknown', result: {} }, headers);
    expect(response.status).toBe(202);
  });

  it('passes batches through where the negotiated revision allows them (2025-03-26 only)', async () => {
    rig = createRig();
    const old = await rig.open('2025-03-26');
    const batch = [callTool(1, 'echo', { text: 'a' }), { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, callTool(2, 'echo', { text: 'b' })];
    const answered = await rig.post(batch, old);
    expect(answered.status).toBe(200);
    const replies = (await answered.json()) as Array<{ id: number; result: { content: Array<{ text: string }> } }>;
    expect(replies.map((reply) => [reply.id, reply.result.content[0]!.text])).toEqual([[1, 'echo: a'], [2, 'echo: b']]);
    const notificationsOnly = await rig.post([{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }], old);
    expect(notificationsOnly.status).toBe(202);

    const newer = await rig.open('2025-06-18');
    const refused = await rig.post(batch, newer);
    expect(refused.status).toBe(400);
    expect((await errorBody(refused)).error.code).toBe(-32600);
    const initInBatch = await rig.post([initializeRequest('2025-03-26')]);
    expect(initInBatch.status).toBe(400);
  });

  it('refuses a request id that is still in flight in the session', async () => {
    rig = createRig();
    const headers = await rig.open();
    const started = hangStarted();
    const hanging = rig.post(callTool(9, 'hang'), headers);
    await started;
    const duplicate = await rig.post(callTool(9, 'echo'), headers);
    expect(duplicate.status).toBe(400);
    expect(await errorBody(duplicate)).toMatchObject({ id: 9, error: { code: -32600 } });
    await rig.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } }, headers);
    await rig.send('DELETE', headers);
    expect((await hanging).status).toBe(200);
  });
});

describe('stateless mode', () => {
  it('serves every POST with a fresh server and no session id', async () => {
    rig = createRig({ sessions: false });
    const init = await rig.post(initializeRequest('2025-06-18'));
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect((await rig.post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    const call = await rig.post(callTool(1, 'whoami', { tag: 'solo', steps: 2 }, 'p'), { 'mcp-protocol-version': '2025-06-18' });
    expect(call.headers.get('content-type')).toBe('text/event-stream');
    const events = await new SseReader(call.body).rest();
    expect(events.every((event) => event.id === undefined)).toBe(true);
    const final = messageOf(events[events.length - 1]!) as { result: { content: Array<{ text: string }> } };
    expect(final.result.content[0]!.text).toBe('solo@stateless');
    const headerless = await rig.post(callTool(2, 'echo', { text: 'x' }));
    expect(((await headerless.json()) as { result: unknown }).result).toBeDefined();
    expect((await rig.post(callTool(3, 'echo'), { 'mcp-protocol-version': '2030-01-01' })).status).toBe(400);
    expect((await rig.send('GET', { accept: 'text/event-stream' })).status).toBe(405);
    expect((await rig.send('DELETE', {})).status).toBe(405);
    expect(rig.mcp.sessions.size).toBe(0);
    expect(rig.mcp.stats()).toMatchObject({ connections: 0, timers: 0 });
  });
});

describe('closing the handler', () => {
  it('ends every session, answers pending requests, and refuses further requests with 503', async () => {
    rig = createRig();
    const headers = await rig.open();
    const started = hangStarted();
    const pending = rig.post(callTool(1, 'hang'), headers);
    const stream = await rig.send('GET', { ...headers, accept: 'text/event-stream' });
    const reader = new SseReader(stream.body);
    await started;
    expect(rig.mcp.stats()).toMatchObject({ sessions: 1, connections: 1, pendingRequests: 1 });
    await rig.mcp.close();
    const answer = (await (await pending).json()) as { id: number; error: { code: number } };
    expect(answer).toMatchObject({ id: 1, error: { code: -32000 } });
    await reader.rest();
    expect(rig.mcp.stats()).toEqual({ sessions: 0, connections: 0, timers: 0, pendingRequests: 0 });
    expect((await rig.post(initializeRequest('2025-11-25'))).status).toBe(503);
  });
});
