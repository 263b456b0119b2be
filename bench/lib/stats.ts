/** Summary of one metric over the repetitions. */
export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** (max − min) / median: how far apart the repetitions landed. */
  readonly spread: number;
  readonly n: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Summarises the finite values; undefined when there are none. */
export function summarize(values: readonly (number | null | undefined)[]): Summary | undefined {
  const finite = values.filter((value): value is number => typeof value === 'number' && Number.isFinite(value));
  if (finite.length === 0) return undefined;
  const mid = median(finite);
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  return { median: mid, min, max, spread: mid === 0 ? 0 : (max - min) / Math.abs(mid), n: finite.length };
}

/**
 * Ratios a[i] / b[i] of the repetitions run side by side (same repetition index), summarised:
 * pairing cancels drift of the machine between repetitions.
 */
export function pairedRatio(a: readonly (number | null | undefined)[], b: readonly (number | null | undefined)[]): Summary | undefined {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (typeof x === 'number' && typeof y === 'number' && Number.isFinite(x) && Number.isFinite(y) && y !== 0) ratios.push(x / y);
  }
  return summarize(ratios);
}
