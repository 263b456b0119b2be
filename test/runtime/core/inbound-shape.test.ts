import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_NESTING_DEPTH, inspectInbound, nestingDepthOption } from '../../../runtime/core/inbound-shape.js';
import { Protocol } from '../../../runtime/core/protocol.js';
import { createFakeRevision } from '../fixtures/fake-revision.js';
import { connectedEngine, connectedPair, settle } from '../fixtures/engine-harness.js';

/** `depth` levels of `{ a: … }`. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < depth; level++) value = { a: value };
  return value;
}

describe('inspectInbound', () => {
  it('counts the message as level 1 and names the first value one level too deep', () => {
    expect(inspectInbound({ params: nested(4) }, 5)).toBeUndefined();
    expect(inspectInbound({ params: nested(5) }, 5)).toEqual({ member: 'params', path: '/a/a/a/a' });
    expect(inspectInbound({ params: { list: [1, [2, [3]]] } }, 3)).toEqual({ member: 'params', path: '/list/1' });
  });

  it('walks a 100,000-deep value without overflowing, since it stops at the limit', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown[];
    expect(inspectInbound({ result: deep }, DEFAULT_MAX_NESTING_DEPTH)?.path).toBe('/0'.repeat(DEFAULT_MAX_NESTING_DEPTH - 1));
  });

  it('escapes pointer segments and cuts long ones', () => {
    const key = `a/b~${'x'.repeat(100)}`;
    expect(inspectInbound({ params: { [key]: {} } }, 2)?.path).toBe(`/a~1b~0${'x'.repeat(28)}…`);
  });

  it('drops own __proto__ keys and object-valued constructor keys at every level, and keeps the rest', () => {
    const value = JSON.parse('{"params":{"__proto__":{"x":1},"list":[{"constructor":{"prototype":{}},"__proto__":2,"k":1}],"constructor":"text"}}');
    expect(inspectInbound(value, 10)).toBeUndefined();
    expect(value).toEqual({ params: { list: [{ k: 1 }], constructor: 'text' } });
    expect(Object.keys(value.params)).toEqual(['list', 'constructor']);
  });

  it('accepts a maxNestingDepth from 2 to 1,000 and refuses others', () => {
    expect(nestingDepthOption(undefined)).toBe(100);
    expect(nestingDepthOption(2)).toBe(2);
    expect(nestingDepthOption(1_000)).toBe(1_000);
    for (const bad of [1, 1_001, 2.5, Number.NaN]) {
      expect(() => nestingDepthOption(bad)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
      expect(() => new Protocol({ side: 'server', revision: createFakeRevision(), maxNestingDepth: bad })).toThrow(/maxNestingDepth/);
    }
  });
});

describe('the engine with a nesting limit', () => {
  it('refuses a deep request with -32602 before its handler runs, under the configured limit', async () => {
    const { protocol, transport } = await connectedEngine({ maxNestingDepth: 6 });
    let ran = 0;
    protocol.setRequestHandler('ping', () => {
      ran++;
      return {};
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'ping', params: nested(6) });
    expect(await transport.nextMessage()).toMatchObject({ id: 1, error: { code: -32602, message: 'Invalid params for ping: /a/a/a/a/a nests deeper than 6 levels' } });
    transport.deliver({ jsonrpc: '2.0', id: 2, method: 'ping', params: nested(5) });
    expect(await transport.nextMessage()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect(ran).toBe(1);
  });

  it('refuses depth outside params as an invalid request', async () => {
    const { transport } = await connectedEngine({ maxNestingDepth: 3 });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'ping', extra: nested(3) });
    expect(await transport.nextMessage()).toMatchObject({ id: 1, error: { code: -32600, message: 'Invalid Request: extra/a/a nests deeper than 3 levels' } });
  });

  it('drops a deep notification and reports it', async () => {
    const { protocol, transport, errors } = await connectedEngine({ maxNestingDepth: 4 });
    let seen = 0;
    protocol.setNotificationHandler('notifications/initialized', () => {
      seen++;
    });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/initialized', params: nested(4) });
    await settle();
    expect(seen).toBe(0);
    expect(errors.map((error) => error.message)).toEqual(['Dropped notification notifications/initialized: params/a/a/a nests deeper than 4 levels']);
  });

  it('fails the request a deep response answers, at once', async () => {
    const { client, server } = await connectedPair({ maxNestingDepth: 5 });
    server.setRequestHandler('ping', () => nested(5));
    await expect(client.request('ping')).rejects.toMatchObject({ code: 'INVALID_RESULT', message: 'The response to ping nests deeper than 5 levels at result/a/a/a/a' });
    expect(client.pendingRequestCount).toBe(0);
  });
});
