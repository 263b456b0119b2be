/** Collects per-call latencies (ms) in a growable typed array, so recording does not allocate per call. */
export class LatencyRecorder {
  private values = new Float64Array(1 << 16);
  private length = 0;

  record(ms: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = ms;
  }

  get count(): number {
    return this.length;
  }

  /** The q-quantile (0..1) in microseconds, nearest rank. */
  quantileUs(q: number): number {
    if (this.length === 0) return Number.NaN;
    const sorted = this.values.slice(0, this.length).sort();
    const rank = Math.min(this.length - 1, Math.max(0, Math.ceil(q * this.length) - 1));
    return sorted[rank]! * 1000;
  }
}
