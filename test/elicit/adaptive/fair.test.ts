import { describe, expect, it } from "vitest";
import { adaptiveProcedure } from "../../../src/elicit/adaptive/engine.ts";
import {
  fairQuadraticFamily,
  fairToW,
  lambdaFamily,
  wToFair,
} from "../../../src/elicit/adaptive/families/fair.ts";
import {
  type FairPoint,
  fairError,
  fairUtility,
  normalizeFair,
} from "../../../src/elicit/fair/metric.ts";
import { randomFairSetting } from "../../../src/elicit/fair/simulate.ts";
import { replay, runProcedure } from "../../../src/elicit/session.ts";
import { createRng } from "../../../src/math/rng.ts";
import { simulatedOracle } from "../../../src/oracle/simulated-oracle.ts";

function randomProfile(k: number, m: number, rng: ReturnType<typeof createRng>): FairPoint {
  return {
    rates: Array.from({ length: m }, () => Float64Array.from({ length: k }, () => rng.next())),
  };
}

describe("adaptive fair families", () => {
  it("maps w <-> (a, B, lambda) both ways, and utility differences are <w, feature differences>", () => {
    const rng = createRng(4);
    for (const [k, m] of [
      [2, 2],
      [3, 3],
    ] as const) {
      const { truth, tau } = randomFairSetting(k, m, `map-${k}-${m}`);
      const t = normalizeFair(truth);
      const w = fairToW(t, m);
      const family = fairQuadraticFamily(k, tau);
      expect(w.length).toBe(family.dim);
      const back = wToFair(w, k, m);
      const e = fairError(t, back);
      expect(Math.max(e.a, e.B, e.lambda)).toBeLessThan(1e-12);
      expect(family.toMetric(w).lambda).toBeCloseTo(t.lambda, 12);
      // One positive factor relates utility differences and <w, delta features>.
      const ratios: number[] = [];
      for (let s = 0; s < 5; s++) {
        const A = randomProfile(k, m, rng);
        const B = randomProfile(k, m, rng);
        const fa = family.features(A);
        const fb = family.features(B);
        const dot = w.reduce((acc, x, i) => acc + x * (fa[i]! - fb[i]!), 0);
        ratios.push((fairUtility(t, tau, A.rates) - fairUtility(t, tau, B.rates)) / dot);
      }
      for (const r of ratios) expect(r).toBeCloseTo(ratios[0]!, 9);
      expect(ratios[0]!).toBeGreaterThan(0);
    }
  });

  it("errorFrom gives error(toMetric(w), metric) to the bit, zero parts and foreign keys too", () => {
    const rng = createRng(11);
    for (const [k, m] of [
      [2, 2],
      [3, 3],
    ] as const) {
      const { tau } = randomFairSetting(k, m, `from-${k}-${m}`);
      const family = fairQuadraticFamily(k, tau);
      const draw = () => Float64Array.from({ length: family.dim }, () => rng.normal());
      for (let t = 0; t < 200; t++) {
        const metric = family.toMetric(draw());
        const of = family.errorFrom!(metric);
        const w = draw();
        // A zero a-part or B-part: the uniform a, a zero B and lambda 0 (resp. 1).
        if (t % 10 === 1) w.fill(0, 0, k);
        if (t % 10 === 2) w.fill(0, k);
        expect(of(w)).toBe(family.error(family.toMetric(w), metric));
      }
      // A metric with a block key the parameter vectors do not have (fairError's union).
      const odd = { ...family.toMetric(draw()) };
      odd.B = { ...odd.B, "7-9": odd.B["0-1"]! };
      const w = draw();
      expect(family.errorFrom!(odd)(w)).toBe(family.error(family.toMetric(w), odd));
    }
  });

  it("lambda family recovers lambda within 0.01 at tolerance 0.02 in few questions", () => {
    for (let s = 0; s < 3; s++) {
      const { truth, tau } = randomFairSetting(3, 3, `lambda-${s}`);
      const t = normalizeFair(truth);
      const oracle = simulatedOracle((p: FairPoint) => fairUtility(t, tau, p.rates));
      const procedure = adaptiveProcedure(lambdaFamily(3, tau, { a: t.a, B: t.B }), {
        tolerance: 0.02,
        model: "exact",
        seed: s,
        budget: 40,
      });
      const r = runProcedure(procedure, oracle.ask);
      expect(r.result.stop).toBe("tolerance");
      expect(Math.abs(r.result.metric.lambda - t.lambda)).toBeLessThanOrEqual(0.01);
      expect(r.result.questions).toBeLessThanOrEqual(12);
    }
  });

  it("fair QPME (k = 2, m = 2) recovers a, B and lambda noise-free within the tolerance", () => {
    for (let s = 0; s < 2; s++) {
      const { truth, tau } = randomFairSetting(2, 2, `fair-${s}`);
      const t = normalizeFair(truth);
      const oracle = simulatedOracle((p: FairPoint) => fairUtility(t, tau, p.rates));
      const procedure = adaptiveProcedure(fairQuadraticFamily(2, tau), {
        tolerance: 0.01,
        model: "exact",
        seed: s,
        budget: 200,
      });
      const r = runProcedure(procedure, oracle.ask);
      const e = fairError(t, r.result.metric);
      expect(r.result.stop).toBe("tolerance");
      expect(e.a).toBeLessThanOrEqual(0.01);
      expect(e.B).toBeLessThanOrEqual(0.01);
      expect(e.lambda).toBeLessThanOrEqual(0.01);
      // Stopped on the tolerance: no coordinate and no part of the error left open.
      expect(r.result.unidentified).toEqual([]);
      for (const q of r.questions) {
        for (const rates of [...q.first.rates, ...q.second.rates]) {
          expect(Math.hypot(rates[0]! - 0.5, rates[1]! - 0.5)).toBeLessThanOrEqual(0.2 + 1e-9);
        }
      }
    }
  });

  it("reports the parts of its error (a, B) open when they are, never narrower than their entries", () => {
    const { truth, tau } = randomFairSetting(2, 2, "parts");
    const t = normalizeFair(truth);
    const oracle = simulatedOracle((p: FairPoint) => fairUtility(t, tau, p.rates));
    const family = fairQuadraticFamily(2, tau);
    expect(family.parts!.names).toEqual(["a", "B"]);
    expect(family.parts!.distances(t, t)).toEqual([0, 0]);
    const r = runProcedure(
      adaptiveProcedure(family, { tolerance: 0.05, model: "exact", seed: 3, budget: 8 }),
      oracle.ask,
    ).result;
    const open = new Map(r.unidentified.map((u) => [u.name, u.halfWidth]));
    // Eight answers leave the gap weights open as a whole.
    expect(open.get("B")).toBeGreaterThan(0.05);
    // A norm over several entries is at least each entry's distance, so its half-width too.
    for (const [name, h] of open) {
      if (/^a\d/.test(name)) expect(open.get("a")).toBeGreaterThanOrEqual(h);
      if (/^B\d/.test(name)) expect(open.get("B")).toBeGreaterThanOrEqual(h);
    }
  });

  it("replays a prefix of its answer log to the same next question", () => {
    const { truth, tau } = randomFairSetting(2, 3, "replay");
    const t = normalizeFair(truth);
    const oracle = simulatedOracle((p: FairPoint) => fairUtility(t, tau, p.rates));
    const procedure = adaptiveProcedure(fairQuadraticFamily(2, tau), {
      tolerance: 0.01,
      model: "exact",
      seed: 9,
      budget: 10,
    });
    const r = runProcedure(procedure, oracle.ask);
    for (const n of [0, 4, 9]) {
      const state = replay(procedure, r.answers.slice(0, n));
      expect(state.status).toBe("pending");
      if (state.status !== "pending") continue;
      expect(state.question.first.rates).toEqual(r.questions[n]!.first.rates);
      expect(state.question.second.rates).toEqual(r.questions[n]!.second.rates);
    }
  });
});
