import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import type { ThresholdClassifier } from "../../geometry/binary/threshold-classifier.ts";
import {
  type BinaryFractionalMetric,
  evaluateFractional,
} from "../../metrics/binary-fractional.ts";
import type { Ask } from "../../search/question.ts";
import { algorithm1, algorithm2, type BoundarySearchOptions } from "./boundary-search.ts";
import { fractionalBayes } from "./fractional-bayes.ts";
import { algorithm3, boundaryPoints } from "./grid-search.ts";
import { optimalThreshold } from "./optimal-threshold.ts";
import type { BinaryPoint } from "./point.ts";
import { poleMethod } from "./pole.ts";
import type { SupportingLine } from "./proposition4.ts";

/**
 * How `p11` is found from the two supporting lines: `grid`, the paper's Algorithm 3 (grid
 * search, k points, step Delta); `pole`, our closed form from the lines' common point
 * (see `pole.ts`).
 */
export type RatioMethod = "grid" | "pole";

export const RATIO_METHODS: readonly RatioMethod[] = ["grid", "pole"];

/** Options of LFPM elicitation: the two searches' tolerance and how p11 is found. */
export interface FractionalOptions extends BoundarySearchOptions {
  /** `grid` (the paper's Algorithm 3, default) or `pole`. */
  readonly ratio?: RatioMethod;
  /** Number of boundary points Algorithm 3 compares the metrics on (paper: 2000). */
  readonly gridPoints?: number;
  /** Grid step for p11 (paper: 0.01). */
  readonly gridStep?: number;
}

/** Result of LFPM elicitation. */
export interface FractionalElicitation {
  readonly metric: BinaryFractionalMetric;
  readonly upper: SupportingLine & { readonly theta: number };
  readonly lower: SupportingLine & { readonly theta: number };
  /** The method that found p11 (`pole` falls back to `grid` when the two lines coincide). */
  readonly ratio: RatioMethod;
  /** grid only: standard deviation of the ratio at the chosen p11 (Algorithm 3's criterion). */
  readonly gridSigma?: number;
  /** pole only: the common point of the two lines, where every level set meets. */
  readonly pole?: { readonly tp: number; readonly tn: number };
  readonly classifier: ThresholdClassifier;
  readonly questions: number;
}

/**
 * LFPM elicitation (AISTATS 2019, Section 5.2 and Figure 3): Algorithm 1 gives the supporting
 * line at the maximiser (system 9), Algorithm 2 the line at the minimiser (system 10, with the
 * outward normal negated so that both normals are >= 0), and the query-free Algorithm 3 picks
 * `p11` so that both solutions agree up to a constant (`ratio: "grid"`), or the pole method
 * reads it off where the two lines meet (`ratio: "pole"`). Assumes Assumption 2 (bounded,
 * increasing in TP and TN).
 * @example elicitFractional(oracle.ask, syntheticPopulation(), { tolerance: 0.05, strategy: STRATEGIES.paper })
 */
export function elicitFractional(
  ask: Ask<BinaryPoint>,
  population: BinaryPopulation,
  o: FractionalOptions,
): FractionalElicitation {
  const top = algorithm1(ask, population, o);
  const bottom = algorithm2(ask, population, o, "min");
  const upper = { normal: top.slope, constant: top.constant, theta: top.theta };
  const lower = {
    normal: { tp: -bottom.slope.tp, tn: -bottom.slope.tn },
    constant: -bottom.constant,
    theta: bottom.theta,
  };
  const ratio = o.ratio ?? "grid";
  const found =
    ratio === "grid" ? gridRatio(upper, lower, population, o) : poleRatio(upper, lower, population);
  // Dinkelbach is exact where thresholds of eta are Bayes optimal (populations, soft pools);
  // against observed labels only a scan of every threshold is.
  const labelled = (population as { kind?: string }).kind === "labelled";
  const best = labelled
    ? optimalThreshold(population, (c) => evaluateFractional(found.metric, c))
    : fractionalBayes(population, found.metric);
  return {
    ...found,
    upper,
    lower,
    classifier: best.classifier,
    questions: top.questions + bottom.questions,
  };
}

function gridRatio(
  upper: SupportingLine,
  lower: SupportingLine,
  population: BinaryPopulation,
  o: Pick<FractionalOptions, "gridPoints" | "gridStep">,
) {
  const points = boundaryPoints(population, o.gridPoints ?? 2000);
  const grid = algorithm3(upper, lower, points, population.zeta, o.gridStep ?? 0.01);
  return { ratio: "grid" as const, metric: grid.metric, gridSigma: grid.sigma };
}

function poleRatio(upper: SupportingLine, lower: SupportingLine, population: BinaryPopulation) {
  const r = poleMethod(upper, lower, population.zeta);
  // Coinciding lines (only possible when a search collapsed to one vertex) say nothing about
  // p11: fall back to the paper's grid (and say so in the result's `ratio`).
  if (r === null) return gridRatio(upper, lower, population, {});
  return { ratio: "pole" as const, metric: r.metric, pole: r.pole };
}
