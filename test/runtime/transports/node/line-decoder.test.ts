import { describe, expect, it } from 'vitest';
import { LineDecoder } from '../../../../runtime/transports/node/line-decoder.js';

function collect(maxLineBytes = 64) {
  const lines: string[] = [];
  const oversized: number[] = [];
  let invalid = 0;
  const decoder = new LineDecoder(maxLineBytes, {
    online: (line) => lines.push(line),
    onoversized: (limit) => oversized.push(limit),
    oninvalidtext: () => invalid++,
  });
  return { decoder, lines, oversized, invalid: () => invalid };
}

describe('LineDecoder', () => {
  it('joins a line split across chunks', () => {
    const { decoder, lines } = collect();
    decoder.push('{"a":');
    expect(lines).toEqual([]);
    decoder.push('1}');
    decoder.push('\n');
    expect(lines).toEqual(['{"a":1}']);
  });

  it('splits several lines in one chunk, skipping blank ones and CR terminators', () => {
    const { decoder, lines } = collect();
    decoder.push('one\ntwo\r\n\n  \nthree\npart');
    expect(lines).toEqual(['one', 'two', 'three']);
    decoder.push('ial\n');
    expect(lines).toEqual(['one', 'two', 'three', 'partial']);
  });

  it('decodes a multi-byte character split between chunks', () => {
    const { decoder, lines } = collect();
    const bytes = Buffer.from('"é€"\n', 'utf8');
    decoder.push(bytes.subarray(0, 2));
    decoder.push(bytes.subarray(2, 4));
    decoder.push(bytes.subarray(4));
    expect(lines).toEqual(['"é€"']);
  });

  it('refuses a line that is not UTF-8 instead of repairing it, and goes on with the next', () => {
    const { decoder, lines, invalid } = collect();
    // A lone continuation byte, an overlong encoding, a truncated sequence before the newline.
    decoder.push(Buffer.from([0x22, 0x80, 0x22, 0x0a, 0xc0, 0xaf, 0x0a, 0x22, 0xe2, 0x82, 0x0a]));
    decoder.push('"ok"\n');
    expect(invalid()).toBe(3);
    expect(lines).toEqual(['"ok"']);
  });

  it('discards an oversized line once, then keeps decoding the next ones', () => {
    const { decoder, lines, oversized } = collect(8);
    decoder.push('12345678\n');
    decoder.push('123456');
    decoder.push('789');
    decoder.push('0123456789\nok\n');
    expect(lines).toEqual(['12345678', 'ok']);
    expect(oversized).toEqual([8]);
  });

  it('hands over the head of an oversized line, split over chunks, capped at headBytes', () => {
    const heads: string[] = [];
    const decoder = new LineDecoder(8, { online: () => undefined, onoversized: (_limit, head) => heads.push(head.toString()), oninvalidtext: () => undefined }, 5);
    decoder.push('abc');
    decoder.push('defghijk\n');
    decoder.push('0123456789\n');
    expect(heads).toEqual(['abcde', '01234']);
  });

  it('accepts a line of exactly the limit followed by CRLF', () => {
    const { decoder, lines, oversized } = collect(4);
    decoder.push('abcd\r');
    decoder.push('\n');
    expect(lines).toEqual(['abcd']);
    expect(oversized).toEqual([]);
  });

  it('refuses only the invalid line of a chunk of many, delivering the others in order', () => {
    const { decoder, lines, invalid } = collect();
    decoder.push(Buffer.concat([Buffer.from('{"a":1}\n"é"\n'), Buffer.from([0x22, 0xff, 0x22, 0x0a]), Buffer.from('{"b":2}\r\n[3]\n')]));
    expect(invalid()).toBe(1);
    expect(lines).toEqual(['{"a":1}', '"é"', '{"b":2}', '[3]']);
  });

  it('delivers every short line of a chunk longer than the cap, none as oversized', () => {
    const { decoder, lines, oversized } = collect(8);
    const many = Array.from({ length: 20 }, (_, index) => `{"i":${index}}`);
    decoder.push(`${many.join('\n')}\n`);
    expect(lines).toEqual(many);
    expect(oversized).toEqual([]);
  });

  it('finishes a carried line, then the run of whole lines, then carries the rest', () => {
    const { decoder, lines } = collect();
    decoder.push('{"fir');
    decoder.push('st":1}\n{"second":2}\n{"third":3}\n{"fou');
    expect(lines).toEqual(['{"first":1}', '{"second":2}', '{"third":3}']);
    decoder.push('rth":4}\n');
    expect(lines).toEqual(['{"first":1}', '{"second":2}', '{"third":3}', '{"fourth":4}']);
  });

  it('counts a line split over chunks against the cap as a whole', () => {
    const { decoder, lines, oversized } = collect(8);
    decoder.push('12345');
    decoder.push('6789\nok\n');
    expect(oversized).toEqual([8]);
    expect(lines).toEqual(['ok']);
  });

  it('flushes an unterminated last line at end of input', () => {
    const { decoder, lines } = collect();
    decoder.push('last');
    decoder.end();
    expect(lines).toEqual(['last']);
  });
});
