import { describe, expect, it } from "vitest";
import { adaptiveProcedure, dominated } from "../../../src/elicit/adaptive/engine.ts";
import { lambdaFamily } from "../../../src/elicit/adaptive/families/fair.ts";
import { multiclassLinearFamily } from "../../../src/elicit/adaptive/families/multiclass.ts";
import { quadraticFamily } from "../../../src/elicit/adaptive/families/quadratic.ts";
import { type FairPoint, fairUtility, normalizeFair } from "../../../src/elicit/fair/metric.ts";
import { randomFairSetting } from "../../../src/elicit/fair/simulate.ts";
import type { MulticlassPoint } from "../../../src/elicit/multiclass/point.ts";
import type { RatePoint } from "../../../src/elicit/quadratic/lpme.ts";
import { evaluateQuadratic } from "../../../src/elicit/quadratic/metric.ts";
import { runProcedure } from "../../../src/elicit/session.ts";
import { syntheticMulticlassPool } from "../../../src/population/multiclass.ts";
import { fairStudyFamily, shownRatesOf } from "../../../src/server/kinds/fair/participant.ts";
import { fairStudyConfig, prepareFairStudyData } from "../../../src/server/kinds/fair/study.ts";
import type { FairSpec } from "../../../src/server/study/config.ts";

// Issue 26 item 1: a study's engine computes on the values its screen shows (`shown`), so a
// question it asks is never dominated as shown and its belief is about what was judged.

const round = (x: number) => Math.round(x * 100) / 100;
const roundRates = (p: FairPoint) => p.rates.map((r) => Array.from(r, round));

describe("the engine on the values shown", () => {
  it("fair: features of a profile are those of its shown rates; no question is dominated as shown", () => {
    const { truth, tau } = randomFairSetting(2, 2, "shown-1");
    const t = normalizeFair(truth);
    const known = { a: t.a, B: t.B };
    const exact = lambdaFamily(2, tau, known);
    const seen = lambdaFamily(2, tau, known, { shown: roundRates, displayStep: 0.01 });
    const p: FairPoint = { rates: [Float64Array.of(0.723, 0.648), Float64Array.of(0.751, 0.606)] };
    const q: FairPoint = { rates: roundRates(p).map((r) => Float64Array.from(r)) };
    expect(Array.from(seen.features(p))).toEqual(Array.from(exact.features(q)));
    expect(Array.from(seen.features(p))).not.toEqual(Array.from(exact.features(p)));

    // A whole run, answered on the rounded rates: every pair asked trades one part of the
    // cost against the other as shown.
    let asked = 0;
    const run = runProcedure(
      adaptiveProcedure(seen, { tolerance: 0.05, budget: 25, model: "human", seed: 3 }),
      ({ first, second }) => {
        asked++;
        expect(dominated(seen.features(first), seen.features(second), seen.signs)).toBe(false);
        const u = (x: FairPoint) => fairUtility(t, tau, roundRates(x));
        const d = u(first) - u(second);
        return d > 0 ? "first" : d < 0 ? "second" : "tie";
      },
    );
    expect(asked).toBeGreaterThan(3);
    expect(Math.abs(run.result.metric.lambda - t.lambda)).toBeLessThan(0.1);
  });

  it("multiclass: the features are the shown confusion's entries in the family's order", () => {
    const pool = syntheticMulticlassPool(3, 600);
    const shown = (_: MulticlassPoint) => Float64Array.from({ length: 9 }, (_, a) => a / 100);
    const diagonal = multiclassLinearFamily("diagonal-linear", pool, { shown });
    const linear = multiclassLinearFamily("linear", pool, { shown });
    const point = diagonal.optimal(Float64Array.of(1, 1, 1));
    expect(Array.from(diagonal.features(point))).toEqual([0, 0.04, 0.08]);
    expect(Array.from(linear.features(point))).toEqual([0.01, 0.02, 0.03, 0.05, 0.06, 0.07]);
    // Without `shown`, the exact joint confusions.
    const exact = multiclassLinearFamily("diagonal-linear", pool);
    expect(Array.from(exact.features(point))).toEqual(Array.from(point.point));
  });

  it("a fairness study's stored spec decides: new studies on the counts shown, older ones (no asShown) exact", () => {
    const { config } = fairStudyConfig({ name: "shown", kind: "fair", dataset: "arrests" });
    const data = prepareFairStudyData(config);
    const spec = config.spec as FairSpec;
    expect(spec.asShown).toBe(true);
    const { asShown: _, ...older } = spec;
    const now = fairStudyFamily(spec, data);
    const before = fairStudyFamily(older, data);
    const p = now.optimal(Float64Array.of(0.55, 0.45));
    const seen: FairPoint = { rates: shownRatesOf(data, p).map((r) => Float64Array.from(r)) };
    expect(Array.from(now.features(p))).toEqual(Array.from(before.features(seen)));
    expect(Array.from(before.features(p))).not.toEqual(Array.from(now.features(p)));
  });
});

describe("the quadratic family on the values shown", () => {
  it("features and the screen key are those of the shown rates; a run asks no dominated pair as shown", () => {
    const roundPoint = (p: RatePoint) => Array.from(p.point, round);
    const exact = quadraticFamily(3, { displayStep: 0.01 });
    const seen = quadraticFamily(3, { displayStep: 0.01, shown: roundPoint });
    const p: RatePoint = { point: Float64Array.of(0.4231, 0.2867, 0.2905) };
    const q: RatePoint = { point: Float64Array.from(roundPoint(p)) };
    expect(Array.from(seen.features(p))).toEqual(Array.from(exact.features(q)));
    expect(Array.from(seen.features(p))).not.toEqual(Array.from(exact.features(p)));
    const nudged: RatePoint = { point: Float64Array.of(0.4249, 0.2851, 0.2899) };
    expect(seen.displayKey(nudged)).toBe(seen.displayKey(p));

    const truth = {
      a: [0.5, 0.3, 0.2],
      B: [
        [-0.5, 0.1, 0],
        [0.1, -0.4, 0],
        [0, 0, -0.45],
      ],
    };
    let asked = 0;
    runProcedure(
      adaptiveProcedure(seen, { tolerance: 0.1, budget: 20, model: "human", seed: 5 }),
      ({ first, second }) => {
        asked++;
        expect(dominated(seen.features(first), seen.features(second), seen.signs)).toBe(false);
        const u = (x: RatePoint) => evaluateQuadratic(truth, roundPoint(x));
        return u(first) >= u(second) ? "first" : "second";
      },
    );
    expect(asked).toBeGreaterThan(5);
  });
});
