import { describe, expect, it } from "vitest";
import {
  FLIPS_LAPSES,
  LEARNED_FLIPS_CHECKED_MODEL,
  LEARNED_MODEL,
  LEARNED_SHARP_CHECKED_MODEL,
  LEARNED_SHARP_MODEL,
  parseAnswerModel,
} from "../../../src/elicit/adaptive/answer-model.ts";
import { adaptiveProcedure, adaptiveSteps, runBytes } from "../../../src/elicit/adaptive/engine.ts";
import { fairQuadraticFamily } from "../../../src/elicit/adaptive/families/fair.ts";
import {
  TRUST_CAREFUL,
  TRUST_COUNTED,
  trustedReading,
} from "../../../src/elicit/adaptive/phase-three.ts";
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
  const run = (model: typeof LEARNED_SHARP_MODEL, ask: Ask<FairPoint>, budget = 20) =>
    runProcedure(adaptiveProcedure(family, { tolerance: 0.1, model, seed: 5, budget }), ask);

  it("is named learned-sharp-checked: learned-sharp read again by learned", () => {
    expect(parseAnswerModel("learned-sharp-checked")).toBe(LEARNED_SHARP_CHECKED_MODEL);
    expect(LEARNED_SHARP_CHECKED_MODEL).toEqual({ ...LEARNED_SHARP_MODEL, check: LEARNED_MODEL });
  });

  it("learned-flips-checked: sharp flippers among learned-sharp's people, questions by spread, read again by learned", () => {
    const m = parseAnswerModel("learned-flips-checked");
    expect(m).toBe(LEARNED_FLIPS_CHECKED_MODEL);
    if (m.kind !== "human") throw new Error("human");
    expect(m.check).toBe(LEARNED_MODEL);
    expect(m.selectBy).toBe("spread");
    expect(m.lapses).toBe(FLIPS_LAPSES);
    // Three flippers as sharp as the careful reader, flipping 5%, 10% and 20% of answers.
    expect(FLIPS_LAPSES.levels.slice(-3)).toEqual([0.1, 0.2, 0.4]);
    expect(FLIPS_LAPSES.sharpness?.slice(-3)).toEqual([20, 20, 20]);
    expect(FLIPS_LAPSES.prior.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    // Its questions are its own: on the same careful answers it asks other pairs than
    // learned-sharp-checked does.
    const careful = () => simulatedOracle((p: FairPoint) => fairUtility(t, tau, p.rates)).ask;
    const flips = run(LEARNED_FLIPS_CHECKED_MODEL, careful());
    const checked = run(LEARNED_SHARP_CHECKED_MODEL, careful());
    expect(flips.questions).not.toEqual(checked.questions);
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

  it("keeps the first reading alone, stated once a careful person's Phase III bears it out", () => {
    const careful = simulatedOracle((p: FairPoint) => fairUtility(t, tau, p.rates)).ask;
    // The whole fair metric's study budget (45).
    const sharp = run(LEARNED_SHARP_MODEL, careful, 45).result;
    const checked = run(LEARNED_SHARP_CHECKED_MODEL, careful, 45).result;
    expect(sharp.firstReading).toBeUndefined();
    const first = checked.firstReading!;
    // The first reading alone is never wider than the two together.
    expect(first.radius).toBeLessThanOrEqual(checked.credible.radius);
    const open = new Set(checked.unidentified.map((u) => u.name));
    for (const u of first.unidentified) expect(open.has(u.name), u.name).toBe(true);
    expect(first.careful).toBeGreaterThanOrEqual(TRUST_CAREFUL);
    // The check leaves this careful person's gap weights open; a clean Phase III states the
    // first reading instead.
    expect(checked.unidentified.length).toBeGreaterThan(first.unidentified.length);
    const clean = { counted: 15, against: 0, retestPairs: 2, retestSame: 2 };
    const trusted = trustedReading(checked, clean);
    expect(trusted.credible.radius).toBe(first.radius);
    expect(trusted.unidentified).toEqual(first.unidentified);
    expect(trusted.metric).toBe(checked.metric);
    // One slip, one repeat answered otherwise, too few answers or no Phase III: as it was.
    for (const record of [
      { ...clean, against: 1 },
      { ...clean, retestSame: 1 },
      { ...clean, counted: TRUST_COUNTED - 1 },
      null,
    ]) {
      expect(trustedReading(checked, record), JSON.stringify(record)).toBe(checked);
    }
    // A result without a first reading (no check) is never changed.
    expect(trustedReading(sharp, clean)).toBe(sharp);
  });

  it("does not trust the first reading of a person it doubts is careful", () => {
    const byPlace = () => "first" as const;
    const checked = run(LEARNED_SHARP_CHECKED_MODEL, byPlace).result;
    const doubted = { ...checked, firstReading: { ...checked.firstReading!, careful: 0.5 } };
    const clean = { counted: 15, against: 0, retestPairs: 2, retestSame: 2 };
    expect(trustedReading(doubted, clean)).toBe(doubted);
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
