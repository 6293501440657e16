import { describe, expect, it } from "vitest";
import { adaptiveProcedure } from "../../../src/elicit/adaptive/engine.ts";
import {
  binaryLinearFamily,
  binaryThresholdFamily,
} from "../../../src/elicit/adaptive/families/binary.ts";
import { cubicFamily } from "../../../src/elicit/adaptive/families/cubic.ts";
import { fairQuadraticFamily, lambdaFamily } from "../../../src/elicit/adaptive/families/fair.ts";
import { multiclassLinearFamily } from "../../../src/elicit/adaptive/families/multiclass.ts";
import { quadraticFamily } from "../../../src/elicit/adaptive/families/quadratic.ts";
import type { AdaptiveFamily } from "../../../src/elicit/adaptive/family.ts";
import { randomFairSetting } from "../../../src/elicit/fair/simulate.ts";
import { replay, runProcedure } from "../../../src/elicit/session.ts";
import { syntheticPopulation } from "../../../src/geometry/binary/synthetic.ts";
import { createRng } from "../../../src/math/rng.ts";
import { simulatedOracle } from "../../../src/oracle/simulated-oracle.ts";
import { syntheticMulticlassPool } from "../../../src/population/multiclass.ts";

/**
 * Issue 10, "Replay": for every family, replaying any prefix of an adaptive answer log gives
 * the same next question, and the whole log the same result. The stakeholder here is a random
 * direction of the family's own parameters answering with 10% flips, under the human model
 * (soft answers: the slice-sampling path) and the exact model (hard constraints).
 */
const pop = syntheticPopulation(5);
const pool = syntheticMulticlassPool(3, 3000);
const fair = randomFairSetting(2, 2, "replay");
const cases: [string, () => AdaptiveFamily<unknown, unknown>][] = [
  ["binary-linear", () => binaryLinearFamily(pop) as AdaptiveFamily<unknown, unknown>],
  ["binary-threshold", () => binaryThresholdFamily(pop) as AdaptiveFamily<unknown, unknown>],
  [
    "diagonal-linear",
    () => multiclassLinearFamily("diagonal-linear", pool) as AdaptiveFamily<unknown, unknown>,
  ],
  ["linear", () => multiclassLinearFamily("linear", pool) as AdaptiveFamily<unknown, unknown>],
  ["quadratic", () => quadraticFamily(2) as AdaptiveFamily<unknown, unknown>],
  ["fair-quadratic", () => fairQuadraticFamily(2, fair.tau) as AdaptiveFamily<unknown, unknown>],
  [
    "lambda",
    () =>
      lambdaFamily(2, fair.tau, { a: fair.truth.a, B: fair.truth.B }) as AdaptiveFamily<
        unknown,
        unknown
      >,
  ],
  ["cubic", () => cubicFamily(2) as AdaptiveFamily<unknown, unknown>],
];

function randomTruth(family: AdaptiveFamily<unknown, unknown>, seed: string): Float64Array {
  const rng = createRng(seed);
  const w = Float64Array.from(family.signs, (s) => {
    const g = rng.normal();
    return s === 0 ? g : s * Math.abs(g);
  });
  const n = Math.hypot(...w);
  return w.map((x) => x / n);
}

describe.each(cases)("adaptive replay: %s", (name, make) => {
  for (const model of ["human", "exact"] as const) {
    it(`${model} model: every prefix replays to the same next question`, () => {
      const family = make();
      const truth = randomTruth(family, name);
      const value = (p: unknown) => {
        const f = family.features(p);
        return f.reduce((s, x, i) => s + x * truth[i]!, 0);
      };
      const options = { tolerance: 0.001, model, seed: 7, budget: 6, particles: 300 } as const;
      const oracle = simulatedOracle(value, { kind: "flip", probability: 0.1 }, 3);
      const run = runProcedure(adaptiveProcedure(family, options), oracle.ask);
      expect(run.answers.length).toBe(6);
      const procedure = adaptiveProcedure(make(), options);
      for (let n = 0; n < run.answers.length; n++) {
        const state = replay(procedure, run.answers.slice(0, n));
        expect(state.status).toBe("pending");
        if (state.status !== "pending") continue;
        expect(Array.from(family.features(state.question.first))).toEqual(
          Array.from(family.features(run.questions[n]!.first)),
        );
        expect(Array.from(family.features(state.question.second))).toEqual(
          Array.from(family.features(run.questions[n]!.second)),
        );
      }
      const done = replay(procedure, run.answers);
      expect(done.status).toBe("done");
      if (done.status === "done") {
        expect(done.result.metric).toEqual(run.result.metric);
        expect(done.result.credible).toEqual(run.result.credible);
      }
    });
  }
});
