import { describe, expect, it } from 'vitest';
import { findTransportError, ProtocolError, SdkError, TransportError } from '../../../runtime/core/errors.js';
import { errorCode, JSONRPC_ERROR_CODES } from '../../../runtime/core/jsonrpc-codes.js';
import { createFakeRevision } from '../fixtures/fake-revision.js';

describe('ProtocolError', () => {
  it('converts to a JSON-RPC error object, with data only when set', () => {
    expect(new ProtocolError(-32000, 'boom').toJSON()).toEqual({ code: -32000, message: 'boom' });
    expect(new ProtocolError(-32000, 'boom', { a: 1 }).toJSON()).toEqual({ code: -32000, message: 'boom', data: { a: 1 } });
    expect(JSON.parse(JSON.stringify(new ProtocolError(1, 'x', [1])))).toEqual({ code: 1, message: 'x', data: [1] });
  });

  it('round-trips through fromError', () => {
    const error = ProtocolError.fromError({ code: -32602, message: 'bad', data: { issues: [] } });
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toBeInstanceOf(Error);
    expect([error.code, error.message, error.data]).toEqual([-32602, 'bad', { issues: [] }]);
  });

  it('does not trust malformed error objects from the peer', () => {
    const error = ProtocolError.fromError({ code: 'nope', message: 7 });
    expect(error.code).toBe(0);
    expect(error.message).toBe('Unknown error');
    expect(ProtocolError.fromError('text').message).toBe('Malformed error object');
  });
});

describe('SdkError', () => {
  it('carries a code, cause and data', () => {
    const cause = new Error('root');
    const error = new SdkError('REQUEST_TIMEOUT', 'too slow', { cause, data: { timeout: 5 } });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('SdkError');
    expect(error.code).toBe('REQUEST_TIMEOUT');
    expect(error.cause).toBe(cause);
    expect(error.data).toEqual({ timeout: 5 });
  });
});

describe('errorCode', () => {
  it('prefers the revision table and falls back to JSON-RPC 2.0 codes without a revision', () => {
    const revision = createFakeRevision({ errorCodes: { METHOD_NOT_FOUND: -39601 } });
    expect(errorCode(revision, 'METHOD_NOT_FOUND')).toBe(-39601);
    expect(errorCode(undefined, 'METHOD_NOT_FOUND')).toBe(JSONRPC_ERROR_CODES.METHOD_NOT_FOUND);
    expect(errorCode(undefined, 'PARSE_ERROR')).toBe(-32700);
  });
});

describe('TransportError', () => {
  it('carries the status and JSON-RPC error and is found through SdkError causes', () => {
    const rpcError = { code: -32602, message: 'bad' };
    const failure = new TransportError('POST failed', { status: 400, rpcError });
    const wrapped = new SdkError('SEND_FAILED', 'Failed to send x', { cause: failure });
    expect(findTransportError(wrapped)).toBe(failure);
    expect(findTransportError(wrapped)?.status).toBe(400);
    expect(findTransportError(wrapped)?.rpcError).toEqual(rpcError);
    expect(findTransportError(new Error('plain'))).toBeUndefined();
  });
});
