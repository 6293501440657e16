import type { BinaryLinearMetric } from "../../metrics/binary-linear.ts";
import { type ThresholdClassifier, thresholdClassifier } from "./threshold-classifier.ts";

/**
 * The Bayes optimal classifier of an LPM (Proposition 1): predict positive when
 * `m11 eta >= m00 (1 - eta)`. With `m11 + m00 >= 0` that is `eta >= m00 / (m11 + m00)`,
 * otherwise `eta <= m00 / (m11 + m00)`. Opposite-sign weights give a trivial classifier
 * (threshold clamped to [0, 1]).
 *
 * @example bayesClassifier({ tp: 0.6, tn: 0.8 }) // 1[eta >= 0.5714]
 */
export function bayesClassifier(m: BinaryLinearMetric): ThresholdClassifier {
  const s = m.tp + m.tn;
  if (s === 0) {
    // m11 = -m00: predict positive iff m11 >= 0 (any threshold gives the same value).
    return thresholdClassifier(m.tp >= 0 ? 0 : 1, "ge");
  }
  const delta = Math.min(1, Math.max(0, m.tn / s));
  return thresholdClassifier(delta, s > 0 ? "ge" : "le");
}

/**
 * The inverse Bayes classifier (minimiser of the LPM): the Bayes classifier of `-m`.
 * @example inverseBayesClassifier({ tp: 0.6, tn: 0.8 }) // 1[eta <= 0.5714]
 */
export function inverseBayesClassifier(m: BinaryLinearMetric): ThresholdClassifier {
  return bayesClassifier({ tp: -m.tp, tn: -m.tn });
}

/**
 * The classifier at angle theta on the boundary of the confusion set: the Bayes classifier
 * of `m = (cos theta, sin theta)`. Theta in [0, pi/2] walks the upper boundary from
 * `(zeta, 0)` to `(0, 1 - zeta)`; theta in [pi, 3 pi/2] walks the lower boundary.
 * @example boundaryClassifier(Math.PI / 4) // 1[eta >= 0.5]
 */
export function boundaryClassifier(theta: number): ThresholdClassifier {
  return bayesClassifier({ tp: Math.cos(theta), tn: Math.sin(theta) });
}
