import { describe, expect, it } from "vitest";
import { adaptiveProcedure } from "../../src/elicit/adaptive/engine.ts";
import { multiclassLinearFamily } from "../../src/elicit/adaptive/families/multiclass.ts";
import type { MulticlassPoint } from "../../src/elicit/multiclass/point.ts";
import { runProcedure } from "../../src/elicit/session.ts";
import { logisticNoiseFor } from "../../src/experiments/simulate-adaptive.ts";
import {
  normalizeMulticlassTruth,
  randomMulticlassTruth,
} from "../../src/experiments/simulate-multiclass.ts";
import { createSpace } from "../../src/geometry/multiclass/space.ts";
import { findSphere } from "../../src/geometry/multiclass/sphere.ts";
import { createRng } from "../../src/math/rng.ts";
import { simulatedOracle } from "../../src/oracle/simulated-oracle.ts";
import { syntheticMulticlassPool } from "../../src/population/multiclass.ts";
import { recordFigures } from "./figures.ts";
import { recordings } from "./recorded.ts";

/**
 * Issue 10, calibration: under logistic noise (10% wrong on pairs a tenth of the truth's
 * range apart) the LPM's answers leave most of its 6 weights to the prior, so the 90%
 * credible region must answer for the truths people have, not only for the engine's uniform
 * prior: the papers' random LPMs (uniform angles: a few large weights, a geometrically
 * shrinking tail) with ranges from 0.16 to 0.37. Before the human model measured differences
 * in each metric's own range and the region answered for a sparse prior too, it covered 70%.
 * 40 truths: at a true coverage of 90% fewer than 31 covered happens about once in 100 seeds.
 * The README quotes the covered counts (docs/figures/calibration-N.txt, for readme:check).
 */
const TRUTHS = 40;

const recorded = recordings(import.meta.url);

/** The seed's 40 truths, drawn in turn from its generator (cheap: no run). */
function calibrationTruths(seed: string): number[][] {
  const rng = createRng(seed);
  return Array.from({ length: TRUTHS }, () =>
    normalizeMulticlassTruth("linear", randomMulticlassTruth("linear", 3, rng)),
  );
}

/** Run `t` of a seed (its `t`-th truth, oracle and engine seeded `t + 1`): error / radius and how many weights it left unidentified. */
function calibrationRun(truth: number[], t: number) {
  const family = lpmFamily();
  const value = (p: MulticlassPoint) => {
    let v = 0;
    for (let i = 0; i < truth.length; i++) v += truth[i]! * p.point[i]!;
    return v;
  };
  const oracle = simulatedOracle(value, logisticNoiseFor(family, value), t + 1);
  const r = runProcedure(
    adaptiveProcedure(family, {
      tolerance: 0.01,
      budget: 300,
      credibility: 0.9,
      model: "human",
      seed: t + 1,
    }),
    oracle.ask,
  ).result;
  const error = family.error(truth, r.metric);
  return {
    ratio: error / r.credible.radius,
    covered: error <= r.credible.radius,
    unidentified: r.unidentified.length,
  };
}

let family: ReturnType<typeof multiclassLinearFamily> | undefined;
/** The LPM k = 3 family on the synthetic pool, its sphere found once for every run. */
function lpmFamily() {
  if (!family) {
    const pool = syntheticMulticlassPool(3);
    const sphere = findSphere(createSpace("offdiag-confusion", pool));
    family = multiclassLinearFamily("linear", pool, { displayStep: 1e-4, sphere });
  }
  return family;
}

describe("calibration under logistic noise (LPM k = 3, the papers' random truths)", () => {
  it.each([
    ["calibration", 1],
    ["calibration-2", 2],
  ])("seed %s: the 0.9 credible region covers at least 31 of 40 truths", (seed, n) => {
    // A run at a time, each recorded on its own (recorded.ts): a seed's 40 runs are one
    // computation of about four minutes, too coarse a unit to check afresh at random.
    const runs = calibrationTruths(seed).map((truth, t) =>
      recorded("calibrationRun", { seed, t }, () => calibrationRun(truth, t)),
    );
    const ratios = runs.map((r) => r.ratio);
    const covered = runs.filter((r) => r.covered).length;
    // Every such run must say that the weights are not pinned down to the tolerance.
    for (const r of runs) expect(r.unidentified).toBeGreaterThan(0);
    const line = `LPM k=3 logistic, seed ${seed}: covered ${covered} of ${TRUTHS}; error / radius max ${Math.max(...ratios).toFixed(2)}`;
    console.log(line);
    recordFigures(`calibration-${n}`, import.meta.url, `seed ${seed}:`, line);
    expect(covered).toBeGreaterThanOrEqual(31);
  });
});
