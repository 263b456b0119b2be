import { describe, expect, it, vi } from 'vitest';
import type { Validator } from '../../../runtime/core/contract.js';
import { ProtocolError, SdkError } from '../../../runtime/core/errors.js';
import { Protocol } from '../../../runtime/core/protocol.js';
import { INBOUND_BACKLOG_LIMIT } from '../../../runtime/core/inbound-queue.js';
import { JSONRPC_ERROR_CODES } from '../../../runtime/core/jsonrpc-codes.js';
import { ParseFailure } from '../../../runtime/core/wire-format.js';
import { connectedEngine, settle } from '../fixtures/engine-harness.js';
import { createFakeRevision, objectValidator } from '../fixtures/fake-revision.js';
import { ScriptedTransport } from '../fixtures/scripted-transport.js';

const toolsCall = (id: number | string, params?: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });

describe('Protocol: incoming requests', () => {
  it('answers a request with its handler result, tagged with the request id for routing', async () => {
    const { protocol, transport } = await connectedEngine();
    protocol.setRequestHandler('tools/call', (params) => ({ content: [{ type: 'text', text: String(params?.name) }] }));
    transport.deliver(toolsCall(4, { name: 'echo' }));
    const frame = await transport.next();
    expect(frame.message).toEqual({ jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: 'echo' }] } });
    expect(frame.options).toMatchObject({ relatedRequestId: 4 });
  });

  it('answers with an empty object when the handler returns undefined', async () => {
    const { protocol, transport } = await connectedEngine();
    protocol.setRequestHandler('ping', () => undefined);
    transport.deliver({ jsonrpc: '2.0', id: 'p', method: 'ping' });
    expect(await transport.nextMessage()).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
  });

  it.each([
    ['a method of no table', { jsonrpc: '2.0', id: 1, method: 'no/such' }, undefined],
    ['a known method without a handler', { jsonrpc: '2.0', id: 1, method: 'ping' }, undefined],
    ['an embedded method', { jsonrpc: '2.0', id: 1, method: 'input/embedded' }, 'input/embedded'],
    ['a method only the server may send', { jsonrpc: '2.0', id: 1, method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } }, 'sampling/createMessage'],
    ['a notification method sent as a request', { jsonrpc: '2.0', id: 1, method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }, 'notifications/progress'],
  ])('answers %s with METHOD_NOT_FOUND and keeps serving', async (_label, message, handled) => {
    const { protocol, transport } = await connectedEngine();
    const handler = vi.fn(() => ({}));
    if (handled !== undefined) {
      protocol.setRequestHandler(handled, handler);
    }
    transport.deliver(message);
    const reply = await transport.nextMessage();
    expect(reply).toMatchObject({ id: 1, error: { code: -32601 } });
    expect(reply.error.message).toContain(message.method);
    expect(handler).not.toHaveBeenCalled();
    protocol.setRequestHandler('ping', () => ({}));
    transport.deliver({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(await transport.nextMessage()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('answers invalid params with INVALID_PARAMS naming the field and carrying the paths', async () => {
    const { protocol, transport } = await connectedEngine();
    const handler = vi.fn(() => ({ content: [] }));
    protocol.setRequestHandler('tools/call', handler);
    transport.deliver(toolsCall(1, { name: 5 }));
    const reply = await transport.nextMessage();
    expect(reply.error.code).toBe(-32602);
    expect(reply.error.message).toBe('Invalid params for tools/call: /name must be string');
    expect(reply.error.data).toEqual({ issues: [{ path: '/name', message: 'must be string', keyword: 'type' }] });
    expect(handler).not.toHaveBeenCalled();
  });

  it('names a missing required property and missing required params', async () => {
    const { protocol, transport } = await connectedEngine();
    protocol.setRequestHandler('tools/call', () => ({ content: [] }));
    transport.deliver(toolsCall(1, {}));
    const missingField = await transport.nextMessage();
    expect(missingField.error.code).toBe(-32602);
    expect(missingField.error.message).toBe("Invalid params for tools/call: params must have required property 'name'");
    transport.deliver({ jsonrpc: '2.0', id: 2, method: 'tools/call' });
    const missingParams = await transport.nextMessage();
    expect(missingParams.error).toMatchObject({ code: -32602, message: 'Invalid params for tools/call: params is required' });
    expect(missingParams.error.data.issues[0]).toMatchObject({ path: '', keyword: 'required' });
  });

  it('skips the params validator when optional params are absent', async () => {
    const params = vi.fn(() => true) as unknown as Validator;
    const { protocol, transport } = await connectedEngine();
    protocol.registerCustomRequest('x/optional', { params, result: objectValidator({}), direction: 'both' });
    protocol.setRequestHandler('x/optional', () => ({}));
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x/optional' });
    expect(await transport.nextMessage()).toMatchObject({ id: 1, result: {} });
    expect(params).not.toHaveBeenCalled();
    transport.deliver({ jsonrpc: '2.0', id: 2, method: 'x/optional', params: { a: 1 } });
    await transport.next();
    expect(params).toHaveBeenCalledWith({ a: 1 });
  });

  it('answers a thrown ProtocolError with exactly that error', async () => {
    const { protocol, transport } = await connectedEngine();
    protocol.setRequestHandler('tools/call', () => {
      throw new ProtocolError(-32042, 'custom failure', { hint: 'x' });
    });
    transport.deliver(toolsCall(1, { name: 'a' }));
    expect(await transport.nextMessage()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32042, message: 'custom failure', data: { hint: 'x' } },
    });
  });

  it('answers any other thrown value with INTERNAL_ERROR carrying its message', async () => {
    const { protocol, transport } = await connectedEngine();
    protocol.setRequestHandler('tools/call', async (params) => {
      await Promise.resolve();
      if (params?.name === 'string') {
        throw 'plain string';
      }
      throw new TypeError('handler bug');
    });
    transport.deliver(toolsCall(1, { name: 'error' }));
    expect((await transport.nextMessage()).error).toEqual({ code: -32603, message: 'handler bug' });
    transport.deliver(toolsCall(2, { name: 'string' }));
    expect((await transport.nextMessage()).error).toEqual({ code: -32603, message: 'plain string' });
  });

  it('answers an invalid handler result with INTERNAL_ERROR and reports it', async () => {
    const { protocol, transport, errors } = await connectedEngine();
    protocol.setRequestHandler('tools/call', () => ({ content: 'not an array' }));
    transport.deliver(toolsCall(1, { name: 'a' }));
    const reply = await transport.nextMessage();
    expect(reply.error.code).toBe(-32603);
    expect(reply.error.message).toContain('/content must be array');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'INVALID_RESULT' });
  });

  it('lets invalid handler results through when validateOutgoing is false', async () => {
    const { protocol, transport } = await connectedEngine({ validateOutgoing: false });
    protocol.setRequestHandler('tools/call', () => ({ content: 'not an array' }));
    transport.deliver(toolsCall(1, { name: 'a' }));
    expect(await transport.nextMessage()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: 'not an array' } });
  });

  it('passes invalid params to the handler when validate is false', async () => {
    const { protocol, transport } = await connectedEngine({ validate: false });
    protocol.setRequestHandler('tools/call', (params) => ({ content: [params?.name] }));
    transport.deliver(toolsCall(1, { name: 5 }));
    expect(await transport.nextMessage()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [5] } });
  });

  it('rejects a second request reusing the id of one still in progress', async () => {
    const { protocol, transport } = await connectedEngine();
    let release!: () => void;
    protocol.setRequestHandler('ping', () => new Promise<object>((resolve) => {
      release = () => resolve({});
    }));
    transport.deliver({ jsonrpc: '2.0', id: 9, method: 'ping' });
    transport.deliver({ jsonrpc: '2.0', id: 9, method: 'ping' });
    expect(await transport.nextMessage()).toMatchObject({ id: 9, error: { code: -32600 } });
    release();
    expect(await transport.nextMessage()).toEqual({ jsonrpc: '2.0', id: 9, result: {} });
  });

  it('gives the handler its context: id, _meta and transport extra', async () => {
    const { protocol, transport } = await connectedEngine();
    const seen = vi.fn();
    protocol.setRequestHandler('tools/call', (_params, context) => {
      seen(context.requestId, context._meta, context.extra, context.method, context.signal.aborted);
      return { content: [] };
    });
    transport.deliver(toolsCall('r1', { name: 'a', _meta: { trace: 't' } }), { sessionId: 's-1' });
    await transport.next();
    expect(seen).toHaveBeenCalledWith('r1', { trace: 't' }, { sessionId: 's-1' }, 'tools/call', false);
  });

  it('runs the incoming middlewares around a handler unless its registration says the handler runs them, until it is replaced or removed', async () => {
    const { protocol, transport } = await connectedEngine();
    const passes: string[] = [];
    protocol.middleware.use({ incoming: (call, next) => { passes.push(call.method); return next(call.params); } });
    protocol.setRequestHandler('tools/call', () => ({ content: [] }), { runsMiddleware: true });
    transport.deliver(toolsCall(1, { name: 'a' }));
    await transport.next();
    expect(passes).toEqual([]);
    // A plain handler registered over it gets the chain from the engine again.
    protocol.setRequestHandler('tools/call', () => ({ content: [] }));
    transport.deliver(toolsCall(2, { name: 'a' }));
    await transport.next();
    expect(passes).toEqual(['tools/call']);
    protocol.setRequestHandler('tools/call', () => ({ content: [] }), { runsMiddleware: true });
    protocol.removeRequestHandler('tools/call');
    protocol.setRequestHandler('tools/call', () => ({ content: [] }));
    transport.deliver(toolsCall(3, { name: 'a' }));
    await transport.next();
    expect(passes).toEqual(['tools/call', 'tools/call']);
  });
});

describe('Protocol: malformed input', () => {
  it('answers an undecodable frame with PARSE_ERROR and id null', async () => {
    const { transport } = await connectedEngine();
    transport.deliverText('{"jsonrpc": "2.0", "id": 1, "method": ');
    const reply = await transport.nextMessage();
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('answers an oversized frame with INVALID_REQUEST and id null', async () => {
    const { transport } = await connectedEngine();
    transport.deliver(new ParseFailure('oversized', 'message exceeds the 10-byte line limit'));
    expect(await transport.nextMessage()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: message exceeds the 10-byte line limit' },
    });
  });

  it('fails the pending request an oversized response names, and answers the peer nothing', async () => {
    const { protocol, transport, errors } = await connectedEngine({ side: 'client' });
    const pending = protocol.request('ping', {}).catch((error: unknown) => error);
    const sent = await transport.nextMessage();
    const oversized = { limit: 10, head: { id: sent.id, method: undefined, response: true } };
    transport.deliver(new ParseFailure('oversized', 'message exceeds the 10-byte line limit', oversized));
    expect(await pending).toMatchObject({ code: 'MESSAGE_TOO_LARGE', data: { id: sent.id, limit: 10 } });
    // A second one for an id no longer pending is reported, not answered.
    transport.deliver(new ParseFailure('oversized', 'message exceeds the 10-byte line limit', oversized));
    await settle();
    expect(errors).toMatchObject([{ code: 'MESSAGE_TOO_LARGE' }]);
    expect(transport.sent).toHaveLength(1);
  });

  it('answers structurally invalid messages with INVALID_REQUEST, echoing a usable id', async () => {
    const { transport } = await connectedEngine();
    transport.deliver({ jsonrpc: '2.0' });
    expect(await transport.nextMessage()).toMatchObject({ id: null, error: { code: -32600 } });
    transport.deliver({ jsonrpc: '1.0', id: 3, method: 'ping' });
    expect(await transport.nextMessage()).toMatchObject({ id: 3, error: { code: -32600 } });
  });

  it('takes every error code from the bound revision', async () => {
    const revision = createFakeRevision({
      errorCodes: { PARSE_ERROR: -1, INVALID_REQUEST: -2, METHOD_NOT_FOUND: -3, INVALID_PARAMS: -4, INTERNAL_ERROR: -5 },
    });
    const { protocol, transport } = await connectedEngine({ revision });
    protocol.setRequestHandler('tools/call', () => {
      throw new Error('x');
    });
    transport.deliverText('nope');
    transport.deliver({ jsonrpc: '2.0' });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'no/such' });
    transport.deliver(toolsCall(2, {}));
    transport.deliver(toolsCall(3, { name: 'a' }));
    const codes = [];
    for (let i = 0; i < 5; i += 1) {
      codes.push((await transport.nextMessage()).error.code);
    }
    expect(codes).toEqual([-1, -2, -3, -4, -5]);
  });

  it('falls back to the JSON-RPC 2.0 codes before a revision is bound', async () => {
    const { transport } = await connectedEngine({ revision: undefined });
    transport.deliverText('nope');
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect((await transport.nextMessage()).error.code).toBe(-32700);
    expect((await transport.nextMessage()).error.code).toBe(-32601);
  });
});

describe('Protocol: outgoing requests and incoming responses', () => {
  it('numbers requests with unique integers and resolves with the result', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    const first = protocol.request('ping');
    const second = protocol.request('tools/call', { name: 'x' });
    const a = await transport.nextMessage();
    const b = await transport.nextMessage();
    expect(Number.isInteger(a.id) && Number.isInteger(b.id)).toBe(true);
    expect(a.id).not.toBe(b.id);
    expect(b).toEqual({ jsonrpc: '2.0', id: b.id, method: 'tools/call', params: { name: 'x' } });
    transport.deliver({ jsonrpc: '2.0', id: b.id, result: { content: [1] } });
    transport.deliver({ jsonrpc: '2.0', id: a.id, result: {} });
    await expect(second).resolves.toEqual({ content: [1] });
    await expect(first).resolves.toEqual({});
    expect(protocol.pendingRequestCount).toBe(0);
  });

  it('resolves with what finish makes of the validated result, rejects when it throws, and follows a promise it returns', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    const seen: unknown[] = [];
    const mapped = protocol.request('ping', undefined, {}, (result) => {
      seen.push(result);
      return { wrapped: result };
    });
    const refused = protocol.request('ping', undefined, { signal: new AbortController().signal }, () => {
      throw new SdkError('INVALID_RESULT', 'not what the caller wanted');
    });
    const followed = protocol.request('ping', undefined, {}, () => Promise.resolve('later'));
    const invalid = protocol.request('tools/call', { name: 'x' }, {}, (result) => {
      seen.push(result);
      return result;
    });
    const ids = [];
    for (let index = 0; index < 4; index++) ids.push((await transport.nextMessage()).id);
    transport.deliver({ jsonrpc: '2.0', id: ids[0], result: { n: 1 } });
    transport.deliver({ jsonrpc: '2.0', id: ids[1], result: {} });
    transport.deliver({ jsonrpc: '2.0', id: ids[2], result: {} });
    transport.deliver({ jsonrpc: '2.0', id: ids[3], result: { content: 7 } });
    await expect(mapped).resolves.toEqual({ wrapped: { n: 1 } });
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_RESULT', message: 'not what the caller wanted' });
    await expect(followed).resolves.toBe('later');
    // An invalid result never reaches finish.
    await expect(invalid).rejects.toMatchObject({ code: 'INVALID_RESULT', message: 'Invalid result for tools/call: /content must be array' });
    expect(seen).toEqual([{ n: 1 }]);
    expect(protocol.pendingRequestCount).toBe(0);
  });

  it('rejects with a ProtocolError when the peer answers with an error', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    const pending = protocol.request('ping');
    const { id } = await transport.nextMessage();
    transport.deliver({ jsonrpc: '2.0', id, error: { code: -32000, message: 'nope', data: [1] } });
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32000, message: 'nope', data: [1] });
  });

  it('rejects an invalid result with INVALID_RESULT carrying the paths', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    const pending = protocol.request('tools/call', { name: 'x' });
    const { id } = await transport.nextMessage();
    transport.deliver({ jsonrpc: '2.0', id, result: { content: 7 } });
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ code: 'INVALID_RESULT', message: 'Invalid result for tools/call: /content must be array' });
    expect((error as SdkError).data).toEqual({ issues: [{ path: '/content', message: 'must be array', keyword: 'type' }] });
  });

  it('resolves with an unchecked result when validate is false', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client', validate: false });
    const pending = protocol.request('tools/call', { name: 'x' });
    const { id } = await transport.nextMessage();
    transport.deliver({ jsonrpc: '2.0', id, result: { content: 7 } });
    await expect(pending).resolves.toEqual({ content: 7 });
  });

  it('reports and drops responses to unknown ids without answering them', async () => {
    const { protocol, transport, errors } = await connectedEngine({ side: 'client' });
    transport.deliver({ jsonrpc: '2.0', id: 999, result: {} });
    transport.deliver({ jsonrpc: '2.0', id: 'abc', error: { code: 1, message: 'x' } });
    await settle();
    expect(errors.map((e) => (e as SdkError).code)).toEqual(['UNEXPECTED_RESPONSE', 'UNEXPECTED_RESPONSE']);
    expect(transport.sent).toHaveLength(0);
    const pending = protocol.request('ping');
    const { id } = await transport.nextMessage();
    transport.deliver({ jsonrpc: '2.0', id, result: {} });
    await expect(pending).resolves.toEqual({});
  });

  it('reports an error response without id (the peer could not read something we sent)', async () => {
    const { transport, errors } = await connectedEngine({ side: 'client' });
    transport.deliver({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    await settle();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ProtocolError);
    expect(errors[0]!.message).toContain('Parse error');
    expect(transport.sent).toHaveLength(0);
  });

  it('refuses locally what the table does not allow this side to send', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    await expect(protocol.request('no/such')).rejects.toMatchObject({ code: 'UNKNOWN_METHOD' });
    await expect(protocol.request('input/embedded')).rejects.toMatchObject({ code: 'UNKNOWN_METHOD' });
    await expect(protocol.request('notifications/progress')).rejects.toMatchObject({ code: 'UNKNOWN_METHOD' });
    await expect(protocol.request('sampling/createMessage', { messages: [], maxTokens: 1 })).rejects.toMatchObject({
      code: 'WRONG_DIRECTION',
    });
    await expect(protocol.notification('notifications/message', { level: 'info', data: 1 })).rejects.toMatchObject({
      code: 'WRONG_DIRECTION',
    });
    expect(transport.sent).toHaveLength(0);
  });

  it('validates outgoing params unless validateOutgoing is false', async () => {
    const strict = await connectedEngine({ side: 'client' });
    const error = await strict.protocol.request('tools/call', { name: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_PARAMS', message: 'Invalid params for tools/call: /name must be string' });
    await expect(strict.protocol.notification('notifications/progress', { progress: 1 })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
    });
    expect(strict.transport.sent).toHaveLength(0);
    const loose = await connectedEngine({ side: 'client', validateOutgoing: false });
    void loose.protocol.request('tools/call', { name: 1 }).catch(() => undefined);
    expect((await loose.transport.nextMessage()).params).toEqual({ name: 1 });
  });

  it('rejects with NOT_CONNECTED before connect and SEND_FAILED when the transport fails', async () => {
    const idle = new Protocol({ side: 'client', revision: createFakeRevision() });
    await expect(idle.request('ping')).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    await expect(idle.notification('notifications/initialized')).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    transport.sendError = new Error('pipe broke');
    const error = await protocol.request('ping').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SEND_FAILED' });
    expect((error as Error).message).toContain('pipe broke');
    expect(protocol.pendingRequestCount).toBe(0);
    await expect(protocol.notification('notifications/initialized')).rejects.toMatchObject({ code: 'SEND_FAILED' });
  });

  it('refuses a second transport while connected', async () => {
    const { protocol } = await connectedEngine();
    await expect(protocol.connect(new ScriptedTransport())).rejects.toMatchObject({ code: 'ALREADY_CONNECTED' });
  });
});

describe('Protocol: incoming notifications', () => {
  it('delivers valid notifications to their handler', async () => {
    const { protocol, transport } = await connectedEngine();
    const handler = vi.fn();
    protocol.setNotificationHandler('notifications/initialized', handler);
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/initialized', params: { _meta: { m: 1 } } });
    await settle();
    expect(handler).toHaveBeenCalledWith({ _meta: { m: 1 } }, { method: 'notifications/initialized', _meta: { m: 1 }, extra: undefined });
  });

  it.each([
    ['invalid params', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1 } }, 'INVALID_NOTIFICATION'],
    ['missing required params', { jsonrpc: '2.0', method: 'notifications/progress' }, 'INVALID_NOTIFICATION'],
    ['an unknown method', { jsonrpc: '2.0', method: 'notifications/unknown' }, 'UNKNOWN_METHOD'],
    ['a method the peer may not send', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'x', data: 1 } }, 'UNKNOWN_METHOD'],
  ])('drops and reports %s without answering', async (_label, message, code) => {
    const { protocol, transport, errors } = await connectedEngine();
    const handler = vi.fn();
    protocol.setNotificationHandler(message.method, handler);
    transport.deliver(message);
    await settle();
    expect(handler).not.toHaveBeenCalled();
    expect(errors.map((e) => (e as SdkError).code)).toEqual([code]);
    expect(transport.sent).toHaveLength(0);
  });

  it('reports a throwing notification handler as HANDLER_FAILED naming the method, with what it threw as the cause', async () => {
    const { protocol, transport, errors } = await connectedEngine();
    const thrown = new Error('handler broke');
    protocol.setNotificationHandler('notifications/initialized', async () => {
      throw thrown;
    });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await settle();
    expect(errors.map((e) => e.message)).toEqual(['The notifications/initialized handler failed: handler broke']);
    expect((errors[0] as SdkError).code).toBe('HANDLER_FAILED');
    expect((errors[0] as SdkError).data).toEqual({ method: 'notifications/initialized', requestId: undefined });
    expect(errors[0]!.cause).toBe(thrown);
    expect(transport.sent).toHaveLength(0);
  });
});

describe('Protocol: custom methods', () => {
  const customParams = objectValidator({ query: { type: 'string', required: true } });
  const customResult = objectValidator({ hits: { type: 'number', required: true } });

  it('dispatches and validates an incoming custom request', async () => {
    const { protocol, transport } = await connectedEngine();
    protocol.registerCustomRequest('x/search', { params: customParams, result: customResult, direction: 'client-to-server' });
    protocol.setRequestHandler('x/search', (params) => ({ hits: String(params?.query).length }));
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x/search', params: { query: 'abc' } });
    expect(await transport.nextMessage()).toEqual({ jsonrpc: '2.0', id: 1, result: { hits: 3 } });
    transport.deliver({ jsonrpc: '2.0', id: 2, method: 'x/search', params: { query: 1 } });
    expect((await transport.nextMessage()).error).toMatchObject({ code: -32602, message: 'Invalid params for x/search: /query must be string' });
  });

  it('sends a custom request and validates its result', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    protocol.registerCustomRequest('x/search', { params: customParams, result: customResult, direction: 'client-to-server' });
    const good = protocol.request('x/search', { query: 'a' });
    transport.deliver({ jsonrpc: '2.0', id: (await transport.nextMessage()).id, result: { hits: 2 } });
    await expect(good).resolves.toEqual({ hits: 2 });
    const bad = protocol.request('x/search', { query: 'a' });
    transport.deliver({ jsonrpc: '2.0', id: (await transport.nextMessage()).id, result: {} });
    await expect(bad).rejects.toMatchObject({ code: 'INVALID_RESULT' });
  });

  it('honours the custom direction', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    protocol.registerCustomRequest('x/search', { params: customParams, result: customResult, direction: 'client-to-server' });
    protocol.setRequestHandler('x/search', () => ({ hits: 0 }));
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x/search', params: { query: 'a' } });
    expect((await transport.nextMessage()).error.code).toBe(-32601);
  });

  it('supports custom notifications', async () => {
    const { protocol, transport, errors } = await connectedEngine();
    protocol.registerCustomNotification('x/changed', { params: customParams, direction: 'both' });
    const handler = vi.fn();
    protocol.setNotificationHandler('x/changed', handler);
    transport.deliver({ jsonrpc: '2.0', method: 'x/changed', params: { query: 'q' } });
    transport.deliver({ jsonrpc: '2.0', method: 'x/changed', params: { query: 2 } });
    await settle();
    expect(handler).toHaveBeenCalledTimes(1);
    expect(errors.map((e) => (e as SdkError).code)).toEqual(['INVALID_NOTIFICATION']);
    await protocol.notification('x/changed', { query: 'out' });
    expect(await transport.nextMessage()).toEqual({ jsonrpc: '2.0', method: 'x/changed', params: { query: 'out' } });
  });

  it('refuses names the revision or an earlier registration already uses', () => {
    const protocol = new Protocol({ side: 'server', revision: createFakeRevision() });
    expect(() => protocol.registerCustomRequest('tools/call', { params: customParams, result: customResult, direction: 'both' })).toThrow(
      /defined by revision/,
    );
    protocol.registerCustomNotification('x/a', { params: customParams, direction: 'both' });
    expect(() => protocol.registerCustomNotification('x/a', { params: customParams, direction: 'both' })).toThrow(/already registered/);
    expect(protocol.unregisterCustomMethod('x/a')).toBe(true);
    expect(() => protocol.registerCustomNotification('x/a', { params: customParams, direction: 'both' })).not.toThrow();
  });
});

describe('Protocol: closing', () => {
  it('rejects pending requests, aborts running handlers and suppresses their replies on close()', async () => {
    const { protocol, transport } = await connectedEngine();
    const onclose = vi.fn();
    protocol.onclose = onclose;
    let handlerSignal: AbortSignal | undefined;
    protocol.setRequestHandler('ping', (_params, context) => {
      handlerSignal = context.signal;
      return new Promise(() => undefined);
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await settle();
    const pending = protocol.request('ping');
    await transport.next();
    await protocol.close();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(handlerSignal?.aborted).toBe(true);
    expect(onclose).toHaveBeenCalledTimes(1);
    expect(protocol.transport).toBeUndefined();
    expect(transport.closed).toBe(true);
  });

  it('rejects pending requests with the transport close reason when the peer goes away', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client' });
    const pending = protocol.request('ping');
    await transport.next();
    transport.closeFromPeer(new Error('server process exited with code 3; stderr: boom'));
    const error = await pending.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect((error as Error).message).toBe('Connection closed: server process exited with code 3; stderr: boom');
    expect((error as Error).cause).toBe(transport.closeReason);
  });

  it('can connect again after closing', async () => {
    const { protocol, transport } = await connectedEngine();
    await protocol.close();
    const next = new ScriptedTransport();
    await protocol.connect(next);
    protocol.setRequestHandler('ping', () => ({}));
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'ping' });
    next.deliver({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(await next.nextMessage()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect(transport.sent).toHaveLength(0);
  });
});

describe('Protocol: what the transport learns with each message', () => {
  it('sends the bound revision facts and the tool schema hook with every outgoing message', async () => {
    const { protocol, transport } = await connectedEngine({ side: 'client', revision: createFakeRevision({ revision: '2099-02-02', batching: false }) });
    const schema = { type: 'object' };
    protocol.toolInputSchema = (name) => (name === 'echo' ? schema : undefined);
    void protocol.notification('notifications/initialized').catch(() => undefined);
    const frame = await transport.next();
    expect(frame.options?.revision).toMatchObject({ revision: '2099-02-02', era: 'stateful', batching: false });
    expect(frame.options?.toolInputSchema?.('echo')).toBe(schema);
    expect(frame.options?.relatedRequestId).toBeUndefined();
  });
});

describe('Protocol: messages held behind a revision load', () => {
  it('answers a request that finds the backlog full with an error, so it does not hang', async () => {
    const { protocol, transport } = await connectedEngine();
    protocol.onerror = () => undefined;
    let loading = true;
    // The first message starts a load that never ends: everything after it waits, up to the limit.
    protocol.prepareIncoming = () => (loading ? new Promise<never>(() => undefined) : undefined);
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/initialized' });
    loading = false;
    for (let id = 1; id <= INBOUND_BACKLOG_LIMIT + 1; id++) transport.deliver({ jsonrpc: '2.0', id, method: 'ping' });
    await settle();
    const answers = transport.sent.map((frame) => frame.message as { id?: unknown; error?: { code: number } });
    expect(answers).toEqual([{ jsonrpc: '2.0', id: INBOUND_BACKLOG_LIMIT + 1, error: expect.objectContaining({ code: JSONRPC_ERROR_CODES.INTERNAL_ERROR }) }]);
  });
});
