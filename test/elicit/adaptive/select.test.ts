import { describe, expect, it } from "vitest";
import { EXACT_MODEL } from "../../../src/elicit/adaptive/answer-model.ts";
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

  it("never pairs two candidates that look the same", () => {
    const { values, samples, weights } = setup();
    const pick = selectPair(values, samples, 3, weights, ["a", "a", "c"], EXACT_MODEL);
    expect(pick).not.toBeNull();
    expect([pick!.first, pick!.second]).not.toEqual([0, 1]);
  });
});
