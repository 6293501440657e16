import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshStore, signIn, startApp, type TestApp } from "../server/helpers.ts";
import {
  answerMulticlass,
  createMulticlass,
  finishMulticlass,
  randomTruth,
  screenReader,
  seededParticipant,
  walkToMulticlass,
} from "../server/multiclass-driver.ts";

/**
 * Issue 12, "Done when" (multiclass half): a simulated participant with 5% flipped answers
 * finishes a k = 3 diagonal-linear study (iris, the study's defaults: tolerance 0.05, budget 25)
 * in at most 25 questions, its metric recovered within twice the tolerance in at least 90% of
 * 50 runs, all over the HTTP API (test/server/multiclass-study.test.ts runs 5 of them).
 */
const RUNS = 50;

describe("multiclass study over HTTP (sqlite)", () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startApp(await freshStore("sqlite"));
    cookie = await signIn(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it(`k = 3 diagonal-linear, 5% flips: ${RUNS} runs`, async () => {
    const { study, config, data } = await createMulticlass(t, cookie);
    const tolerance = config.spec.tolerance;
    let within = 0;
    let maxQuestions = 0;
    let maxError = 0;
    const errors: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const truth = randomTruth(3, run);
      const { token, seed } = await seededParticipant(t, cookie, study.id, 1000 + run);
      const reader = screenReader(truth, data.pool.priors, 0.05, seed);
      const start = await walkToMulticlass(t, token);
      const { asked, state } = await answerMulticlass(t, token, seed, start, reader);
      const d = (await finishMulticlass(t, token, state)).multiclassDebrief!;
      const err = Math.max(...d.metric.weights.map((w, i) => Math.abs(w - truth[i]!)));
      errors.push(err);
      if (err <= 2 * tolerance) within++;
      maxQuestions = Math.max(maxQuestions, asked);
      maxError = Math.max(maxError, err);
    }
    errors.sort((a, b) => a - b);
    console.log(
      `multiclass k=3 (iris), 5% flips: ${within} of ${RUNS} within 2x tolerance (${2 * tolerance}), max questions ${maxQuestions}, median error ${errors[RUNS >> 1]!.toFixed(4)}, max error ${maxError.toFixed(4)}`,
    );
    expect(maxQuestions).toBeLessThanOrEqual(25);
    expect(within).toBeGreaterThanOrEqual(Math.ceil(0.9 * RUNS));
  });
});
