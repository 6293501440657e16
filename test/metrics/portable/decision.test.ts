import { describe, expect, it } from "vitest";
import { optimalRule } from "../../../src/experiments/score/decision.ts";
import { createRng } from "../../../src/math/rng.ts";
import { portableMetricValue } from "../../../src/metrics/portable/evaluate.ts";
import type { PortableMetric } from "../../../src/metrics/portable/metric.ts";

/**
 * The decision rules `elicit score` reports (issue 29 item 1): for the linear-fractional
 * families the rule found on a model's probabilities is at least as good, in expected value on
 * those probabilities, as any threshold or any of many random linear rules.
 */

const rng = createRng("decision-rules");
const probs = Array.from({ length: 300 }, () => {
  const e = [rng.next() ** 2, rng.next(), rng.next() ** 3];
  const s = e[0]! + e[1]! + e[2]!;
  return Float64Array.from(e, (x) => x / s);
});

/** The expected (soft) confusion of labels on the probabilities. */
function expected(predict: (p: Float64Array) => number, ps: readonly Float64Array[], k: number) {
  const C = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const p of ps) {
    const j = predict(p);
    for (let i = 0; i < k; i++) C[i]![j]! += p[i]!;
  }
  return C;
}

describe("optimal decision rules on a model's probabilities", () => {
  it("binary linear: the Bayes threshold tn / (tp + tn)", () => {
    const r = optimalRule(
      { family: "binary-linear", tp: 0.8, tn: 0.2, classes: ["no", "yes"] },
      [],
    );
    expect(r.threshold).toBeCloseTo(0.2, 15);
    expect(r.text).toBe("positive when P(yes) >= 0.2000");
  });

  it("binary linear-fractional (F1-like): no threshold on a grid beats the rule's", () => {
    const m: PortableMetric = {
      family: "binary-linear-fractional",
      p11: 1,
      p00: 0,
      q11: 0.5,
      q00: -0.5,
      q0: 0.5,
    };
    const ps = probs.map((p) => Float64Array.of(1 - p[0]!, p[0]!));
    const rule = optimalRule(m, ps);
    const best = portableMetricValue(
      m,
      expected((p) => rule.predict(p), ps, 2),
    );
    for (let t = 0; t <= 1; t += 0.01) {
      const v = portableMetricValue(
        m,
        expected((p) => (p[1]! >= t ? 1 : 0), ps, 2),
      );
      expect(v).toBeLessThanOrEqual(best + 1e-12);
    }
  });

  for (const family of ["diagonal-linear-fractional", "linear-fractional"] as const) {
    it(`${family}: Dinkelbach's rule beats 300 random linear rules`, () => {
      const d = family === "linear-fractional" ? 6 : 3;
      const m: PortableMetric =
        family === "linear-fractional"
          ? { family, a: new Array(d).fill(-1 / d), b: [0.2, -0.1, 0.3, 0, 0.1, -0.2], b0: 1 }
          : { family, a: [0.5, 0.3, 0.2], b: [0.3, -0.2, 0.1], b0: 0.6 };
      const rule = optimalRule(m, probs);
      const best = portableMetricValue(
        m,
        expected((p) => rule.predict(p), probs, 3),
      );
      for (let t = 0; t < 300; t++) {
        const G = [0, 1, 2].map(() => [0, 1, 2].map(() => rng.uniform(-1, 1)));
        const v = portableMetricValue(
          m,
          expected(
            (p) => {
              const s = [0, 1, 2].map(
                (j) => p[0]! * G[0]![j]! + p[1]! * G[1]![j]! + p[2]! * G[2]![j]!,
              );
              return s.indexOf(Math.max(...s));
            },
            probs,
            3,
          ),
        );
        expect(v).toBeLessThanOrEqual(best + 1e-12);
      }
    });
  }
});
