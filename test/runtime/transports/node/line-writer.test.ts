import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineWriter } from '../../../../runtime/transports/node/line-writer.js';

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
    await writer.write('a\n');
    await writer.write('b\n');
    // The stream took both lines: one is being written, the other waits in its buffer.
    expect(chunks).toEqual(['a\n']);
    expect(stream.writableLength).toBe(4);
  });

  it('holds lines while the stream is full and sends them in order, together, after drain', async () => {
    const { stream, chunks, release } = slowStream(4);
    const writer = new LineWriter(stream);
    const settled: string[] = [];
    await writer.write('first\n'); // fills the buffer: the stream asks to wait
    const later = ['x\n', 'y\n', 'z\n'].map((line) => writer.write(line).then(() => settled.push(line)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual([]);
    release();
    await Promise.all(later);
    expect(settled).toEqual(['x\n', 'y\n', 'z\n']);
    release();
    expect(chunks.join('')).toBe('first\nx\ny\nz\n');
  });

  it('rejects queued and later lines once the stream fails', async () => {
    const { stream } = slowStream(1);
    const writer = new LineWriter(stream);
    await writer.write('full\n');
    const queued = writer.write('queued\n');
    stream.destroy(new Error('EPIPE'));
    await expect(queued).rejects.toThrow('EPIPE');
    await expect(writer.write('after\n')).rejects.toThrow('EPIPE');
  });
});
