import { pluginConfusion } from "../../geometry/multiclass/plugin.ts";
import type { MulticlassPool } from "../../geometry/multiclass/pool.ts";
import type { Ask } from "../../search/question.ts";
import { type DlpmElicitation, type DlpmOptions, elicitDlpm } from "./dlpm.ts";
import type { MulticlassPoint } from "./point.ts";

/** First-order approximation of a monotone metric of diagonal confusions. */
export interface MonotoneApproximation extends DlpmElicitation {
  /** `d-hat`: the diagonal confusions of the Bayes classifier of the elicited slope. */
  readonly optimum: number[];
  /** `<a-hat, d - d-hat>`: the metric's first-order approximation at `d-hat`, up to its value there. */
  readonly approximate: (d: ArrayLike<number>) => number;
}

/**
 * Elicit a first-order approximation of a metric that is only known to increase in every
 * diagonal confusion (NeurIPS 2019 appendix E.3): run DLPM elicitation (with the pivot pass),
 * take its weights as the slope of the supporting hyperplane and the optimum of that slope as
 * the expansion point. The pairwise searches use classifiers restricted to two classes, so
 * for a non-linear metric the slope is that of the restricted optima — close to, not equal
 * to, the gradient at the global optimum (checked in tests on a concave metric).
 * @example elicitMonotoneDiagonal(oracle.ask, pool, { tolerance: 0.01, strategy: STRATEGIES.paper }).optimum
 */
export function elicitMonotoneDiagonal(
  ask: Ask<MulticlassPoint>,
  pool: MulticlassPool,
  o: DlpmOptions,
): MonotoneApproximation {
  const r = elicitDlpm(ask, pool, { ...o, pivot: o.pivot ?? "select" });
  const c = pluginConfusion(pool, r.classifier);
  const k = pool.k;
  const optimum = Array.from({ length: k }, (_, i) => c[i * k + i]!);
  return {
    ...r,
    optimum,
    approximate: (d) => r.metric.reduce((s, a, i) => s + a * (d[i]! - optimum[i]!), 0),
  };
}
