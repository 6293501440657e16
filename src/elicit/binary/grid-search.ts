import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import { thresholdClassifier } from "../../geometry/binary/threshold-classifier.ts";
import { std } from "../../math/stats.ts";
import type { BinaryConfusion } from "../../metrics/binary-confusion.ts";
import {
  type BinaryFractionalMetric,
  evaluateFractional,
} from "../../metrics/binary-fractional.ts";
import { type SupportingLine, solveProposition4 } from "./proposition4.ts";

/**
 * `k` confusion points spread over both boundaries (`k/2` thresholds `1[eta >= delta]` and
 * `k/2` thresholds `1[eta <= delta]`, delta evenly spaced in (0, 1)), as Algorithm 3 uses.
 * @example boundaryPoints(syntheticPopulation(), 2000).length // 2000
 */
export function boundaryPoints(population: BinaryPopulation, k: number): BinaryConfusion[] {
  const half = Math.max(1, Math.floor(k / 2));
  const out: BinaryConfusion[] = [];
  for (const direction of ["ge", "le"] as const) {
    for (let i = 0; i < half; i++) {
      out.push(population.confusion(thresholdClassifier((i + 0.5) / half, direction)));
    }
  }
  return out;
}

/**
 * Ratios `a(C) / b(C)` over the points where both are finite and `|b(C)|` is not negligible.
 * @example metricRatios(elicited, truth, upperBoundaryPoints(population)) // a(C) / b(C) at each usable point
 */
export function metricRatios(
  a: BinaryFractionalMetric,
  b: BinaryFractionalMetric,
  points: readonly BinaryConfusion[],
): number[] {
  const out: number[] = [];
  for (const c of points) {
    const num = evaluateFractional(a, c);
    const den = evaluateFractional(b, c);
    if (Number.isFinite(num) && Number.isFinite(den) && Math.abs(den) > 1e-9) out.push(num / den);
  }
  return out;
}

/** Result of Algorithm 3. */
export interface GridSearchResult {
  readonly p11: number;
  readonly sigma: number;
  readonly metric: BinaryFractionalMetric;
  /** sigma for every grid value tried, for plots. */
  readonly curve: readonly { readonly p11: number; readonly sigma: number }[];
}

/**
 * Algorithm 3 (AISTATS 2019): grid search over `p11 in [0, 1]` with step `delta` for the value
 * at which the two metrics solving the systems (9) (upper line) and (10) (lower line) are
 * constant multiples of each other on the given boundary points (smallest standard deviation
 * of their ratio). Uses no oracle queries.
 * @example algorithm3(upper, lower, boundaryPoints(pop, 2000), pop.zeta, 0.01).metric
 */
export function algorithm3(
  upper: SupportingLine,
  lower: SupportingLine,
  points: readonly BinaryConfusion[],
  zeta: number,
  delta = 0.01,
): GridSearchResult {
  const steps = Math.round(1 / delta);
  let best: GridSearchResult | null = null;
  const curve: { p11: number; sigma: number }[] = [];
  for (let s = 0; s <= steps; s++) {
    const p11 = Math.min(1, s * delta);
    const upperMetric = solveProposition4(p11, upper, zeta);
    const lowerMetric = solveProposition4(p11, lower, zeta);
    if (!upperMetric || !lowerMetric) continue;
    const ratios = metricRatios(upperMetric, lowerMetric, points);
    if (ratios.length < 2) continue;
    // The paper compares plain standard deviations (both metrics have p11 + p00 = 1).
    const sigma = std(ratios);
    curve.push({ p11, sigma });
    if (Number.isFinite(sigma) && (best === null || sigma < best.sigma)) {
      best = { p11, sigma, metric: upperMetric, curve };
    }
  }
  if (best === null) throw new RangeError("the grid search found no finite solution");
  return best;
}
