import { describe, expect, it } from "vitest";
import { elicitMonotoneDiagonal } from "../../src/elicit/multiclass/monotone.ts";
import type { MulticlassPoint } from "../../src/elicit/multiclass/point.ts";
import { createSpace } from "../../src/geometry/multiclass/space.ts";
import { simulatedOracle } from "../../src/oracle/simulated-oracle.ts";
import { syntheticMulticlassPool } from "../../src/population/multiclass.ts";
import { STRATEGIES } from "../../src/search/strategy.ts";

describe("first-order approximation of a monotone metric (appendix E.3)", () => {
  it("recovers a near-optimal classifier and the gradient direction of a concave metric", () => {
    const pool = syntheticMulticlassPool(3);
    const w = [0.5, 1, 0.7];
    const psi = (d: ArrayLike<number>) =>
      w.reduce((s, wi, i) => s + wi * Math.sqrt(Math.max(d[i]!, 0)), 0);
    const grad = (d: ArrayLike<number>) =>
      w.map((wi, i) => wi / (2 * Math.sqrt(Math.max(d[i]!, 1e-12))));
    // The true optimum over the feasible diagonal confusions, by Frank-Wolfe with the plug-in LMO.
    const space = createSpace("diag-confusion", pool);
    const d = Float64Array.from(space.centre);
    for (let t = 0; t < 3000; t++) {
      const v = space.lmo(Float64Array.from(grad(d))).point;
      const s = 2 / (t + 2);
      for (let i = 0; i < 3; i++) d[i] = (1 - s) * d[i]! + s * v[i]!;
    }
    const g = grad(d);
    const slope = g.map((x) => x / g.reduce((a, b) => a + b, 0));
    const oracle = simulatedOracle((p: MulticlassPoint) => psi(p.point), { kind: "none" }, 1);
    const r = elicitMonotoneDiagonal(oracle.ask, pool, {
      tolerance: 0.01,
      strategy: STRATEGIES.paper,
    });
    expect(psi(r.optimum)).toBeGreaterThanOrEqual(0.99 * psi(d));
    for (const [i, a] of r.metric.entries()) expect(Math.abs(a - slope[i]!)).toBeLessThan(0.05);
    expect(r.approximate(r.optimum)).toBe(0);
  });
});
