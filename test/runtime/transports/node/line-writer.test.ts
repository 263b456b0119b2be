import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineWriter, MAX_COALESCED_CHARS, MAX_COALESCED_LINES } from '../../../../runtime/transports/node/line-writer.js';

/** A stream that accepts `capacity` bytes, then holds further writes until `release()`. */
function slowStream(capacity: number) {
  const chunks: string[] = [];
  let pending: Array<() => void> = [];
  const stream = new Writable({
    highWaterMark: capacity,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      pending.push(callback);
    },
  });
  return {
    stream,
    chunks,
    release() {
      const callbacks = pending;
      pending = [];
      for (const callback of callbacks) callback();
    },
  };
}

describe('LineWriter', () => {
  it('writes at once while the stream has room', async () => {
    const { stream, chunks } = slowStream(1024);
    const writer = new LineWriter(stream);
    await writer.write('a');
    await writer.write('b');
    // The stream took both lines: one is being written, the other waits in its buffer.
    expect(chunks).toEqual(['a\n']);
    expect(stream.writableLength).toBe(4);
  });

  it('holds lines while the stream is full and sends them in order, together, after drain', async () => {
    const { stream, chunks, release } = slowStream(4);
    const writer = new LineWriter(stream);
    const settled: string[] = [];
    await writer.write('first'); // fills the buffer: the stream asks to wait
    const later = ['x', 'y', 'z'].map((line) => writer.write(line).then(() => settled.push(line)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual([]);
    release();
    await Promise.all(later);
    expect(settled).toEqual(['x', 'y', 'z']);
    release();
    expect(chunks.join('')).toBe('first\nx\ny\nz\n');
  });

  it('rejects queued and later lines once the stream fails', async () => {
    const { stream } = slowStream(1);
    const writer = new LineWriter(stream);
    await writer.write('full');
    const queued = writer.write('queued');
    stream.destroy(new Error('EPIPE'));
    await expect(queued).rejects.toThrow('EPIPE');
    await expect(writer.write('after')).rejects.toThrow('EPIPE');
  });

  it('rejects the held lines when the stream throws while they are written', async () => {
    const stream = new Writable({
      write() {
        throw new Error('broken sink');
      },
    });
    const writer = new LineWriter(stream);
    await expect(writer.write('doomed')).rejects.toThrow('broken sink');
  });

  it('joins the lines of one turn into one write, which settles their promises', async () => {
    const { stream, chunks } = slowStream(1024);
    const writer = new LineWriter(stream);
    let settled = 0;
    const writes = ['one', 'two', 'three'].map((line) => writer.write(line).then(() => settled++));
    expect(chunks).toEqual([]);
    await Promise.resolve();
    expect(settled).toBe(0);
    await Promise.all(writes);
    expect(chunks).toEqual(['one\ntwo\nthree\n']);
    expect(settled).toBe(3);
  });

  it('writes at once when the held lines reach MAX_COALESCED_CHARS', () => {
    const { stream, chunks } = slowStream(4 * MAX_COALESCED_CHARS);
    const writer = new LineWriter(stream);
    void writer.write('small');
    expect(chunks).toEqual([]);
    const large = 'x'.repeat(MAX_COALESCED_CHARS);
    void writer.write(large);
    expect(chunks).toEqual([`small\n${large}\n`]);
  });

  it('writes a burst of lines in writes of MAX_COALESCED_LINES, so the peer can start on the first', async () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk.toString());
        callback();
      },
    });
    const writer = new LineWriter(stream);
    const lines = Array.from({ length: 2 * MAX_COALESCED_LINES + 3 }, (_, index) => `m${index}`);
    const writes = lines.map((line) => writer.write(line));
    // The full groups went out as they filled, before the turn ended; the rest goes at its end.
    const group = (from: number, to: number) => `${lines.slice(from, to).join('\n')}\n`;
    expect(chunks).toEqual([group(0, MAX_COALESCED_LINES), group(MAX_COALESCED_LINES, 2 * MAX_COALESCED_LINES)]);
    await Promise.all(writes);
    expect(chunks).toEqual([group(0, MAX_COALESCED_LINES), group(MAX_COALESCED_LINES, 2 * MAX_COALESCED_LINES), group(2 * MAX_COALESCED_LINES, lines.length)]);
    expect(MAX_COALESCED_LINES).toBe(8);
  });

  it('writes the held lines at once on flush, and nothing more at the end of the turn', async () => {
    const { stream, chunks } = slowStream(1024);
    const writer = new LineWriter(stream);
    const pending = writer.write('last');
    writer.flush();
    expect(chunks).toEqual(['last\n']);
    await pending;
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunks).toEqual(['last\n']);
  });
});
