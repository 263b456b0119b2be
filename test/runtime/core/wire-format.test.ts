import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage, ParseFailure } from '../../../runtime/core/wire-format.js';

describe('wire format', () => {
  it('decodes JSON text into values without judging their shape', () => {
    expect(decodeMessage('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(decodeMessage('[1,2]')).toEqual([1, 2]);
    expect(decodeMessage('3')).toBe(3);
  });

  it('turns undecodable text into an invalid-json ParseFailure', () => {
    const failure = decodeMessage('{"jsonrpc":');
    expect(failure).toBeInstanceOf(ParseFailure);
    expect((failure as ParseFailure).kind).toBe('invalid-json');
    expect((failure as ParseFailure).detail).not.toBe('');
  });

  it('encodes compactly on one line', () => {
    const text = encodeMessage({ jsonrpc: '2.0', method: 'x', params: { text: 'a\nb' } });
    expect(text).not.toContain('\n');
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', method: 'x', params: { text: 'a\nb' } });
  });
});
