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
import type { SupportingLine } from "./proposition4.ts";

/** Options of LFPM elicitation: the two searches' tolerance and Algorithm 3's k and Delta. */
export interface FractionalOptions extends BoundarySearchOptions {
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
  /** Standard deviation of the ratio at the chosen p11 (Algorithm 3's criterion). */
  readonly gridSigma: number;
  readonly classifier: ThresholdClassifier;
  readonly questions: number;
}

/**
 * LFPM elicitation (AISTATS 2019, Section 5.2 and Figure 3): Algorithm 1 gives the supporting
 * line at the maximiser (system 9), Algorithm 2 the line at the minimiser (system 10, with the
 * outward normal negated so that both normals are >= 0), and the query-free Algorithm 3 picks
 * `p11` so that both solutions agree up to a constant. Assumes Assumption 2 (bounded,
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
  const points = boundaryPoints(population, o.gridPoints ?? 2000);
  const grid = algorithm3(upper, lower, points, population.zeta, o.gridStep ?? 0.01);
  // Dinkelbach is exact where thresholds of eta are Bayes optimal (populations, soft pools);
  // against observed labels only a scan of every threshold is.
  const labelled = (population as { kind?: string }).kind === "labelled";
  const best = labelled
    ? optimalThreshold(population, (c) => evaluateFractional(grid.metric, c))
    : fractionalBayes(population, grid.metric);
  return {
    metric: grid.metric,
    upper,
    lower,
    gridSigma: grid.sigma,
    classifier: best.classifier,
    questions: top.questions + bottom.questions,
  };
}
