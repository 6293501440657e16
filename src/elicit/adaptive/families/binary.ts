import { bayesClassifier } from "../../../geometry/binary/bayes.ts";
import type { BinaryPopulation } from "../../../geometry/binary/population.ts";
import {
  angleBetween,
  type BinaryLinearMetric,
  linearToAngle,
  normalizeLinear,
} from "../../../metrics/binary-linear.ts";
import { type BinaryPoint, thresholdPoint } from "../../binary/point.ts";
import type { AdaptiveFamily } from "../family.ts";

/** Display options shared by the binary families. */
export interface BinaryFamilyOptions {
  /**
   * Precision at which a person sees TP and TN (as fractions of the population): two points
   * that agree after rounding to this step are never asked against each other. Default
   * 0.001 (a tenth of a patient out of 100).
   */
  readonly displayStep?: number;
  /** binary-linear: utilities increasing (default) or decreasing in TP and TN. */
  readonly monotone?: "increasing" | "decreasing";
  /** binary-threshold: snap thresholds to this grid (0 = none). */
  readonly grid?: number;
  /**
   * Believe answers are about TP and TN as shown, rounded to `displayStep` (default false:
   * exact). A person answers about the counts on the screen, so a web study sets it: the
   * belief then agrees with the metrics that fit the answers as seen.
   */
  readonly asShown?: boolean;
  /**
   * Offer the question selection every threshold classifier as shown (`everyShownPoint`)
   * beside the candidates of belief draws (default false). Whole people of 100 tell a metric
   * apart only on pairs whose counts differ in the right ratio (5 missed against 4 false
   * alarms: a0 = 5/9), and those pairs are seldom both optimal for draws of the belief: a
   * careful person's runs then ended with the region at 0.03-0.06 and "no informative
   * question" (flagged). Binary web studies from issue 26's stop 49 on set it.
   */
  readonly everyShown?: boolean;
}

/** The features (TP, TN) of a point: exact, or rounded to the display step as shown. */
function binaryFeatures(step: number, asShown: boolean): (p: BinaryPoint) => Float64Array {
  if (!asShown) return (p) => Float64Array.of(p.confusion.tp, p.confusion.tn);
  return (p) =>
    Float64Array.of(
      Math.round(p.confusion.tp / step) * step,
      Math.round(p.confusion.tn / step) * step,
    );
}

function binaryKey(p: BinaryPoint, step: number): string {
  return `${Math.round(p.confusion.tp / step)},${Math.round(p.confusion.tn / step)}`;
}

function bayesPoint(population: BinaryPopulation, m: BinaryLinearMetric): BinaryPoint {
  const classifier = bayesClassifier(m);
  return { confusion: population.confusion(classifier), classifier };
}

/**
 * The binary LPM family `phi = tp TP + tn TN`, unit L2 (the paper's `(cos theta, sin theta)`),
 * error the angle between weight vectors. Candidates are the Bayes optimal classifiers of
 * belief draws: points of the boundary of the feasible set, realisable by thresholds.
 * @example adaptiveProcedure(binaryLinearFamily(syntheticPopulation()), { tolerance: 0.02 })
 */
export function binaryLinearFamily(
  population: BinaryPopulation,
  o: BinaryFamilyOptions = {},
): AdaptiveFamily<BinaryPoint, BinaryLinearMetric> {
  const step = o.displayStep ?? 1e-3;
  const sign = o.monotone === "decreasing" ? -1 : 1;
  let every: BinaryPoint[] | undefined;
  const toMetric = (w: Float64Array): BinaryLinearMetric =>
    normalizeLinear({ tp: w[0]!, tn: w[1]! });
  return {
    name: "binary-linear",
    dim: 2,
    signs: [sign, sign],
    // Uniform on the angle (noise-free, 30 truths: the 90% region covered 77% of uniform
    // angles with the sparse mixture, 90% without; the threshold and lambda families, whose
    // parameter is a ratio with more mass near its ends, keep the mixture).
    sparseShare: 0,
    errorName: "angle (rad)",
    coordinateNames: ["theta"],
    features: binaryFeatures(step, o.asShown ?? false),
    candidates: (ws) => ws.map((w) => bayesPoint(population, toMetric(w))),
    ...(o.everyShown ? { everyPoint: () => (every ??= everyShownPoint(population, 0, step)) } : {}),
    displayKey: (p) => binaryKey(p, step),
    optimal: (w) => bayesPoint(population, toMetric(w)),
    toMetric,
    error: (a, b) => angleBetween(a, b),
    coordinates: (m) => [linearToAngle(m)],
  };
}

/** The user study's threshold metric `a0 TN + (1 - a0) TP`, reported by `a0`. */
export interface ThresholdMetric {
  readonly a0: number;
}

/**
 * The user study's family: `a0 TN + (1 - a0) TP` with `a0` in [0, 1] (the best threshold is
 * `a0`), error `|a0 - a0'|`. Candidates are threshold classifiers `1[eta >= a0]` of belief
 * draws, snapped to `grid` as the study's UI did.
 * @example adaptiveProcedure(binaryThresholdFamily(pool, { grid: 1e-4 }), { tolerance: 0.05 })
 */
export function binaryThresholdFamily(
  population: BinaryPopulation,
  o: BinaryFamilyOptions = {},
): AdaptiveFamily<BinaryPoint, ThresholdMetric> {
  const step = o.displayStep ?? 1e-3;
  const grid = o.grid ?? 0;
  let every: BinaryPoint[] | undefined;
  const toMetric = (w: Float64Array): ThresholdMetric => {
    const s = w[0]! + w[1]!;
    return { a0: s > 0 ? Math.min(1, Math.max(0, w[1]! / s)) : 0.5 };
  };
  return {
    name: "binary-threshold",
    // w = (weight on TP, weight on TN) = (1 - a0, a0) up to scale.
    dim: 2,
    signs: [1, 1],
    errorName: "|a0 - a0'|",
    coordinateNames: ["a0"],
    features: binaryFeatures(step, o.asShown ?? false),
    candidates: (ws) => ws.map((w) => thresholdPoint(population, toMetric(w).a0, grid)),
    ...(o.everyShown
      ? { everyPoint: () => (every ??= everyShownPoint(population, grid, step)) }
      : {}),
    displayKey: (p) => binaryKey(p, step),
    optimal: (w) => thresholdPoint(population, toMetric(w).a0, grid),
    toMetric,
    error: (a, b) => Math.abs(a.a0 - b.a0),
    coordinates: (m) => [m.a0],
  };
}

/** Thresholds tried by `everyShownPoint`: every 0.001 from 0 to 1. */
const EVERY_THRESHOLDS = 1000;

/**
 * The distinct points as shown (by `binaryKey` at `step`) of the threshold classifiers
 * `1[eta >= t]`, t every 0.001 from 0 to 1 (snapped to `grid`), in increasing t: the Bayes
 * optimal classifiers of every metric of both binary families, as a person tells them apart.
 * @example everyShownPoint(pool, 0, 0.01).length // about 100 for 100 people shown
 */
export function everyShownPoint(
  population: BinaryPopulation,
  grid: number,
  step: number,
): BinaryPoint[] {
  const seen = new Set<string>();
  const out: BinaryPoint[] = [];
  for (let i = 0; i <= EVERY_THRESHOLDS; i++) {
    const p = thresholdPoint(population, i / EVERY_THRESHOLDS, grid);
    const key = binaryKey(p, step);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  return out;
}
