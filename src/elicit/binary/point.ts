import { boundaryClassifier } from "../../geometry/binary/bayes.ts";
import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import {
  type ThresholdClassifier,
  thresholdClassifier,
} from "../../geometry/binary/threshold-classifier.ts";
import type { BinaryConfusion } from "../../metrics/binary-confusion.ts";

/** A point shown to the stakeholder: a confusion and the classifier that achieves it. */
export interface BinaryPoint {
  readonly confusion: BinaryConfusion;
  readonly classifier: ThresholdClassifier;
}

/**
 * The boundary point at angle theta (Bayes classifier of `(cos theta, sin theta)`).
 * @example boundaryPoint(syntheticPopulation(), Math.PI / 4).classifier.threshold // 0.5
 */
export function boundaryPoint(population: BinaryPopulation, theta: number): BinaryPoint {
  const classifier = boundaryClassifier(theta);
  return { confusion: population.confusion(classifier), classifier };
}

/**
 * The point of the threshold classifier `1[eta >= tau]`, optionally snapped to a grid
 * (the user-study UI used thresholds 0, 1e-4, 2e-4, ..., 1).
 * @example thresholdPoint(pool, 0.31234, 1e-4).classifier.threshold // 0.3123
 */
export function thresholdPoint(population: BinaryPopulation, tau: number, grid = 0): BinaryPoint {
  const t = grid > 0 ? Math.round(tau / grid) * grid : tau;
  const classifier = thresholdClassifier(Math.min(1, Math.max(0, t)), "ge");
  return { confusion: population.confusion(classifier), classifier };
}
