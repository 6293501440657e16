import type { PluginClassifier } from "../../geometry/multiclass/classifier.ts";
import { pluginClassifier } from "../../geometry/multiclass/plugin.ts";
import type { MulticlassPool } from "../../geometry/multiclass/pool.ts";
import { restrictedBayesOptimal } from "../../geometry/multiclass/rbo.ts";
import type { Ask } from "../../search/question.ts";
import type { Strategy } from "../../search/strategy.ts";
import { type ShrinkStep, searchUnimodal } from "../../search/unimodal-search.ts";
import { countingIdentical, type UnresolvedPair } from "./identical.ts";
import type { MulticlassPoint } from "./point.ts";

/** Options of DLPM elicitation. */
export interface DlpmOptions {
  readonly tolerance: number;
  readonly strategy: Strategy;
  /**
   * `first`: class 0 is the pivot (the paper's Algorithm 1; its query counts).
   * `select`: first run the pivot-selection pass of the proof of Theorem 1 (ALGORITHMS.md A.4)
   * so the pivot carries a large weight; about twice the questions, robust when class 0 has a
   * small weight.
   */
  readonly pivot?: "first" | "select";
  readonly onShrink?: (step: ShrinkStep) => void;
}

/** Result of DLPM elicitation. */
export interface DlpmElicitation {
  /** Elicited weights, non-negative, summing to 1. */
  readonly metric: number[];
  readonly pivot: number;
  /** The boundary parameter found for every pair (pivot, i). */
  readonly boundary: { readonly pair: readonly [number, number]; readonly m: number }[];
  /**
   * The pairs whose search compared identical systems (`UnresolvedPair`): there the answers do
   * not place the pair's weight ratio to the tolerance. Empty when no search met a flat
   * stretch of the pool's boundary. On the papers' synthetic population such stretches lie
   * only at the boundary's ends (a classifier of one class), few runs meet them, and the
   * runs that miss by more than twice the tolerance are among those.
   */
  readonly unresolved: UnresolvedPair[];
  /** The Bayes optimal classifier `argmax_i a_i eta_i(x)` of the elicited metric. */
  readonly classifier: PluginClassifier;
  readonly questions: number;
}

function searchPair(
  ask: Ask<MulticlassPoint>,
  pool: MulticlassPool,
  p: number,
  i: number,
  o: DlpmOptions,
  stage: string,
): { m: number; questions: number; same: number } {
  const counted = countingIdentical(ask);
  const r = searchUnimodal(counted.ask, {
    lo: 0,
    hi: 1,
    tolerance: o.tolerance,
    strategy: o.strategy,
    sense: "max",
    stage,
    pointAt: (m) => restrictedBayesOptimal(pool, p, i, m),
    onShrink: o.onShrink,
  });
  // Clip away from 0 and 1 so the ratio (1 - m) / m stays finite (pitfall E.3).
  const m = Math.min(1 - o.tolerance / 2, Math.max(o.tolerance / 2, r.estimate));
  return { m, questions: r.questions, same: counted.count() };
}

/**
 * DLPM elicitation (NeurIPS 2019, Algorithm 1; ALGORITHMS.md A.4): for each class i other than
 * the pivot p, search the upper boundary of the restricted set D_{p,i} for the most preferred
 * RBO point; its parameter m gives `a_i / a_p = (1 - m) / m`. In `paper` strategy and
 * `pivot: "first"` it asks exactly `4 (k - 1) ceil(log2(1 / eps))` questions (56 for k = 3,
 * 84 for k = 4 at eps = 0.01).
 * @example elicitDlpm(oracle.ask, pool, { tolerance: 0.01, strategy: STRATEGIES.paper }).metric
 */
export function elicitDlpm(
  ask: Ask<MulticlassPoint>,
  pool: MulticlassPool,
  o: DlpmOptions,
): DlpmElicitation {
  const k = pool.k;
  let questions = 0;
  let pivot = 0;
  if (o.pivot === "select") {
    for (let t = 1; t < k; t++) {
      const r = searchPair(ask, pool, pivot, t, o, "dlpm-pivot");
      questions += r.questions;
      if (r.m < 0.5) pivot = t;
    }
  }
  const weights = new Array<number>(k).fill(0);
  weights[pivot] = 1;
  const boundary: DlpmElicitation["boundary"] = [];
  const unresolved: DlpmElicitation["unresolved"][number][] = [];
  for (let i = 0; i < k; i++) {
    if (i === pivot) continue;
    const r = searchPair(ask, pool, pivot, i, o, "dlpm");
    questions += r.questions;
    weights[i] = (1 - r.m) / r.m;
    boundary.push({ pair: [pivot, i], m: r.m });
    if (r.same > 0) unresolved.push({ pair: [pivot, i], same: r.same });
  }
  const sum = weights.reduce((s, w) => s + w, 0);
  const metric = weights.map((w) => w / sum);
  return {
    metric,
    pivot,
    boundary,
    unresolved,
    classifier: pluginClassifier("diag-confusion", metric, pool.priors),
    questions,
  };
}
