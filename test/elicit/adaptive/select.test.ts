import { describe, expect, it } from "vitest";
import {
  EXACT_MODEL,
  HUMAN_MODEL,
  probabilityFirst,
} from "../../../src/elicit/adaptive/answer-model.ts";
import { dominated } from "../../../src/elicit/adaptive/engine.ts";
import { selectPair } from "../../../src/elicit/adaptive/select.ts";

/**
 * Samples on a 2-D belief, wide along x (+-1) and narrow along y (+-0.1), and three
 * candidates whose pairs cut it: pair (0, 1) through x = 0, pair (0, 2) through y = 0. Both
 * halve the belief exactly; only the cut across x leaves the smaller spread.
 */
function setup() {
  const xs = [-1, -0.5, 0.5, 1];
  const ys = [-0.1, 0.1];
  const coords: number[] = [];
  const values: number[] = [];
  for (const x of xs) {
    for (const y of ys) {
      coords.push(x, y);
      // Candidate 0 is worth 0, candidate 1 -x (0 is preferred iff x > 0), candidate 2 -10 y
      // (0 is preferred iff y > 0; the clearer pair, mean |difference| 1 against 0.75).
      values.push(0, -x, -10 * y);
    }
  }
  const samples = xs.length * ys.length;
  return {
    values: Float64Array.from(values),
    samples,
    weights: new Float64Array(samples).fill(1 / samples),
    coords: Float64Array.from(coords),
  };
}

describe("selectPair", () => {
  it("under the exact model, 'spread' cuts across the belief's widest extent", () => {
    const { values, samples, weights, coords } = setup();
    const keys = ["a", "b", "c"];
    const spread = selectPair(values, samples, 3, weights, keys, EXACT_MODEL, 0.01, {
      coords,
      dim: 2,
    });
    expect(spread).not.toBeNull();
    expect([spread!.first, spread!.second]).toEqual([0, 1]);
    expect(spread!.pFirst).toBeCloseTo(0.5, 12);
    // Without coordinates the clearer of the two halvings wins: the cut across y.
    const split = selectPair(values, samples, 3, weights, keys, EXACT_MODEL, 0.01);
    expect([split!.first, split!.second]).toEqual([0, 2]);
  });

  it("under a noisy model that selects by spread, the cut across the widest extent; by information, the clearer", () => {
    const { values, samples, weights, coords } = setup();
    const keys = ["a", "b", "c"];
    const spreadModel = { ...HUMAN_MODEL, selectBy: "spread" as const };
    const pick = selectPair(values, samples, 3, weights, keys, spreadModel, 0.01, {
      coords,
      dim: 2,
    });
    expect([pick!.first, pick!.second]).toEqual([0, 1]);
    // Its information is the noisy pass's: the answer's entropy less its mean per sample.
    expect(pick!.information).toBeGreaterThan(0);
    expect(pick!.information).toBeLessThan(1);
    // The same coordinates without `selectBy`, and `selectBy` without coordinates: the
    // information decides, and the clearer cut across y wins.
    const informed = selectPair(values, samples, 3, weights, keys, HUMAN_MODEL, 0.01, {
      coords,
      dim: 2,
    });
    expect([informed!.first, informed!.second]).toEqual([0, 2]);
    const bare = selectPair(values, samples, 3, weights, keys, spreadModel, 0.01);
    expect([bare!.first, bare!.second]).toEqual([0, 2]);
  });

  it("never pairs two candidates that look the same", () => {
    const { values, samples, weights } = setup();
    const pick = selectPair(values, samples, 3, weights, ["a", "a", "c"], EXACT_MODEL);
    expect(pick).not.toBeNull();
    expect([pick!.first, pick!.second]).not.toEqual([0, 1]);
  });

  it("never chooses an excluded pair, even when it is the most informative", () => {
    const { values, samples, weights } = setup();
    const keys = ["a", "b", "c"];
    for (const model of [EXACT_MODEL, HUMAN_MODEL]) {
      const free = selectPair(values, samples, 3, weights, keys, model);
      const banned = [free!.first, free!.second].sort().join(",");
      const pick = selectPair(
        values,
        samples,
        3,
        weights,
        keys,
        model,
        0.01,
        undefined,
        (a, b) => [a, b].sort().join(",") === banned,
      );
      expect(pick).not.toBeNull();
      expect([pick!.first, pick!.second].sort().join(",")).not.toBe(banned);
    }
    expect(
      selectPair(values, samples, 3, weights, keys, EXACT_MODEL, 0.01, undefined, () => true),
    ).toBeNull();
  });

  it("scores many pairs as one pair at a time would, to the bit (exact and human models)", () => {
    // 23 candidates on 301 samples: the pair loop's blocks of four and its remainder, ties
    // (equal values) and excluded pairs included.
    let x = 12345;
    const next = () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x / 2147483648;
    };
    const samples = 301;
    const candidates = 23;
    const values = Float64Array.from({ length: samples * candidates }, (_, i) =>
      i % candidates === 5 ? 0.5 : Math.round(next() * 40) / 40,
    );
    const raw = Float64Array.from({ length: samples }, () => next());
    const total = raw.reduce((a, b) => a + b, 0);
    const weights = raw.map((w) => w / total);
    const keys = Array.from({ length: candidates }, (_, c) => (c === 9 ? "k8" : `k${c}`));
    const excluded = (a: number, b: number) => (a * 7 + b) % 5 === 0;
    // One pair at a time: the split and clarity of (a, b) summed over the samples in order.
    const pairSums = (a: number, b: number) => {
      let split = 0;
      let clarity = 0;
      for (let s = 0; s < samples; s++) {
        const d = values[s * candidates + a]! - values[s * candidates + b]!;
        const w = weights[s]!;
        if (d > 0) split += w;
        else if (d === 0) split += 0.5 * w;
        clarity += w * Math.abs(d);
      }
      return { split, clarity };
    };
    const entropy = (p: number) =>
      p <= 0 || p >= 1 ? 0 : -(p * Math.log2(p) + (1 - p) * Math.log2(1 - p));
    let best = { a: -1, b: -1, score: -Infinity, split: 0, clarity: 0 };
    for (let a = 0; a < candidates; a++) {
      for (let b = a + 1; b < candidates; b++) {
        if (keys[a] === keys[b] || excluded(a, b)) continue;
        const { split, clarity } = pairSums(a, b);
        const score = entropy(split) + 0.01 * Math.min(1, clarity);
        if (score > best.score) best = { a, b, score, split, clarity };
      }
    }
    const pick = selectPair(
      values,
      samples,
      candidates,
      weights,
      keys,
      EXACT_MODEL,
      0.01,
      undefined,
      excluded,
    )!;
    expect([pick.first, pick.second]).toEqual([best.a, best.b]);
    expect(pick.pFirst).toBe(best.split);
    expect(pick.clarity).toBe(best.clarity);
    expect(pick.information).toBe(entropy(best.split));
    // Under the human model the chosen pair's answer probability is the belief's mean
    // `probabilityFirst`, and its clarity the pair's own sum.
    const human = selectPair(
      values,
      samples,
      candidates,
      weights,
      keys,
      HUMAN_MODEL,
      0.01,
      undefined,
      excluded,
    )!;
    expect(excluded(human.first, human.second)).toBe(false);
    let pbar = 0;
    for (let s = 0; s < samples; s++) {
      const d = values[s * candidates + human.first]! - values[s * candidates + human.second]!;
      pbar += weights[s]! * probabilityFirst(HUMAN_MODEL, d);
    }
    expect(human.pFirst).toBe(pbar);
    expect(human.clarity).toBe(pairSums(human.first, human.second).clarity);
  });
});

describe("dominated", () => {
  const f = (...x: number[]) => Float64Array.from(x);
  it("holds when one point is at least as good on every feature, given known signs", () => {
    // 0 missed / 4 false alarms against 0 / 3 on screen (TP 34 both, TN 62 vs 63).
    expect(dominated(f(0.34, 0.62), f(0.34, 0.63), [1, 1])).toBe(true);
    expect(dominated(f(0.3, 0.62), f(0.31, 0.61), [1, 1])).toBe(false);
    // Costs (sign -1): fewer of every mistake is better.
    expect(dominated(f(0.1, 0.2, 0.3), f(0.1, 0.25, 0.3), [-1, -1, -1])).toBe(true);
    expect(dominated(f(0.1, 0.2, 0.3), f(0.05, 0.25, 0.3), [-1, -1, -1])).toBe(false);
    // A parameter of either sign: no pair is dominated whatever its features.
    expect(dominated(f(1, 1), f(0, 0), [1, 0])).toBe(false);
  });
  it("takes features equal up to float rounding as equal (the same counts on screen)", () => {
    // A fairness profile's accuracy part summed over groups in another order: 0.1 + 0.2 and
    // 0.3 differ by 5.6e-17, yet show the same counts; the other part decides alone.
    const lin = 0.1 + 0.2;
    expect(lin).not.toBe(0.3);
    expect(dominated(f(lin, -0.02), f(0.3, -0.01), [1, 1])).toBe(true);
    expect(dominated(f(0.3, -0.02), f(lin, -0.01), [1, 1])).toBe(true);
  });
});
