import { describe, expect, it } from "vitest";
import { stratifiedSplit, take } from "../../src/data/split.ts";
import { createRng } from "../../src/math/rng.ts";

function countsOf(labels: ArrayLike<number>, indices: Int32Array): Map<number, number> {
  const counts = new Map<number, number>();
  for (const i of indices) counts.set(labels[i]!, (counts.get(labels[i]!) ?? 0) + 1);
  return counts;
}

describe("stratifiedSplit", () => {
  const labels = Int32Array.from({ length: 103 }, (_, i) => (i % 10 < 7 ? 0 : i % 10 < 9 ? 1 : 2));

  it("splits each class in the given fraction (rounded) and partitions the indices", () => {
    const { train, test } = stratifiedSplit(labels, 0.7, createRng(1));
    const all = [...train, ...test].sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: labels.length }, (_, i) => i));
    const total = countsOf(labels, Int32Array.from(all));
    const trainCounts = countsOf(labels, train);
    for (const [y, n] of total) expect(trainCounts.get(y)).toBe(Math.round(0.7 * n));
    // Sorted output.
    expect(Array.from(train)).toEqual(Array.from(train).sort((a, b) => a - b));
    expect(Array.from(test)).toEqual(Array.from(test).sort((a, b) => a - b));
  });

  it("is deterministic under a seed and varies with it", () => {
    const a = stratifiedSplit(labels, 0.5, createRng(1));
    const b = stratifiedSplit(labels, 0.5, createRng(1));
    const c = stratifiedSplit(labels, 0.5, createRng(2));
    expect(a).toEqual(b);
    expect(Array.from(a.train)).not.toEqual(Array.from(c.train));
  });

  it("keeps both parts non-empty for every class with at least two examples", () => {
    const small = [0, 0, 1, 1, 1, 2, 2];
    for (const fraction of [0.01, 0.5, 0.99]) {
      const { train, test } = stratifiedSplit(small, fraction, createRng(3));
      for (const y of [0, 1, 2]) {
        expect(countsOf(small, train).get(y)).toBeGreaterThan(0);
        expect(countsOf(small, test).get(y)).toBeGreaterThan(0);
      }
    }
  });

  it("sends a lone example to train when the fraction is at least one half", () => {
    expect(Array.from(stratifiedSplit([0, 0, 1], 0.5, createRng(1)).train)).toContain(2);
    expect(Array.from(stratifiedSplit([0, 0, 1], 0.3, createRng(1)).test)).toContain(2);
  });

  it("rejects a fraction outside (0, 1)", () => {
    expect(() => stratifiedSplit([0, 1], 0, createRng(1))).toThrow(RangeError);
    expect(() => stratifiedSplit([0, 1], 1, createRng(1))).toThrow(RangeError);
  });
});

describe("take", () => {
  it("gathers items in index order", () => {
    expect(take(["a", "b", "c"], Int32Array.of(2, 0))).toEqual(["c", "a"]);
    expect(take(Uint8Array.of(5, 6, 7), [1, 1])).toEqual([6, 6]);
    expect(() => take([1], [1])).toThrow(RangeError);
  });
});
