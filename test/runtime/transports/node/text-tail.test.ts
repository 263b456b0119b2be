import { describe, expect, it } from 'vitest';
import { TextTail } from '../../../../runtime/transports/node/text-tail.js';

describe('TextTail', () => {
  it('keeps only the most recent characters', () => {
    const tail = new TextTail(10);
    tail.append('abcdef');
    tail.append('ghijkl');
    expect(tail.text()).toBe('cdefghijkl');
    tail.append('0123456789XYZ');
    expect(tail.text()).toBe('3456789XYZ');
    expect(tail.tail(3)).toBe('XYZ');
  });

  it('keeps everything below the capacity', () => {
    const tail = new TextTail(100);
    tail.append('a');
    tail.append('b');
    expect(tail.text()).toBe('ab');
    expect(tail.tail(10)).toBe('ab');
  });
});
