import { type BinaryConfusion, binaryConfusion } from "../../metrics/binary-confusion.ts";
import type { BinaryPopulation } from "./population.ts";
import type { ThresholdClassifier } from "./threshold-classifier.ts";

/**
 * A finite pool of predictions, sorted once so that every threshold query costs two binary
 * searches and four array reads (O(log n)).
 *
 * Two kinds of pool (ALGORITHMS.md B.2):
 * - `soft`: the positive mass of a point is its estimated `eta(x)` itself, so the pool is the
 *   model's own view of the population and every boundary point is exactly feasible;
 * - `labelled`: the positive mass is the observed 0/1 label (confusions on test data).
 *
 * Positives and negatives (labelled) or all points (soft) are kept as sorted Float64Arrays
 * with prefix sums of positive and negative mass.
 */
export interface BinaryPool extends BinaryPopulation {
  readonly kind: "soft" | "labelled";
  readonly size: number;
  /** The distinct probabilities in ascending order (candidate thresholds). */
  distinctProbabilities(): Float64Array;
}

function lowerBound(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBound(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function validateProbabilities(eta: ArrayLike<number>): void {
  if (eta.length === 0) throw new RangeError("a pool needs at least one prediction");
  for (let i = 0; i < eta.length; i++) {
    const p = eta[i]!;
    if (!(p >= 0 && p <= 1)) {
      throw new RangeError(`probability ${i + 1} is ${p}; probabilities must lie in [0, 1]`);
    }
  }
}

function distinct(sorted: Float64Array): Float64Array {
  const out: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) out.push(sorted[i]!);
  }
  return Float64Array.from(out);
}

/**
 * A soft-label pool: `TP(h) = (1/n) sum_x eta(x) h(x)`, `TN(h) = (1/n) sum_x (1 - eta(x))(1 - h(x))`.
 * @example
 * const pool = softPool(Float64Array.of(0.1, 0.4, 0.9));
 * pool.confusion(thresholdClassifier(0.5)); // { tp: 0.3, tn: 0.5 }
 */
export function softPool(eta: ArrayLike<number>, description = "soft-label pool"): BinaryPool {
  validateProbabilities(eta);
  const sorted = Float64Array.from(eta).sort();
  const n = sorted.length;
  // pos[i] = sum of eta over the i smallest points; neg likewise for 1 - eta.
  const pos = new Float64Array(n + 1);
  const neg = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    pos[i + 1] = pos[i]! + sorted[i]!;
    neg[i + 1] = neg[i]! + (1 - sorted[i]!);
  }
  const totalPos = pos[n]!;
  const totalNeg = neg[n]!;
  return {
    kind: "soft",
    size: n,
    zeta: totalPos / n,
    description,
    confusion(h: ThresholdClassifier): BinaryConfusion {
      if (h.direction === "ge") {
        const i = lowerBound(sorted, h.threshold);
        return binaryConfusion((totalPos - pos[i]!) / n, neg[i]! / n);
      }
      const j = upperBound(sorted, h.threshold);
      return binaryConfusion(pos[j]! / n, (totalNeg - neg[j]!) / n);
    },
    distinctProbabilities: () => distinct(sorted),
  };
}

/**
 * A labelled pool: confusions against observed labels (1 = positive).
 * @example
 * const pool = labelledPool(Float64Array.of(0.1, 0.4, 0.9), Uint8Array.of(0, 1, 1));
 * pool.confusion(thresholdClassifier(0.5)); // { tp: 1/3, tn: 1/3 }
 */
export function labelledPool(
  eta: ArrayLike<number>,
  labels: ArrayLike<number>,
  description = "labelled pool",
): BinaryPool {
  validateProbabilities(eta);
  if (labels.length !== eta.length) {
    throw new RangeError(`${eta.length} probabilities but ${labels.length} labels`);
  }
  let nPos = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i] === 1) nPos++;
  const positives = new Float64Array(nPos);
  const negatives = new Float64Array(labels.length - nPos);
  let a = 0;
  let b = 0;
  for (let i = 0; i < labels.length; i++) {
    if (labels[i] === 1) positives[a++] = eta[i]!;
    else negatives[b++] = eta[i]!;
  }
  positives.sort();
  negatives.sort();
  const n = eta.length;
  return {
    kind: "labelled",
    size: n,
    zeta: nPos / n,
    description,
    confusion(h: ThresholdClassifier): BinaryConfusion {
      if (h.direction === "ge") {
        const tp = positives.length - lowerBound(positives, h.threshold);
        const tn = lowerBound(negatives, h.threshold);
        return binaryConfusion(tp / n, tn / n);
      }
      const tp = upperBound(positives, h.threshold);
      const tn = negatives.length - upperBound(negatives, h.threshold);
      return binaryConfusion(tp / n, tn / n);
    },
    distinctProbabilities() {
      const all = new Float64Array(n);
      all.set(positives, 0);
      all.set(negatives, positives.length);
      return distinct(all.sort());
    },
  };
}
