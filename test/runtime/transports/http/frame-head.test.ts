import { describe, expect, it } from 'vitest';
import { readFrameHead } from '../../../../runtime/transports/http/frame-head.js';

describe('readFrameHead', () => {
  it('reads the id of a response cut inside its result', () => {
    expect(readFrameHead('{"jsonrpc":"2.0","id":7,"result":{"pad":"xxxx')).toEqual({ id: 7, method: undefined, response: true });
    expect(readFrameHead(' { "id" : "a\\"b" , "error": {')).toEqual({ id: 'a"b', method: undefined, response: true });
  });

  it('reads the id and method of a request cut inside its params', () => {
    expect(readFrameHead('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"x')).toEqual({ id: 3, method: 'tools/call', response: false });
  });

  it('reads no id that the cut truncated or that comes after a structured member', () => {
    expect(readFrameHead('{"jsonrpc":"2.0","id":12')).toEqual({ id: undefined, method: undefined, response: false });
    expect(readFrameHead('{"jsonrpc":"2.0","id":"unterminated')).toEqual({ id: undefined, method: undefined, response: false });
    expect(readFrameHead('{"params":{"id":1},"id":2')).toEqual({ id: undefined, method: undefined, response: false });
    expect(readFrameHead('{"id":1e999,"result":1')).toEqual({ id: undefined, method: undefined, response: true });
  });

  it('reads nothing from a frame that is not an object', () => {
    expect(readFrameHead('[{"id":1,"result":{}}')).toBeUndefined();
    expect(readFrameHead('garbage')).toBeUndefined();
  });
});
