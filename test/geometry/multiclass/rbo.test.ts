import { describe, expect, it } from "vitest";
import { confusionOfLabels, pluginLabels } from "../../../src/geometry/multiclass/plugin.ts";
import { nu, rboClassifier, restrictedBayesOptimal } from "../../../src/geometry/multiclass/rbo.ts";
import { createRng } from "../../../src/math/rng.ts";
import { syntheticPool } from "./fixtures.ts";

describe("nu(m; k1, k2)", () => {
  it("puts m at k1 and 1 - m at k2", () => {
    expect(nu(0.25, 0, 2, 3)).toEqual([0.25, 0, 0.75]);
    expect(nu(1, 3, 1, 4)).toEqual([0, 0, 0, 1]);
    expect(() => nu(1.5, 0, 1, 3)).toThrow(RangeError);
    expect(() => nu(0.5, 1, 1, 3)).toThrow(RangeError);
    expect(() => nu(0.5, 0, 3, 3)).toThrow(RangeError);
  });
});

describe("restricted Bayes optimal classifiers", () => {
  const pool = syntheticPool(1000, 4, 17);
  const z = pool.priors;
  it("the ends of the boundary are the vertices zeta_k2 e_k2 (m = 0) and zeta_k1 e_k1 (m = 1)", () => {
    const end0 = restrictedBayesOptimal(pool, 3, 1, 0).point;
    const end1 = restrictedBayesOptimal(pool, 3, 1, 1).point;
    expect(Array.from(end0)).toEqual([0, z[1], 0, 0].map((v) => expect.closeTo(v, 15)));
    expect(Array.from(end1)).toEqual([0, 0, 0, z[3]].map((v) => expect.closeTo(v, 15)));
  });
  it("predicts only k1 or k2, with ties going to k1", () => {
    const labels = pluginLabels(pool, rboClassifier(z, 2, 0, 0.3));
    for (const l of labels) expect([0, 2]).toContain(l);
    expect(rboClassifier(z, 2, 0, 0.5).labels).toEqual([2, 0]);
  });
  it("is optimal among restricted classifiers and traces a monotone boundary", () => {
    const rng = createRng(3);
    let prev = restrictedBayesOptimal(pool, 1, 2, 0).point;
    for (let s = 1; s <= 20; s++) {
      const m = s / 20;
      const { point } = restrictedBayesOptimal(pool, 1, 2, m);
      expect(point[1]).toBeGreaterThanOrEqual(prev[1]);
      expect(point[2]).toBeLessThanOrEqual(prev[2]);
      expect(point[0]).toBe(0);
      expect(point[3]).toBe(0);
      prev = point;
      const value = m * point[1] + (1 - m) * point[2];
      for (let r = 0; r < 50; r++) {
        const labels = Int32Array.from({ length: pool.n }, () => (rng.next() < 0.5 ? 1 : 2));
        const C = confusionOfLabels(pool, labels);
        expect(m * C[5] + (1 - m) * C[10]).toBeLessThanOrEqual(value + 1e-12);
      }
    }
  });
  it("a DLPM is maximised on the boundary near m* = a_k1 / (a_k1 + a_k2)", () => {
    const a = [0.1, 0.6, 0.2, 0.1];
    const mStar = a[1] / (a[1] + a[2]);
    const psi = (m: number) => {
      const d = restrictedBayesOptimal(pool, 1, 2, m).point;
      return a.reduce((s, w, i) => s + w * d[i], 0);
    };
    const best = psi(mStar);
    for (let s = 0; s <= 100; s++) expect(psi(s / 100)).toBeLessThanOrEqual(best + 1e-15);
  });
});
