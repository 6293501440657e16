import { describe, expect, it } from "vitest";
import { peopleMulticlassPool } from "../../src/cli/commands/reproduce-people.ts";
import { fisherWeight, tangentBasis } from "../../src/experiments/design-bound.ts";
import { lpmDesignBound } from "../../src/experiments/lpm-design-bound.ts";

describe("designBound's parts", () => {
  it("weighs a probit answer's information as Fisher's, a lapse lowering it, far pairs finite", () => {
    expect(fisherWeight(0, 0)).toBeCloseTo(2 / Math.PI, 12);
    // A coin on a tenth of the answers: the slope 0.9 times, the same p (1 - p) at z = 0.
    expect(fisherWeight(0, 0.1)).toBeCloseTo(0.81 * (2 / Math.PI), 12);
    expect(fisherWeight(1.3, 0.1)).toBeCloseTo(fisherWeight(-1.3, 0.1), 14);
    // Far pairs say almost nothing, computed from Phi's tail (1 - Phi(9) is below double's
    // resolution near 1): a tiny finite weight, decreasing, never a division by zero.
    for (const z of [6, 9, 20]) expect(fisherWeight(z, 0)).toBeLessThan(fisherWeight(z - 1, 0));
    for (const z of [9, 20, 30, 36]) {
      expect(Number.isFinite(fisherWeight(z, 0))).toBe(true);
      expect(fisherWeight(z, 0)).toBeGreaterThanOrEqual(0);
    }
    expect(fisherWeight(9, 0)).toBeLessThan(1e-15);
    expect(fisherWeight(40, 0)).toBe(0);
  });

  it("spans the directions across w with an orthonormal basis", () => {
    const w = Float64Array.of(-0.2, -0.5, -0.1, -0.7, -0.3, -0.35);
    const basis = tangentBasis(w);
    expect(basis.length).toBe(5);
    basis.forEach((b, i) => {
      expect(b.reduce((s, x, j) => s + x * w[j]!, 0)).toBeCloseTo(0, 12);
      basis.forEach((c, j) => {
        expect(b.reduce((s, x, k) => s + x * c[k]!, 0)).toBeCloseTo(i === j ? 1 : 0, 12);
      });
    });
  });
});

describe("lpmDesignBound: the best questions' error of an LPM's costs", () => {
  const pool = peopleMulticlassPool().pool;
  const small = { pool, trials: 2, directions: 20, steps: 40, draws: 200, truthSeed: "unit" };

  it("draws the panel's LPM truths, unit costs, and shrinks as one over sqrt(n) for a probit person", () => {
    const r = lpmDesignBound({ ...small, questions: [45, 180] });
    expect(r.limit).toBe(0.2);
    for (const t of r.truths) {
      expect(t.costs.length).toBe(6);
      expect(Math.hypot(...t.costs)).toBeCloseTo(1, 12);
      for (const c of t.costs) expect(c).toBeLessThanOrEqual(0);
      expect(t.rms[0]! / t.rms[1]!).toBeCloseTo(2, 6);
    }
    expect(r.rows[0]!.p95).toBeGreaterThan(r.rows[1]!.p95);
    expect(r.rows[0]!.p95).toBeLessThanOrEqual(r.rows[0]!.max);
  });

  it("a tiring person leaves more error than the probit person, and more questions help less", () => {
    const probit = lpmDesignBound({ ...small, questions: [45] });
    const tired = lpmDesignBound({ ...small, questions: [45, 180], person: "fatigue" });
    tired.truths.forEach((t, i) => {
      expect(t.rms[0]).toBeGreaterThan(probit.truths[i]!.rms[0]!);
      expect(t.rms[0]! / t.rms[1]!).toBeLessThan(1.8);
    });
  });
});
