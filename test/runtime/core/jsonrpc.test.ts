import { describe, expect, it } from 'vitest';
import { classifyMessage, isRequestId } from '../../../runtime/core/jsonrpc.js';

describe('classifyMessage', () => {
  it('treats method + id as a request', () => {
    const result = classifyMessage({ jsonrpc: '2.0', id: 7, method: 'ping' });
    expect(result).toEqual({ kind: 'request', message: { jsonrpc: '2.0', id: 7, method: 'ping' } });
  });

  it('accepts string ids', () => {
    expect(classifyMessage({ jsonrpc: '2.0', id: 'abc', method: 'ping', params: {} }).kind).toBe('request');
  });

  it('treats method without id as a notification', () => {
    expect(classifyMessage({ jsonrpc: '2.0', method: 'notifications/x' }).kind).toBe('notification');
  });

  it('treats id + result and id + error as responses', () => {
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, result: {} }).kind).toBe('response');
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } }).kind).toBe('response');
    expect(classifyMessage({ jsonrpc: '2.0', id: null, error: { code: -1, message: 'x' } }).kind).toBe('response');
  });

  it('does not consult any schema: unknown methods and odd result values still classify', () => {
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, method: 'no/such/method', params: [1, 2] }).kind).toBe('request');
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, result: 42 }).kind).toBe('response');
  });

  it.each([
    ['a bare jsonrpc member', { jsonrpc: '2.0' }, null],
    ['a non-object', 42, null],
    ['an array inside a batch position', [], null],
    ['null', null, null],
    ['a wrong jsonrpc version with a usable id', { jsonrpc: '1.0', id: 3, method: 'ping' }, 3],
    ['a missing jsonrpc member', { id: 'q', method: 'ping' }, 'q'],
    ['a non-string method', { jsonrpc: '2.0', id: 4, method: 5 }, 4],
    ['scalar params', { jsonrpc: '2.0', id: 5, method: 'ping', params: 'x' }, 5],
    ['null params', { jsonrpc: '2.0', method: 'ping', params: null }, null],
    ['a null request id', { jsonrpc: '2.0', id: null, method: 'ping' }, null],
    ['an object id', { jsonrpc: '2.0', id: {}, method: 'ping' }, null],
    ['both result and error', { jsonrpc: '2.0', id: 6, result: {}, error: { code: 1, message: 'm' } }, 6],
    ['a malformed error object', { jsonrpc: '2.0', id: 8, error: { code: 'x', message: 'm' } }, 8],
    ['a result with a null id', { jsonrpc: '2.0', id: null, result: {} }, null],
    ['an id alone', { jsonrpc: '2.0', id: 9 }, 9],
  ])('classifies %s as invalid and keeps only a usable id', (_label, value, id) => {
    const result = classifyMessage(value);
    expect(result.kind).toBe('invalid');
    expect(result).toMatchObject({ id });
    expect((result as { reason: string }).reason.length).toBeGreaterThan(0);
  });
});

describe('isRequestId', () => {
  it('accepts strings and finite numbers only', () => {
    expect(isRequestId('a')).toBe(true);
    expect(isRequestId(0)).toBe(true);
    expect(isRequestId(Number.NaN)).toBe(false);
    expect(isRequestId(null)).toBe(false);
    expect(isRequestId(undefined)).toBe(false);
  });
});
