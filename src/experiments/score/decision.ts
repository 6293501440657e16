import { optimalThreshold } from "../../elicit/binary/optimal-threshold.ts";
import { bayesClassifier } from "../../geometry/binary/bayes.ts";
import { softPool } from "../../geometry/binary/pool.ts";
import {
  predictThreshold,
  type ThresholdClassifier,
} from "../../geometry/binary/threshold-classifier.ts";
import { vectorText } from "../../math/vector-text.ts";
import { evaluateFractional } from "../../metrics/binary-fractional.ts";
import { metricClassCount, type PortableMetric } from "../../metrics/portable/metric.ts";

/**
 * A decision rule on a model's class probabilities: which class to predict for a case whose
 * probabilities are `p` (in the metric's class order; binary: `[P(negative), P(positive)]`).
 */
export interface DecisionRule {
  /** The rule in words, e.g. "positive when P(malignant) >= 0.2857". */
  readonly text: string;
  /** Binary: the threshold on P(positive) (with `direction`). */
  readonly threshold?: number;
  readonly direction?: "ge" | "le";
  /** Multiclass: predict `argmax_j sum_i gains[i][j] p_i` (ties to the first class). */
  readonly gains?: number[][];
  /** Whether the rule is the one optimal for the metric (false: the most probable class). */
  readonly optimal: boolean;
  predict(p: ArrayLike<number>): number;
}

const fmt = (x: number) => String(Number(x.toPrecision(4)));

function thresholdRule(h: ThresholdClassifier, positive: string, how: string): DecisionRule {
  return {
    text: `positive when P(${positive}) ${h.direction === "ge" ? ">=" : "<="} ${h.threshold.toFixed(4)}${how}`,
    threshold: h.threshold,
    direction: h.direction,
    optimal: true,
    predict: (p) => predictThreshold(h, p[1]!),
  };
}

/** `argmax_j sum_i G_ij p_i`, ties to the first. */
function gainRule(gains: number[][], text: string): DecisionRule {
  const k = gains.length;
  return {
    text,
    gains,
    optimal: true,
    predict(p) {
      let best = 0;
      let bestV = Number.NEGATIVE_INFINITY;
      for (let j = 0; j < k; j++) {
        let v = 0;
        for (let i = 0; i < k; i++) v += gains[i]![j]! * p[i]!;
        if (v > bestV) {
          bestV = v;
          best = j;
        }
      }
      return best;
    },
  };
}

/** The gain matrix of weights on the diagonal (or off it, row by row) of the confusion. */
function gainMatrix(k: number, weights: readonly number[], offDiagonal: boolean): number[][] {
  const G = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  let t = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      if (offDiagonal && j !== i) G[i]![j] = weights[t++]!;
      if (!offDiagonal && j === i) G[i]![j] = weights[i]!;
    }
  return G;
}

/** The expected (soft) confusion of a rule on the probabilities, as joint shares. */
function softConfusion(rule: DecisionRule, probabilities: readonly ArrayLike<number>[], k: number) {
  const C = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const p of probabilities) {
    const j = rule.predict(p);
    for (let i = 0; i < k; i++) C[i]![j]! += p[i]! / probabilities.length;
  }
  return C;
}

const argmaxRule = (why: string): DecisionRule => ({
  text: `the model's most probable class (${why})`,
  optimal: false,
  predict(p) {
    let best = 0;
    for (let j = 1; j < p.length; j++) if (p[j]! > p[best]!) best = j;
    return best;
  },
});

/**
 * The decision rule optimal under a metric for a model whose probabilities are calibrated
 * (each `probabilities[n]` is `P(Y = . | x_n)` in the metric's class order; the labels are
 * not used, so the rule is not fitted to the cases it is scored on):
 * - binary linear: the Bayes threshold, positive when `P(positive) >= tn / (tp + tn)`;
 * - binary linear-fractional: the threshold maximising the metric's expected value on the
 *   model's probabilities (every distinct probability tried, exact);
 * - diagonal-linear: `argmax_i a_i P(i | x)`; linear: the cost-sensitive rule
 *   `argmin_j sum_i c_ij P(i | x)` with costs `c_ij = -a_ij`;
 * - the multiclass linear-fractional families: the linear rule of `a - v b` at the metric's
 *   best expected value `v` on the model's probabilities (Dinkelbach's iteration);
 * - quadratic and fair metrics are not linear in the confusions and no such rule is optimal:
 *   the model's most probable class, marked `optimal: false`.
 * @example optimalRule({ family: "binary-linear", tp: 0.7, tn: 0.3 }, probs).threshold // 0.3
 */
export function optimalRule(
  metric: PortableMetric,
  probabilities: readonly ArrayLike<number>[],
): DecisionRule {
  const k = metricClassCount(metric);
  const name = (i: number) => metric.classes?.[i] ?? String(i);
  switch (metric.family) {
    case "binary-linear":
      return thresholdRule(bayesClassifier(metric), name(1), "");
    case "binary-linear-fractional": {
      const pool = softPool(Float64Array.from(probabilities, (p) => p[1]!));
      const best = optimalThreshold(pool, (c) => evaluateFractional(metric, c));
      return thresholdRule(
        best.classifier,
        name(1),
        " (the threshold maximising the metric's expected value on this model's probabilities)",
      );
    }
    case "diagonal-linear":
      return gainRule(
        gainMatrix(k, metric.a, false),
        `predict argmax_i a_i P(i | x), a = ${vectorText(metric.a)}`,
      );
    case "linear":
      return gainRule(
        gainMatrix(k, metric.a, true),
        `predict the class j of least expected cost sum_i c_ij P(i | x), c_ij = -a_ij (a = ${vectorText(metric.a)}, row by row)`,
      );
    case "diagonal-linear-fractional":
    case "linear-fractional": {
      const off = metric.family === "linear-fractional";
      const value = (C: number[][]) => {
        const x = off
          ? C.flatMap((row, i) => row.filter((_, j) => j !== i))
          : C.map((r, i) => r[i]!);
        let num = 0;
        let den = metric.b0;
        for (let t = 0; t < x.length; t++) {
          num += metric.a[t]! * x[t]!;
          den += metric.b[t]! * x[t]!;
        }
        return num / den;
      };
      // Dinkelbach: the best rule for a - v b, then v = its value, until v stops growing.
      let rule = gainRule(gainMatrix(k, metric.a, off), "");
      let v = value(softConfusion(rule, probabilities, k));
      for (let it = 0; it < 100; it++) {
        const next = gainRule(
          gainMatrix(
            k,
            metric.a.map((a, t) => a - v * metric.b[t]!),
            off,
          ),
          "",
        );
        const nv = value(softConfusion(next, probabilities, k));
        if (!(nv > v + 1e-15)) break;
        rule = next;
        v = nv;
      }
      return {
        ...rule,
        text: `predict argmax_j sum_i G_ij P(i | x) with G = a - v b on the ${off ? "off-diagonal" : "diagonal"} entries, v = ${fmt(v)} (the metric's best expected value on this model's probabilities)`,
      };
    }
    case "quadratic":
    case "fair":
      return argmaxRule(
        `the ${metric.family} metric is not linear in the confusions, so no plug-in rule is optimal for it; the probabilities' own decision is scored`,
      );
  }
}
