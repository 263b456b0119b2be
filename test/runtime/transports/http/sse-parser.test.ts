import { describe, expect, it } from 'vitest';
import { SseEventTooLarge, SseParser, type ParsedSseEvent } from '../../../../runtime/http.js';

interface Parsed {
  events: ParsedSseEvent[];
  retries: number[];
  lastEventId: string;
}

/** Feeds `chunks` to a fresh parser, ends it, and returns what it produced. */
function parse(chunks: ReadonlyArray<string | Uint8Array>, lastEventId?: string): Parsed {
  const events: ParsedSseEvent[] = [];
  const retries: number[] = [];
  const parser = new SseParser({ onevent: (event) => events.push(event), onretry: (ms) => retries.push(ms) }, { lastEventId });
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return { events, retries, lastEventId: parser.lastEventId };
}

const event = (data: string, type = 'message', lastEventId = ''): ParsedSseEvent => ({ type, data, lastEventId });

describe('SseParser fields', () => {
  it('dispatches data on a blank line, with the default type message', () => {
    expect(parse(['data: hello\n\n']).events).toEqual([event('hello')]);
  });

  it('takes the type from the event field and resets it after each event', () => {
    expect(parse(['event: endpoint\ndata: /post\n\ndata: x\n\n']).events).toEqual([event('/post', 'endpoint'), event('x')]);
  });

  it('joins multi-line data with LF and drops only the final LF', () => {
    expect(parse(['data: a\ndata:\ndata:  b\n\n']).events).toEqual([event('a\n\n b')]);
  });

  it('removes exactly one space after the colon, and treats a line without colon as a field with empty value', () => {
    expect(parse(['data:  two\n\n', 'data\ndata\n\n']).events).toEqual([event(' two'), event('\n')]);
  });

  it('ignores comments, unknown fields and field names in other cases', () => {
    const { events } = parse([': keep-alive\nfoo: bar\nData: no\ndata: yes\n:another\n\n']);
    expect(events).toEqual([event('yes')]);
  });

  it('does not dispatch an event without data fields, but resets its type', () => {
    expect(parse(['event: ping\n\ndata: x\n\n']).events).toEqual([event('x')]);
  });

  it('dispatches an event whose data field is empty (a priming event) with empty data', () => {
    expect(parse(['id: 7\ndata:\n\n']).events).toEqual([event('', 'message', '7')]);
  });

  it('keeps the last event id across events until the server changes or clears it', () => {
    const { events, lastEventId } = parse(['id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n']);
    expect(events).toEqual([event('a', 'message', '1'), event('b', 'message', '1'), event('c', 'message', '')]);
    expect(lastEventId).toBe('');
  });

  it('applies an id on a blank line even without data', () => {
    const { events, lastEventId } = parse(['id: 41\n\n']);
    expect(events).toEqual([]);
    expect(lastEventId).toBe('41');
  });

  it('ignores an id containing NUL', () => {
    expect(parse(['id: 1\ndata: a\n\nid: 2\u00003\ndata: b\n\n']).events).toEqual([event('a', 'message', '1'), event('b', 'message', '1')]);
  });

  it('starts from a carried-over last event id', () => {
    expect(parse(['data: a\n\n'], 'resume-9').events).toEqual([event('a', 'message', 'resume-9')]);
  });

  it('reports retry only when the value is all ASCII digits', () => {
    const { retries, events } = parse(['retry: 1500\nretry: 15a\nretry: -1\nretry:\nretry: 0\n\n']);
    expect(retries).toEqual([1500, 0]);
    expect(events).toEqual([]);
  });

  it('reports retry as soon as its line is complete, even in an event that is never terminated', () => {
    expect(parse(['retry: 250\ndata: cut']).retries).toEqual([250]);
  });
});

describe('SseParser line ends and stream ends', () => {
  it('accepts CRLF, CR and LF line ends, mixed', () => {
    const { events } = parse(['data: a\r\n\r\ndata: b\r\rdata: c\n\ndata: d\r\n\n']);
    expect(events).toEqual([event('a'), event('b'), event('c'), event('d')]);
  });

  it('does not take a CRLF split across chunks for two line ends', () => {
    expect(parse(['data: a\r', '\ndata: b\r', '\n\r', '\n']).events).toEqual([event('a\nb')]);
  });

  it('skips one leading BOM, in text and in bytes, but not a second one', () => {
    expect(parse(['\uFEFFdata: a\n\n']).events).toEqual([event('a')]);
    expect(parse([new Uint8Array([0xef, 0xbb]), new Uint8Array([0xbf]), 'data: b\n\n']).events).toEqual([event('b')]);
    // A second BOM is part of the first field's name, so that field is unknown.
    expect(parse(['\uFEFF\uFEFFdata: c\n\n']).events).toEqual([]);
  });

  it('drops an event cut off by the end of the stream', () => {
    expect(parse(['data: a\n\ndata: b\n']).events).toEqual([event('a')]);
    expect(parse(['data: a\n\ndata: b']).events).toEqual([event('a')]);
    expect(parse(['data: a\n\nid: 9\ndata: b\n']).lastEventId).toBe('');
  });

  it('decodes UTF-8 split inside a character', () => {
    const bytes = new TextEncoder().encode('data: h\u00e9llo \u{1F600}\n\n');
    const chunks = Array.from(bytes, (byte) => new Uint8Array([byte]));
    expect(parse(chunks).events).toEqual([event('h\u00e9llo \u{1F600}')]);
  });

  it('refuses data after end()', () => {
    const parser = new SseParser({ onevent: () => undefined });
    parser.end();
    parser.end();
    expect(() => parser.push('data: x\n\n')).toThrow(/after end/);
  });
});

describe('SseParser chunk boundaries', () => {
  const sample = [
    '\uFEFF: comment\r\n',
    'retry: 3000\r\n',
    'id: 1\r\n',
    'event: message\r\n',
    'data: {"jsonrpc":"2.0","method":"x"}\r\n',
    '\r\n',
    'data: line one\r',
    'data: l\u00ednea \u20ac \u{1F680}\r',
    '\r',
    'id: 2\n',
    'data\n',
    '\n',
    'id: 3\n',
    '\n',
    'event: endpoint\n',
    'data: /messages?session=\u00e9\n',
    '\n',
    'data: truncated',
  ].join('');
  const bytes = new TextEncoder().encode(sample);
  const whole = parse([bytes]);

  it('parses the sample as expected', () => {
    expect(whole.events).toEqual([
      event('{"jsonrpc":"2.0","method":"x"}', 'message', '1'),
      event('line one\nl\u00ednea \u20ac \u{1F680}', 'message', '1'),
      event('', 'message', '2'),
      event('/messages?session=\u00e9', 'endpoint', '3'),
    ]);
    expect(whole.retries).toEqual([3000]);
    expect(whole.lastEventId).toBe('3');
  });

  it('gives the same result for a split at every byte', () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(parse([bytes.slice(0, cut), bytes.slice(cut)]), `cut at ${cut}`).toEqual(whole);
    }
  });

  it('gives the same result for every pair of splits', () => {
    for (let first = 0; first <= bytes.length; first += 1) {
      for (let second = first; second <= bytes.length; second += 7) {
        const chunks = [bytes.slice(0, first), bytes.slice(first, second), bytes.slice(second)];
        expect(parse(chunks)).toEqual(whole);
      }
    }
  });

  it('gives the same result byte by byte and, as text, character by character', () => {
    expect(parse(Array.from(bytes, (byte) => new Uint8Array([byte])))).toEqual(whole);
    expect(parse(Array.from(sample))).toEqual(whole);
  });
});

describe('SseParser maxEventChars', () => {
  function bounded(max: number): { parser: SseParser; events: ParsedSseEvent[] } {
    const events: ParsedSseEvent[] = [];
    return { parser: new SseParser({ onevent: (item) => events.push(item) }, { maxEventChars: max }), events };
  }

  it('keeps events and lines at the bound', () => {
    // The longest line has 15 characters; the second event's data, 'data' fields joined, 10.
    const { parser, events } = bounded(15);
    parser.push('data: 123456789\n\n: comment \n\ndata: 1234\ndata: 1234\n\n');
    parser.end();
    expect(events.map((item) => item.data)).toEqual(['123456789', '1234\n1234']);
  });

  it('throws before keeping an unterminated line that passes it, across chunks, and ends the parser', () => {
    const { parser, events } = bounded(10);
    parser.push('data: ab\n\ndata: 1');
    expect(() => parser.push('23456')).toThrow(SseEventTooLarge);
    expect(() => parser.push('x')).toThrow(/after end/);
    parser.end();
    expect(events.map((item) => item.data)).toEqual(['ab']);
  });

  it('throws when a terminated line passes it inside one chunk', () => {
    const { parser } = bounded(10);
    expect(() => parser.push(': a comment longer than ten\n')).toThrow('a line is longer than 10 bytes');
  });

  it('throws when the data of short lines adds up past it', () => {
    const { parser, events } = bounded(10);
    let thrown: unknown;
    try {
      parser.push('data: abc\ndata: def\ndata: ghi\n\n');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SseEventTooLarge);
    expect((thrown as SseEventTooLarge).limit).toBe(10);
    expect((thrown as Error).message).toBe('the data of an event is longer than 10 bytes');
    expect(events).toEqual([]);
  });
});
