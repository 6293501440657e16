import { describe, expect, it } from "vitest";
import {
  idealCostSearch,
  idealFairSearch,
  idealLineSearch,
  idealSimplexSearch,
  weightedMedian,
} from "../../src/experiments/ideal-searcher.ts";
import { createRng } from "../../src/math/rng.ts";

/** The weighted median by its definition: sort, then sum the weights in that order. */
function sortedMedian(values: Float64Array, weight: Float64Array): number {
  const order = Array.from(values.keys()).sort((a, b) => values[a]! - values[b]!);
  let c = 0;
  for (const i of order) {
    c += weight[i]!;
    if (c >= 0.5) return values[i]!;
  }
  return values[order.at(-1)!]!;
}

describe("weightedMedian", () => {
  it("is the sorted definition's value to the bit: equal weights, copies, uneven weights, infinities", () => {
    const rng = createRng("weighted-median");
    for (let trial = 0; trial < 400; trial++) {
      const n = [1, 2, 3, 16, 17, 200, 2000][trial % 7]!;
      // A particle set as the searcher has it: some particles copied (equal values, equal
      // weights), the weights all equal (after a resampling: a half is reached on rounding)
      // or two- or many-valued.
      const distinct = Math.max(1, Math.round(n * (0.3 + 0.7 * rng.next())));
      const base = Float64Array.from({ length: distinct }, () =>
        rng.next() < 0.02 ? (rng.next() < 0.5 ? -Infinity : Infinity) : rng.normal(),
      );
      const baseWeight = Float64Array.from({ length: distinct }, () =>
        rng.next() < 0.5 ? 0.9 : 0.1,
      );
      const values = new Float64Array(n);
      const weight = new Float64Array(n);
      const kind = trial % 3;
      for (let p = 0; p < n; p++) {
        const from = p < distinct ? p : rng.int(distinct);
        values[p] = base[from]!;
        weight[p] = kind === 0 ? 1 : kind === 1 ? baseWeight[from]! : 1 + base[from]! ** 2;
      }
      let total = 0;
      for (let p = 0; p < n; p++) total += weight[p]!;
      for (let p = 0; p < n; p++) weight[p]! /= total;
      if (kind === 0) weight.fill(1 / n);
      const before = values.slice();
      expect(
        Object.is(weightedMedian(values, weight), sortedMedian(values, weight)),
        `trial ${trial}`,
      ).toBe(true);
      // Its arguments are left as they were.
      expect(values).toEqual(before);
    }
  });

  it("gives one value where a key is NaN, and the first value reaching a half exactly", () => {
    const values = Float64Array.of(2, Number.NaN, 1, 3);
    const weight = Float64Array.of(0.25, 0.25, 0.25, 0.25);
    expect(Object.is(weightedMedian(values, weight), weightedMedian(values.slice(), weight))).toBe(
      true,
    );
    // 1 then 2 reach exactly a half: the first value there, 2.
    expect(
      weightedMedian(Float64Array.of(3, 1, 2, 4), Float64Array.of(0.25, 0.25, 0.25, 0.25)),
    ).toBe(2);
    expect(weightedMedian(Float64Array.of(3, 1, 2), Float64Array.of(0.2, 0.3, 0.5))).toBe(2);
  });
});

describe("the searcher told the person's flips (src/experiments/ideal-searcher.ts)", () => {
  it("bisects to its grid when no answer is flipped, and every run within the target", () => {
    const line = { questions: 30, trials: 200, target: 0.04, seed: "t", length: Math.PI / 2 };
    const median = idealLineSearch({ ...line, flip: 0, policy: "median" });
    // 30 exact halvings of 800 cells end in one cell: the error is at most a cell.
    expect(median.error.max).toBeLessThanOrEqual(Math.PI / 2 / 800);
    expect(median.beyond.share).toBe(0);
    expect(median.cellWithin).toBe(1);
    const tail = idealLineSearch({ ...line, flip: 0, policy: "tail" });
    expect(tail.error.max).toBeLessThanOrEqual(0.04);
    const simplex = idealSimplexSearch({
      flip: 0,
      questions: 30,
      trials: 40,
      target: 0.1,
      seed: "t",
    });
    expect(simplex.error.max).toBeLessThan(0.03);
    expect(simplex.beyond.share).toBe(0);
    // LPM k = 3's six costs: exact answers pin them far within the target.
    const costs = { questions: 45, trials: 6, target: 0.2, seed: "t", particles: 1000 };
    const exact = idealCostSearch({ ...costs, flip: 0 });
    expect(exact.error.max).toBeLessThan(0.02);
    // So they do under the uniform prior (the sphere's volume element in angle space).
    const flat = idealCostSearch({ ...costs, trials: 3, flip: 0, prior: "uniform" });
    expect(flat.error.max).toBeLessThan(0.02);
    // Flips cost accuracy, and the same seed repeats itself.
    const flipped = idealCostSearch({ ...costs, flip: 0.3 });
    expect(flipped.error.p50).toBeGreaterThan(exact.error.p50);
    expect(idealCostSearch({ ...costs, flip: 0.3 })).toEqual(flipped);
  });

  it("pins the whole fair metric down from exact answers; flips cost it accuracy", () => {
    // Five numbers (a, B, lambda as one direction) under the engine's prior.
    const fair = { questions: 30, trials: 6, target: 0.2, seed: "t", particles: 1000 };
    const exact = idealFairSearch({ ...fair, flip: 0 });
    expect(exact.error.max).toBeLessThan(0.05);
    expect(exact.beyond.share).toBe(0);
    const flipped = idealFairSearch({ ...fair, flip: 0.3 });
    expect(flipped.error.p50).toBeGreaterThan(3 * exact.error.p50);
    expect(idealFairSearch({ ...fair, flip: 0.3 })).toEqual(flipped);
  });

  it("misses more often as more answers flip, and repeats itself for a seed", () => {
    const o = { questions: 30, trials: 600, target: 0.04, seed: "t", length: Math.PI / 2 };
    const at = (flip: number) => idealLineSearch({ ...o, flip, policy: "median" });
    const [f5, f30] = [at(0.05), at(0.3)];
    expect(f30.beyond.share).toBeGreaterThan(f5.beyond.share + 0.05);
    expect(f30.error.p95).toBeGreaterThan(f5.error.p95);
    expect(at(0.3)).toEqual(f30);
    // The Wilson interval holds the share.
    expect(f30.beyond.low).toBeLessThan(f30.beyond.share);
    expect(f30.beyond.high).toBeGreaterThan(f30.beyond.share);
  });
});
