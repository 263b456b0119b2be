/**
 * Keeps the most recent text written to it, up to a fixed number of characters. A child's
 * stderr can be unbounded; only its tail is useful for explaining a crash.
 */
export class TextTail {
  /** Maximum characters kept. */
  readonly capacity: number;
  private chunks: string[] = [];
  private length = 0;

  constructor(capacity: number) {
    this.capacity = Math.max(0, capacity);
  }

  /** Appends text, dropping the oldest characters beyond the capacity. */
  append(text: string): void {
    if (text.length === 0 || this.capacity === 0) {
      return;
    }
    if (text.length >= this.capacity) {
      this.chunks = [text.slice(text.length - this.capacity)];
      this.length = this.capacity;
      return;
    }
    this.chunks.push(text);
    this.length += text.length;
    while (this.length > this.capacity) {
      const excess = this.length - this.capacity;
      const first = this.chunks[0]!;
      if (first.length <= excess) {
        this.chunks.shift();
        this.length -= first.length;
      } else {
        this.chunks[0] = first.slice(excess);
        this.length -= excess;
      }
    }
  }

  /** Everything kept, oldest first. */
  text(): string {
    if (this.chunks.length > 1) {
      this.chunks = [this.chunks.join('')];
    }
    return this.chunks[0] ?? '';
  }

  /** The last `maxChars` characters kept. */
  tail(maxChars: number): string {
    const all = this.text();
    return all.length <= maxChars ? all : all.slice(all.length - maxChars);
  }
}
