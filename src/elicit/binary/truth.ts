import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import { thresholdClassifier } from "../../geometry/binary/threshold-classifier.ts";
import { mean, std } from "../../math/stats.ts";
import {
  type BinaryFractionalMetric,
  evaluateFractional,
} from "../../metrics/binary-fractional.ts";
import {
  angleBetween,
  type BinaryLinearMetric,
  evaluateLinear,
  normalizeLinear,
} from "../../metrics/binary-linear.ts";
import { metricRatios } from "./grid-search.ts";
import type { BinaryPoint } from "./point.ts";
import type { BinaryResult } from "./spec.ts";

/** A simulated stakeholder's true metric, one per family. */
export type BinaryTruth =
  | { readonly family: "binary-linear"; readonly metric: BinaryLinearMetric }
  | { readonly family: "binary-linear-fractional"; readonly metric: BinaryFractionalMetric }
  | { readonly family: "binary-threshold"; readonly a0: number };

/**
 * The true metric's value at a point shown to the stakeholder.
 * @example truthValue({ family: "binary-threshold", a0: 0.3 })(point)
 */
export function truthValue(truth: BinaryTruth): (p: BinaryPoint) => number {
  switch (truth.family) {
    case "binary-linear":
      return (p) => evaluateLinear(truth.metric, p.confusion);
    case "binary-linear-fractional":
      return (p) => evaluateFractional(truth.metric, p.confusion);
    case "binary-threshold":
      return (p) => truth.a0 * p.confusion.tn + (1 - truth.a0) * p.confusion.tp;
  }
}

/** How far an elicited metric is from the truth. */
export type BinaryError =
  | { readonly angle: number }
  | {
      readonly alphaMean: number;
      readonly alphaStd: number;
      readonly points: number;
      /** `|p11 - p11_hat|`: unlike alpha and sigma, unaffected by which representative of the
       * stakeholder's preferences the elicited metric is (p is what the answers identify). */
      readonly p11: number;
    }
  | { readonly a0: number };

/**
 * `k` points on the upper boundary `1[eta >= delta]` at evenly spaced thresholds: where
 * the LFPM's ratio to the truth is reported (the paper's Figure 4 plots the upper boundary).
 * @example const points = upperBoundaryPoints(population); // 1000 confusions, thresholds evenly spaced
 */
export function upperBoundaryPoints(population: BinaryPopulation, k = 1000) {
  return Array.from({ length: k }, (_, i) =>
    population.confusion(thresholdClassifier((i + 0.5) / k, "ge")),
  );
}

/**
 * Error of an elicitation against the truth: the angle between weight vectors (linear), the
 * mean and standard deviation of elicited/true on the upper boundary (fractional; the paper's
 * alpha and sigma) with `|p11 - p11_hat|`, or `|a0 - a0_hat|` (threshold).
 * @example elicitationError(truth, result, population).angle
 */
export function elicitationError(
  truth: BinaryTruth,
  result: BinaryResult,
  population: BinaryPopulation,
): BinaryError {
  if (truth.family === "binary-linear" && result.family === "binary-linear") {
    return { angle: angleBetween(normalizeLinear(truth.metric), result.metric) };
  }
  if (truth.family === "binary-linear-fractional" && result.family === "binary-linear-fractional") {
    const ratios = metricRatios(result.metric, truth.metric, upperBoundaryPoints(population));
    return {
      alphaMean: mean(ratios),
      alphaStd: std(ratios),
      points: ratios.length,
      p11: Math.abs(result.metric.p11 - truth.metric.p11),
    };
  }
  if (truth.family === "binary-threshold" && result.family === "binary-threshold") {
    return { a0: Math.abs(truth.a0 - result.a0) };
  }
  throw new TypeError(`truth of family ${truth.family} cannot score a ${result.family} result`);
}
