import { describe, expect, it } from "vitest";
import { adaptiveProcedure } from "../../../src/elicit/adaptive/engine.ts";
import { cubicFamily, cubicToW, wToCubic } from "../../../src/elicit/adaptive/families/cubic.ts";
import {
  quadraticFamily,
  quadraticFeatures,
  quadraticToW,
  wToQuadratic,
} from "../../../src/elicit/adaptive/families/quadratic.ts";
import { UnsupportedFamilyError } from "../../../src/elicit/adaptive/family.ts";
import {
  cubicError,
  evaluateCubic,
  randomCubicMetric,
} from "../../../src/elicit/quadratic/cubic.ts";
import type { RatePoint } from "../../../src/elicit/quadratic/lpme.ts";
import {
  evaluateQuadratic,
  type QuadraticMetric,
  quadraticError,
} from "../../../src/elicit/quadratic/metric.ts";
import { randomSphereTruth } from "../../../src/elicit/quadratic/simulate.ts";
import { replay, runProcedure } from "../../../src/elicit/session.ts";
import { createRng } from "../../../src/math/rng.ts";
import { simulatedOracle } from "../../../src/oracle/simulated-oracle.ts";

function run(truth: QuadraticMetric, seed: number, budget = 400) {
  const k = truth.a.length;
  const oracle = simulatedOracle((p: RatePoint) => evaluateQuadratic(truth, p.point));
  const procedure = adaptiveProcedure(quadraticFamily(k), {
    tolerance: 0.01,
    model: "exact",
    seed,
    budget,
  });
  return { procedure, run: runProcedure(procedure, oracle.ask) };
}

describe("adaptive quadratic family", () => {
  it("maps w <-> (a, B) both ways, unit w <-> ||a||^2 + ||B||_F^2 = 1, and phi = <w, features>", () => {
    const rng = createRng(3);
    for (const k of [2, 3, 5]) {
      const truth = randomSphereTruth(k, rng);
      const w = quadraticToW(truth);
      expect(w.length).toBe(2 * k + (k * (k - 1)) / 2);
      expect(Math.hypot(...w)).toBeCloseTo(1, 12);
      const back = wToQuadratic(w, k);
      const e = quadraticError(truth, back);
      expect(Math.max(e.a, e.B)).toBeLessThan(1e-12);
      const r = Array.from({ length: k }, () => rng.next());
      const f = quadraticFeatures(r);
      const v = w.reduce((s, x, i) => s + x * f[i]!, 0);
      expect(v).toBeCloseTo(evaluateQuadratic(truth, r), 12);
    }
  });

  it("recovers fixed truths at k = 2 and 3 noise-free within the tolerance (a and B errors <= 0.01)", () => {
    const rng = createRng(7);
    for (const [k, limit] of [
      [2, 70],
      [2, 70],
      [3, 120],
    ] as const) {
      const truth = randomSphereTruth(k, rng);
      const { run: r } = run(truth, k);
      const e = quadraticError(truth, r.result.metric);
      expect(r.result.stop).toBe("tolerance");
      expect(e.a).toBeLessThanOrEqual(0.01);
      expect(e.B).toBeLessThanOrEqual(0.01);
      expect(r.result.questions).toBeLessThanOrEqual(limit);
      // Every question stays in the query ball (radius 0.2 around 1/k).
      for (const q of r.questions) {
        for (const p of [q.first.point, q.second.point]) {
          const d = Math.hypot(...Array.from(p, (x) => x - 1 / k));
          expect(d).toBeLessThanOrEqual(0.2 + 1e-9);
        }
      }
    }
  });

  it("replays a prefix of its answer log to the same next question", () => {
    const truth = randomSphereTruth(2, createRng(21));
    const { procedure, run: r } = run(truth, 5, 14);
    for (const n of [0, 6, 13]) {
      const state = replay(procedure, r.answers.slice(0, n));
      expect(state.status).toBe("pending");
      if (state.status !== "pending") continue;
      expect(state.question.first.point).toEqual(r.questions[n]!.first.point);
      expect(state.question.second.point).toEqual(r.questions[n]!.second.point);
    }
  });

  it("rejects the off-diagonal-rates space with a one-line reason", () => {
    expect(() => quadraticFamily(3, { space: "off-diagonal-rates" })).toThrow(
      UnsupportedFamilyError,
    );
  });

  it("cubic: maps w <-> (a, B, C) both ways and phi = <w, features>", () => {
    const rng = createRng(5);
    for (const k of [2, 3]) {
      const truth = randomCubicMetric(k, rng);
      const w = cubicToW(truth);
      expect(Math.hypot(...w)).toBeCloseTo(1, 12);
      const e = cubicError(truth, wToCubic(w, k));
      expect(Math.max(e.a, e.B, e.C)).toBeLessThan(1e-12);
      const family = cubicFamily(k);
      expect(family.dim).toBe(w.length);
      const r = Float64Array.from({ length: k }, () => rng.next());
      const f = family.features({ point: r, classifier: null });
      expect(w.reduce((s, x, i) => s + x * f[i]!, 0)).toBeCloseTo(evaluateCubic(truth, r), 12);
    }
  });
});
