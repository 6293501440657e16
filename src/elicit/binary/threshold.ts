import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import type { ThresholdClassifier } from "../../geometry/binary/threshold-classifier.ts";
import type { Ask } from "../../search/question.ts";
import type { Strategy } from "../../search/strategy.ts";
import { type ShrinkStep, searchUnimodal } from "../../search/unimodal-search.ts";
import { type BinaryPoint, thresholdPoint } from "./point.ts";

/** Result of the user-study threshold search. */
export interface ThresholdElicitation {
  /** Elicited weight `a0` of `a0 TN + (1 - a0) TP` (equal to the best threshold). */
  readonly a0: number;
  readonly interval: readonly [number, number];
  readonly classifier: ThresholdClassifier;
  readonly questions: number;
}

/**
 * The user-study variant (Metric Elicitation; Moving from Theory to Practice, Appendix A):
 * binary search over the threshold `tau in [0, 1]` of `1[eta >= tau]`. The Bayes classifier
 * of `a0 TN + (1 - a0) TP` is `1[eta >= a0]`, so the best threshold *is* the metric.
 * `grid` snaps thresholds as the study's UI did (1e-4); 0 disables snapping.
 * @example elicitThreshold(oracle.ask, pool, { tolerance: 0.05, strategy: STRATEGIES.paper }).a0
 */
export function elicitThreshold(
  ask: Ask<BinaryPoint>,
  population: BinaryPopulation,
  o: {
    readonly tolerance: number;
    readonly strategy: Strategy;
    readonly grid?: number;
    readonly onShrink?: (step: ShrinkStep) => void;
  },
): ThresholdElicitation {
  const r = searchUnimodal(ask, {
    lo: 0,
    hi: 1,
    tolerance: o.tolerance,
    strategy: o.strategy,
    sense: "max",
    stage: "threshold-search",
    pointAt: (t) => thresholdPoint(population, t, o.grid ?? 0),
    onShrink: o.onShrink,
  });
  const final = thresholdPoint(population, r.estimate, o.grid ?? 0);
  return {
    a0: r.estimate,
    interval: [r.lo, r.hi],
    classifier: final.classifier,
    questions: r.questions,
  };
}
