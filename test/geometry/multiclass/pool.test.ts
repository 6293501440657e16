import { describe, expect, it } from "vitest";
import { MulticlassPool } from "../../../src/geometry/multiclass/pool.ts";

describe("MulticlassPool", () => {
  it("computes priors as the mean of eta (soft labels)", () => {
    const pool = new MulticlassPool([0.7, 0.2, 0.1, 0.1, 0.3, 0.6], 3);
    expect(pool.n).toBe(2);
    expect(Array.from(pool.priors)).toEqual([
      expect.closeTo(0.4, 15),
      expect.closeTo(0.25, 15),
      expect.closeTo(0.35, 15),
    ]);
    expect(Array.from(pool.row(1))).toEqual([0.1, 0.3, 0.6]);
  });
  it("weights the priors and normalises the weights", () => {
    const pool = MulticlassPool.fromRows(
      [
        [1, 0],
        [0, 1],
      ],
      { weights: [3, 1] },
    );
    expect(Array.from(pool.priors)).toEqual([0.75, 0.25]);
    expect(Array.from(pool.mass)).toEqual([0.75, 0.25]);
    expect(pool.weighted).toBe(true);
  });
  it("copies its input", () => {
    const eta = new Float64Array([0.5, 0.5]);
    const pool = new MulticlassPool(eta, 2);
    eta[0] = 9;
    expect(pool.eta[0]).toBe(0.5);
  });
  it("validates", () => {
    expect(() => new MulticlassPool([1], 1)).toThrow(/k must be/);
    expect(() => new MulticlassPool([0.5, 0.5, 1], 2)).toThrow(/N\*k/);
    expect(() => new MulticlassPool([], 2)).toThrow(/N\*k/);
    expect(() => new MulticlassPool([0.5, 0.6], 2)).toThrow(/sums to/);
    expect(() => new MulticlassPool([1.5, -0.5], 2)).toThrow(/not a probability/);
    expect(() => new MulticlassPool([Number.NaN, 1], 2)).toThrow(/not a probability/);
    expect(() => new MulticlassPool([0.5, 0.5], 2, { weights: [1, 2] })).toThrow(/weights/);
    expect(() => new MulticlassPool([0.5, 0.5], 2, { weights: [0] })).toThrow(/zero/);
    expect(() => new MulticlassPool([0.5, 0.5], 2, { weights: [-1] })).toThrow(/>= 0/);
    expect(() => MulticlassPool.fromRows([[1, 0], [1]])).toThrow(/entries/);
  });
});
