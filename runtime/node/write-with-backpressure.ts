import type { Writable } from 'node:stream';

/**
 * Writes `text` and settles once the stream accepted it: at once when its buffer has room,
 * after 'drain' otherwise, so a slow peer slows the sender instead of growing memory.
 */
export function writeWithBackpressure(stream: Writable, text: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onDrain = (): void => {
      cleanup();
      resolve();
    };
    const cleanup = (): void => {
      stream.off('error', onError);
      stream.off('drain', onDrain);
    };
    stream.once('error', onError);
    if (stream.write(text)) {
      cleanup();
      resolve();
    } else {
      stream.once('drain', onDrain);
    }
  });
}
