import type { Ask } from "./question.ts";
import type { Strategy } from "./strategy.ts";
import { type ShrinkStep, searchUnimodal } from "./unimodal-search.ts";

/** Options of a coordinate-wise search over hyperspherical angles. */
export interface AngleSearchOptions<P> {
  /** Number of angles (q - 1 for a unit vector in R^q). */
  readonly angles: number;
  readonly tolerance: number;
  readonly strategy: Strategy;
  readonly sense: "max" | "min";
  /** Full sweeps over the angles. */
  readonly cycles: number;
  /** `forward` (first angle first, the papers) or `reverse` (last first). */
  readonly order?: "forward" | "reverse";
  /** Stage name of the questions about angle j (0-based). */
  readonly stage: (j: number) => string;
  /** The point shown for a full angle vector. */
  readonly pointAt: (theta: readonly number[]) => P;
  readonly onShrink?: (step: ShrinkStep) => void;
}

/**
 * Coordinate-wise search over angles in [0, pi/2], each by repeated ShrinkInterval with the
 * others fixed, starting from pi/4 everywhere (NeurIPS 2019 Algorithm 2, UAI 2022 Algorithm 2).
 * With the other angles fixed the metric along one angle is a single-peaked sinusoid
 * (ALGORITHMS.md A.5), so each one-dimensional search is exact up to the tolerance.
 * @example searchAngles(ask, { angles: 5, tolerance: 0.01, strategy: STRATEGIES.paper, sense: "max", cycles: 2, stage: (j) => `angle-${j + 1}`, pointAt })
 */
export function searchAngles<P>(
  ask: Ask<P>,
  o: AngleSearchOptions<P>,
): { theta: number[]; questions: number } {
  const theta = new Array<number>(o.angles).fill(Math.PI / 4);
  let questions = 0;
  for (let c = 0; c < o.cycles; c++) {
    for (let s = 0; s < o.angles; s++) {
      const j = o.order === "reverse" ? o.angles - 1 - s : s;
      const r = searchUnimodal(ask, {
        lo: 0,
        hi: Math.PI / 2,
        tolerance: o.tolerance,
        strategy: o.strategy,
        sense: o.sense,
        stage: o.stage(j),
        pointAt: (t) => {
          const th = theta.slice();
          th[j] = t;
          return o.pointAt(th);
        },
        onShrink: o.onShrink,
      });
      questions += r.questions;
      theta[j] = r.estimate;
    }
  }
  return { theta, questions };
}
