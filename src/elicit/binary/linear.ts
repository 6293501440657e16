import { bayesClassifier } from "../../geometry/binary/bayes.ts";
import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import type { ThresholdClassifier } from "../../geometry/binary/threshold-classifier.ts";
import type { BinaryLinearMetric } from "../../metrics/binary-linear.ts";
import type { Ask } from "../../search/question.ts";
import { algorithm1, algorithm2, type BoundarySearchOptions } from "./boundary-search.ts";
import type { BinaryPoint } from "./point.ts";

/** Result of LPM elicitation. */
export interface LinearElicitation {
  /** Elicited weights, unit L2 norm (the paper's `m = (cos theta, sin theta)`). */
  readonly metric: BinaryLinearMetric;
  readonly theta: number;
  readonly interval: readonly [number, number];
  /** The Bayes optimal classifier of the elicited metric on the population. */
  readonly classifier: ThresholdClassifier;
  readonly questions: number;
}

/**
 * LPM elicitation (AISTATS 2019, Section 5.1): run Algorithm 1 and take the slope of the
 * supporting hyperplane at the most preferred boundary point as the metric. For a
 * stakeholder whose utility decreases in TP and TN (`monotone: "decreasing"`), the lower
 * boundary is searched instead (Algorithm 2 on the equivalent increasing cost).
 *
 * In `paper` strategy the number of questions is exactly `4 ceil(log2((pi/2)/tolerance))`.
 * @example
 * const r = elicitLinear(oracle.ask, syntheticPopulation(), { tolerance: 0.02, strategy: STRATEGIES.paper });
 * r.metric; // ~ the oracle's (cos theta*, sin theta*)
 */
export function elicitLinear(
  ask: Ask<BinaryPoint>,
  population: BinaryPopulation,
  o: BoundarySearchOptions & { readonly monotone?: "increasing" | "decreasing" },
): LinearElicitation {
  const search =
    o.monotone === "decreasing"
      ? algorithm2(ask, population, o, "max")
      : algorithm1(ask, population, o);
  return {
    metric: search.slope,
    theta: search.theta,
    interval: search.interval,
    classifier: bayesClassifier(search.slope),
    questions: search.questions,
  };
}
