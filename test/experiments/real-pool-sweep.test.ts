import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { adaptiveProcedure } from "../../src/elicit/adaptive/engine.ts";
import { multiclassLinearFamily } from "../../src/elicit/adaptive/families/multiclass.ts";
import type { MulticlassPoint } from "../../src/elicit/multiclass/point.ts";
import { runProcedure } from "../../src/elicit/session.ts";
import { REAL_POOL_CASES, sweepRealPool } from "../../src/experiments/real-pool-sweep.ts";
import { MulticlassPool } from "../../src/geometry/multiclass/pool.ts";
import { createRng } from "../../src/math/rng.ts";
import { simulatedOracle } from "../../src/oracle/simulated-oracle.ts";

/** A quick version of test/sweeps/real-pools.sweep.ts (the full sweep runs 50 truths per case). */
const read = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../data/${name}.csv`, import.meta.url)), "utf8");

describe("adaptive elicitation on real pools (quick)", () => {
  for (const c of REAL_POOL_CASES.filter(
    (x) =>
      (x.dataset === "breast_cancer_wisconsin_diagnostic" && x.pool === "labelled") ||
      (x.dataset === "iris" && x.family === "diagonal-linear"),
  )) {
    it(`${c.dataset} ${c.family} ${c.pool ?? ""}: no silent miss, none over budget`, () => {
      const s = sweepRealPool(read(c.dataset), c, 4);
      expect(s.silentMisses).toBe(0);
      expect(s.overBudget).toBe(0);
    });
  }

  it("a pool flat in some direction: the result names what it cannot identify, or says why it stops", () => {
    // Classes 1 and 2 have the same probability on every row: no classifier can tell them
    // apart, so the feasible off-diagonal confusions are flat and the sphere has radius 0.
    const rng = createRng(5);
    const n = 400;
    const eta = new Float64Array(n * 3);
    for (let r = 0; r < n; r++) {
      const p0 = rng.next();
      eta.set([p0, (1 - p0) / 2, (1 - p0) / 2], r * 3);
    }
    const pool = new MulticlassPool(eta, 3);
    const family = multiclassLinearFamily("linear", pool);
    const truth = [-0.1, -0.5, -0.3, -0.6, -0.2, -0.5];
    const norm = Math.hypot(...truth);
    const t = truth.map((x) => x / norm);
    const oracle = simulatedOracle((p: MulticlassPoint) =>
      t.reduce((s, x, i) => s + x * p.point[i]!, 0),
    );
    const budget = 60;
    const r = runProcedure(
      adaptiveProcedure(family, { tolerance: 0.01, model: "exact", budget }),
      oracle.ask,
    ).result;
    expect(r.questions).toBeLessThanOrEqual(budget);
    const error = family.error(t, r.metric);
    if (error > 0.02) expect(r.unidentified.length).toBeGreaterThan(0);
    expect(r.stop).not.toBe("tolerance");
  });
});
