import { describe, expect, it } from "vitest";
import {
  type CubicMetric,
  cubicError,
  elicitCubic,
  evaluateCubic,
  normalizeCubic,
  randomCubicMetric,
  reconstructCubic,
} from "../../src/elicit/quadratic/cubic.ts";
import type { RatePoint } from "../../src/elicit/quadratic/lpme.ts";
import { createRng } from "../../src/math/rng.ts";
import { simulatedOracle } from "../../src/oracle/simulated-oracle.ts";
import { STRATEGIES } from "../../src/search/strategy.ts";

const gradient = (m: CubicMetric, r: readonly number[]) =>
  m.a.map((ai, i) => {
    let v = ai;
    for (let j = 0; j < r.length; j++) {
      v += m.B[i]![j]! * r[j]!;
      for (let l = 0; l < r.length; l++) v += 0.5 * m.C[i]![j]![l]! * r[j]! * r[l]!;
    }
    return v;
  });
const hessian = (m: CubicMetric, r: readonly number[]) =>
  m.B.map((row, i) => row.map((b, j) => b + m.C[i]![j]!.reduce((s, c, l) => s + c * r[l]!, 0)));

describe("cubic metrics (UAI 2022, Section 8)", () => {
  it("the reconstruction is exact from exact local fits with unknown positive scales", () => {
    const rng = createRng(8);
    for (const k of [2, 3, 4]) {
      const m = randomCubicMetric(k, rng);
      const o = new Array<number>(k).fill(1 / k);
      const delta = 0.1;
      const localFit = (c: number[]) => {
        const s = 0.2 + rng.next() * 3;
        return {
          centre: c,
          gradient: gradient(m, c).map((x) => s * x),
          hessian: hessian(m, c).map((row) => row.map((x) => s * x)),
        };
      };
      const atZ = Array.from({ length: k }, (_, l) =>
        localFit(o.map((x, i) => (i === l ? x + delta : x))),
      );
      const est = reconstructCubic(localFit(o), atZ, delta);
      const e = cubicError(m, est);
      expect(e.a).toBeLessThan(1e-9);
      expect(e.B).toBeLessThan(1e-9);
      expect(e.C).toBeLessThan(1e-9);
    }
  });
  it("elicits a cubic metric from pairwise answers with k + 1 QPME runs", () => {
    const m = normalizeCubic({
      a: [1, 0.8],
      B: [
        [-1, 0.05],
        [0.05, -0.8],
      ],
      C: [
        [
          [0.3, 0],
          [0, 0.2],
        ],
        [
          [0, 0.2],
          [0.2, 0.3],
        ],
      ],
    });
    const oracle = simulatedOracle(
      (p: RatePoint) => evaluateCubic(m, p.point),
      { kind: "none" },
      1,
    );
    const r = elicitCubic(oracle.ask, 2, { tolerance: 0.001, strategy: STRATEGIES.lazy });
    const e = cubicError(m, r.metric);
    // Measured 0.018 / 0.089 / 0.277: each local QPME reads third-order terms as part of its
    // Hessian (a bias of about radius * C / 2), which the reconstruction divides by the spread.
    expect(e.a).toBeLessThan(0.03);
    expect(e.B).toBeLessThan(0.1);
    expect(e.C).toBeLessThan(0.3);
    expect(r.questions).toBe(oracle.count());
  });
});
