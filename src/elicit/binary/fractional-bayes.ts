import { bayesClassifier } from "../../geometry/binary/bayes.ts";
import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import type { ThresholdClassifier } from "../../geometry/binary/threshold-classifier.ts";
import {
  type BinaryFractionalMetric,
  evaluateFractional,
} from "../../metrics/binary-fractional.ts";

/**
 * The Bayes optimal classifier of an LFPM by Dinkelbach's method: the maximiser of
 * `N(C) / D(C)` (with `D > 0` on the confusion set) is the maximiser of the linear metric
 * `N(C) - tau* D(C)` at the optimal value `tau*`; iterating `tau <- phi(argmax_C N - tau D)`
 * increases tau monotonically and converges superlinearly. Each step is one Bayes classifier
 * (Proposition 1) and one threshold query, so this costs O(log n) per step on a pool instead
 * of a scan over every threshold.
 * @example fractionalBayes(pool, { p11: 1, p00: 0, q11: 0.5, q00: -0.5, q0: 0.5 }).classifier
 */
export function fractionalBayes(
  population: BinaryPopulation,
  m: BinaryFractionalMetric,
  maxSteps = 100,
): { classifier: ThresholdClassifier; value: number; steps: number } {
  let classifier = bayesClassifier({ tp: m.p11, tn: m.p00 });
  let tau = evaluateFractional(m, population.confusion(classifier));
  for (let step = 1; step <= maxSteps; step++) {
    const next = bayesClassifier({ tp: m.p11 - tau * m.q11, tn: m.p00 - tau * m.q00 });
    const value = evaluateFractional(m, population.confusion(next));
    if (!(value > tau + 1e-15 * Math.max(1, Math.abs(tau)))) {
      if (value >= tau) classifier = next;
      return { classifier, value: Math.max(value, tau), steps: step };
    }
    classifier = next;
    tau = value;
  }
  return { classifier, value: tau, steps: maxSteps };
}
