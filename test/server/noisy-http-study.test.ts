import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerFair, createFair, fairReader, randomLambda } from "./fair-driver.ts";
import { freshStore, signIn, startApp, type TestApp } from "./helpers.ts";
import {
  answerMulticlass,
  createMulticlass,
  finishMulticlass,
  randomTruth,
  screenReader,
  seededParticipant,
  walkToMulticlass,
} from "./multiclass-driver.ts";

/**
 * The quick version of test/sweeps/noisy-http-study.sweep.ts (issue 12's 50-run recovery
 * check over HTTP): a few simulated participants with 5% flipped answers finish a k = 3
 * diagonal-linear study and a lambda study in at most 25 questions each, their metric within
 * twice the study's tolerance (other seeds than the sweep's).
 */
describe("noisy participants over HTTP, a few (sqlite)", () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startApp(await freshStore("sqlite"));
    cookie = await signIn(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it("k = 3 diagonal-linear (iris), 1 participant", async () => {
    const { study, config, data } = await createMulticlass(t, cookie);
    for (let run = 0; run < 1; run++) {
      const truth = randomTruth(3, 500 + run);
      const { token, seed } = await seededParticipant(t, cookie, study.id, 5000 + run);
      const reader = screenReader(truth, data.pool.priors, 0.05, seed);
      const start = await walkToMulticlass(t, token);
      const { asked, state } = await answerMulticlass(t, token, seed, start, reader);
      const d = (await finishMulticlass(t, token, state, { seed, reader })).multiclassDebrief!;
      expect(asked).toBeLessThanOrEqual(25);
      const err = Math.max(...d.metric.weights.map((w, i) => Math.abs(w - truth[i]!)));
      expect(err).toBeLessThanOrEqual(2 * config.spec.tolerance);
    }
  }, 180_000);

  it("lambda (arrests by colour), 2 participants", async () => {
    const { study, config, data } = await createFair(t, cookie);
    for (let run = 0; run < 2; run++) {
      const truth = randomLambda(500 + run);
      const { token, seed } = await seededParticipant(t, cookie, study.id, 6000 + run);
      const reader = fairReader(config.spec, data.tau, truth, 0.05, seed);
      const start = await walkToMulticlass(t, token);
      const { asked, state } = await answerFair(t, token, seed, start, reader);
      const d = (await finishMulticlass(t, token, state, { seed, reader })).fairDebrief!;
      expect(asked).toBeLessThanOrEqual(25);
      expect(Math.abs(d.metric.lambda - truth)).toBeLessThanOrEqual(2 * config.spec.tolerance);
    }
  }, 180_000);
});
