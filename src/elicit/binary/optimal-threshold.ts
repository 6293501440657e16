import type { BinaryPool } from "../../geometry/binary/pool.ts";
import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import {
  type ThresholdClassifier,
  thresholdClassifier,
} from "../../geometry/binary/threshold-classifier.ts";
import type { BinaryConfusion } from "../../metrics/binary-confusion.ts";

function isPool(p: BinaryPopulation): p is BinaryPool {
  return typeof (p as BinaryPool).distinctProbabilities === "function";
}

/**
 * The best threshold classifier `1[eta >= delta]` for a metric that increases in TP and TN
 * (its Bayes classifier lies on the upper boundary). On a finite pool every distinct
 * probability is tried (exact); on a continuous population a grid of 20,001 thresholds is
 * refined by golden-section search around the best grid point.
 * @example optimalThreshold(pool, (c) => evaluateFractional(metric, c))
 */
export function optimalThreshold(
  population: BinaryPopulation,
  value: (c: BinaryConfusion) => number,
): { classifier: ThresholdClassifier; value: number } {
  const at = (t: number) => value(population.confusion(thresholdClassifier(t)));
  let bestT = 0;
  let bestV = at(0);
  const consider = (t: number) => {
    const v = at(t);
    if (v > bestV) {
      bestV = v;
      bestT = t;
    }
  };
  if (isPool(population)) {
    for (const t of population.distinctProbabilities()) consider(t);
    consider(1 + Number.EPSILON); // predicts nothing positive
  } else {
    const n = 20000;
    for (let i = 1; i <= n; i++) consider(i / n);
    let lo = Math.max(0, bestT - 1 / n);
    let hi = Math.min(1, bestT + 1 / n);
    const g = (Math.sqrt(5) - 1) / 2;
    for (let it = 0; it < 60; it++) {
      const x1 = hi - g * (hi - lo);
      const x2 = lo + g * (hi - lo);
      if (at(x1) >= at(x2)) hi = x2;
      else lo = x1;
    }
    consider((lo + hi) / 2);
  }
  return { classifier: thresholdClassifier(Math.min(bestT, 1)), value: bestV };
}
