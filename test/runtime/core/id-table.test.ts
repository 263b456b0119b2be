import { describe, expect, it } from 'vitest';
import { IdTable, SMALL_TABLE } from '../../../runtime/core/id-table.js';

/** A small deterministic generator, so that a failing sequence can be replayed. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('IdTable', () => {
  it('answers as a Map does across the move to a Map and back, in insertion order', () => {
    const random = generator(7);
    const table = new IdTable<number | string, number>();
    const reference = new Map<number | string, number>();
    for (let step = 0; step < 20_000; step++) {
      // Keys from a range about twice the fixed arrays, numbers and strings alike.
      const n = Math.floor(random() * SMALL_TABLE * 2);
      const key = n % 3 === 0 ? `id-${n}` : n;
      const roll = random();
      if (roll < 0.45) {
        table.set(key, step);
        reference.set(key, step);
      } else if (roll < 0.9) {
        expect(table.delete(key)).toBe(reference.delete(key));
      } else if (roll < 0.99) {
        expect(table.get(key)).toBe(reference.get(key));
        expect(table.has(key)).toBe(reference.has(key));
      } else {
        table.clear();
        reference.clear();
      }
      expect(table.size).toBe(reference.size);
    }
    expect(table.values()).toEqual([...reference.values()]);
  });

  it('keeps the order of the oldest entries when one in the middle leaves', () => {
    const table = new IdTable<number, string>();
    for (const id of [1, 2, 3, 4]) table.set(id, `r${id}`);
    table.delete(2);
    table.set(5, 'r5');
    expect(table.values()).toEqual(['r1', 'r3', 'r4', 'r5']);
  });

  it('holds more than the fixed arrays and returns to them once empty', () => {
    const table = new IdTable<number, number>();
    const count = SMALL_TABLE * 4;
    for (let id = 0; id < count; id++) table.set(id, id);
    expect(table.size).toBe(count);
    expect(table.values()).toEqual([...Array(count).keys()]);
    for (let id = 0; id < count; id++) expect(table.delete(id)).toBe(true);
    expect(table.size).toBe(0);
    table.set(100, 1);
    expect(table.values()).toEqual([1]);
  });

  it('gives a snapshot of its values that later changes leave as it is', () => {
    const table = new IdTable<number, string>();
    table.set(1, 'a');
    const snapshot = table.values();
    table.set(2, 'b');
    table.delete(1);
    expect(snapshot).toEqual(['a']);
  });
});
