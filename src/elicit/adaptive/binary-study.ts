import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import type { BinaryLinearMetric } from "../../metrics/binary-linear.ts";
import type { BinaryPoint } from "../binary/point.ts";
import { type Procedure, type Steps, stepsProcedure } from "../session.ts";
import type { AnswerModelName } from "./answer-model.ts";
import { type AdaptiveResult, adaptiveSteps } from "./engine.ts";
import {
  binaryLinearFamily,
  binaryThresholdFamily,
  type ThresholdMetric,
} from "./families/binary.ts";
import type { AdaptiveFamily } from "./family.ts";

/**
 * What fixes a binary web study's adaptive questions (the server's stored `AdaptiveStudySpec`
 * has these fields): the family, the display step the engine is told, the threshold grid, and
 * the stopping settings.
 */
export interface BinaryStudySettings {
  readonly family: "binary-threshold" | "binary-linear";
  readonly tolerance: number;
  readonly budget: number;
  readonly credibility: number;
  readonly model: AnswerModelName;
  /** Precision at which TP and TN are shown (fractions of the population). */
  readonly displayStep: number;
  /** binary-threshold: thresholds snapped to this grid. */
  readonly grid?: number;
  /** The belief's grid points per prior component (default the engine's, 16384). */
  readonly gridPoints?: number;
  /**
   * Offer the questions every point as shown (`BinaryFamilyOptions.everyShown`): true in
   * studies created from issue 26's stop 49 on; absent, older studies replay as they ran.
   */
  readonly everyShown?: boolean;
}

/**
 * The belief's grid points per prior component in binary studies created from issue 28 on
 * (stored in the study's spec as `gridPoints`; older studies, without it, keep the engine's
 * 16384 and replay as they ran): a quarter of the CPU per answer (3.5 against 10.1 ms per
 * engine step on a scratch panel of 36 binary runs), and on the people panel's tuning truths
 * (`reproduce people --truth-seed tune-1` and `tune-2`, binary families) no cell moved beyond
 * the spread of its 30 truths: the grid stays far finer than whole people of 100 tell apart.
 */
export const STUDY_GRID_POINTS = 4096;

/** The engine's result for a binary study: `metric` is `{ a0 }` or unit-norm `{ tp, tn }`. */
export type BinaryStudyResult =
  | AdaptiveResult<BinaryPoint, ThresholdMetric>
  | AdaptiveResult<BinaryPoint, BinaryLinearMetric>;

/**
 * The adaptive family a binary study runs over its pool: told the display step and that
 * answers are about TP and TN as shown. The web study and `elicit reproduce people` both use
 * it, so the experiment asks what a participant would be asked.
 * @example binaryStudyFamily({ family: "binary-threshold", displayStep: 0.01, grid: 1e-4 }, pool)
 */
export function binaryStudyFamily(
  s: Pick<BinaryStudySettings, "family" | "displayStep" | "grid" | "everyShown">,
  population: BinaryPopulation,
): AdaptiveFamily<BinaryPoint, ThresholdMetric> | AdaptiveFamily<BinaryPoint, BinaryLinearMetric> {
  return s.family === "binary-threshold"
    ? binaryThresholdFamily(population, {
        displayStep: s.displayStep,
        grid: s.grid ?? 0,
        asShown: true,
        everyShown: s.everyShown ?? false,
      })
    : binaryLinearFamily(population, {
        displayStep: s.displayStep,
        asShown: true,
        everyShown: s.everyShown ?? false,
      });
}

/**
 * The adaptive procedure of a binary study for one participant: `binaryStudyFamily` with the
 * study's budget, credibility and model, seeded with the participant's seed, so the same
 * answers always meet the same questions.
 * @example runProcedure(binaryStudyProcedure(settings, pool, 7), person.ask).result.metric
 */
export function binaryStudyProcedure(
  s: BinaryStudySettings,
  population: BinaryPopulation,
  seed: number,
): Procedure<BinaryPoint, BinaryStudyResult> {
  return stepsProcedure(() => binaryStudySteps(s, population, seed));
}

/**
 * `binaryStudyProcedure` as a resumable run (the server keeps one per participant between
 * answers): the same generator, so the same questions for the same answers.
 * @example liveRun(binaryStudySteps(settings, pool, 7), answers).state
 */
export function binaryStudySteps(
  s: BinaryStudySettings,
  population: BinaryPopulation,
  seed: number,
): Steps<BinaryPoint, BinaryStudyResult> {
  const options = {
    tolerance: s.tolerance,
    budget: s.budget,
    credibility: s.credibility,
    model: s.model,
    seed,
    ...(s.gridPoints !== undefined ? { gridPoints: s.gridPoints } : {}),
  };
  const family = binaryStudyFamily(s, population);
  return s.family === "binary-threshold"
    ? adaptiveSteps(family as AdaptiveFamily<BinaryPoint, ThresholdMetric>, options)
    : adaptiveSteps(family as AdaptiveFamily<BinaryPoint, BinaryLinearMetric>, options);
}
