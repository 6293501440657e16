import { describe, expect, it } from "vitest";
import {
  LEARNED_MODEL,
  LEARNED_SHARP_CHECKED_MODEL,
  LEARNED_SHARP_MODEL,
  parseAnswerModel,
} from "../../../src/elicit/adaptive/answer-model.ts";
import { adaptiveProcedure, adaptiveSteps, runBytes } from "../../../src/elicit/adaptive/engine.ts";
import { fairQuadraticFamily } from "../../../src/elicit/adaptive/families/fair.ts";
import { type FairPoint, fairUtility, normalizeFair } from "../../../src/elicit/fair/metric.ts";
import { randomFairSetting } from "../../../src/elicit/fair/simulate.ts";
import { runProcedure } from "../../../src/elicit/session.ts";
import { simulatedOracle } from "../../../src/oracle/simulated-oracle.ts";
import type { Ask } from "../../../src/search/question.ts";

// A model's second reading of the answers (`AnswerModel.check`): the whole fair metric's
// `learned-sharp-checked` asks and estimates as `learned-sharp`, its region and unidentified
// coordinates answering for `learned`'s reading too.
describe("a model read again by another (check)", () => {
  const { truth, tau } = randomFairSetting(2, 2, "checked");
  const t = normalizeFair(truth);
  const family = fairQuadraticFamily(2, tau);
  const run = (model: typeof LEARNED_SHARP_MODEL, ask: Ask<FairPoint>) =>
    runProcedure(adaptiveProcedure(family, { tolerance: 0.1, model, seed: 5, budget: 20 }), ask);

  it("is named learned-sharp-checked: learned-sharp read again by learned", () => {
    expect(parseAnswerModel("learned-sharp-checked")).toBe(LEARNED_SHARP_CHECKED_MODEL);
    expect(LEARNED_SHARP_CHECKED_MODEL).toEqual({ ...LEARNED_SHARP_MODEL, check: LEARNED_MODEL });
  });

  it("changes no question and no estimate; its region and open coordinates are never narrower", () => {
    const careful = () => simulatedOracle((p: FairPoint) => fairUtility(t, tau, p.rates)).ask;
    const sharp = run(LEARNED_SHARP_MODEL, careful());
    const checked = run(LEARNED_SHARP_CHECKED_MODEL, careful());
    expect(checked.result.stop).toBe("budget");
    expect(checked.questions).toEqual(sharp.questions);
    expect(checked.result.metric).toEqual(sharp.result.metric);
    expect(checked.result.credible.radius).toBeGreaterThanOrEqual(sharp.result.credible.radius);
    const own = new Map(checked.result.unidentified.map((u) => [u.name, u.halfWidth]));
    for (const u of sharp.result.unidentified) {
      expect(own.get(u.name), u.name).toBeGreaterThanOrEqual(u.halfWidth);
    }
  });

  it("leaves a person who answers by the side of the screen with a wide region, flagged", () => {
    // The system shown first always chosen: no metric's answers, which the careful reader
    // alone takes for a metric's.
    const byPlace = () => "first" as const;
    const sharp = run(LEARNED_SHARP_MODEL, byPlace).result;
    const checked = run(LEARNED_SHARP_CHECKED_MODEL, byPlace).result;
    expect(checked.credible.radius).toBeGreaterThan(sharp.credible.radius);
    expect(checked.credible.radius).toBeGreaterThan(0.1);
    expect(checked.unidentified.length).toBeGreaterThan(0);
  });

  it("counts both readings' arrays in a run's bytes (a server bounds its runs' memory by them)", () => {
    const bytes = (model: typeof LEARNED_SHARP_MODEL) => {
      const run = adaptiveSteps(family, { tolerance: 0.1, model, seed: 5, budget: 20 });
      run.next();
      return runBytes(run)!;
    };
    expect(bytes(LEARNED_SHARP_CHECKED_MODEL)).toBeGreaterThan(1.5 * bytes(LEARNED_SHARP_MODEL));
  });
});
