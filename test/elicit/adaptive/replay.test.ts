import { describe, expect, it } from "vitest";
import { adaptiveProcedure } from "../../../src/elicit/adaptive/engine.ts";
import { replay, runProcedure } from "../../../src/elicit/session.ts";
import { simulatedOracle } from "../../../src/oracle/simulated-oracle.ts";
import { familyCases, randomTruth } from "./family-cases.ts";

/**
 * Issue 10, "Replay": for every family, replaying any prefix of an adaptive answer log gives
 * the same next question, and the whole log the same result. The stakeholder here is a random
 * direction of the family's own parameters answering with 10% flips, under the human model
 * (soft answers: the slice-sampling path) and the exact model (hard constraints).
 */
describe.each(familyCases)("adaptive replay: %s", (name, make) => {
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
