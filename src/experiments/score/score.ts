import { portableMetricValue } from "../../metrics/portable/evaluate.ts";
import {
  isCostMetric,
  metricClassCount,
  metricGroupCount,
  type PortableMetric,
} from "../../metrics/portable/metric.ts";
import { type DecisionRule, optimalRule } from "./decision.ts";

/** One model's held-out predictions, in the metric's class (and group) order. */
export interface ModelPredictions {
  readonly name: string;
  /** The true class of each case (index into the metric's classes). */
  readonly labels: ArrayLike<number>;
  /** Per case, the model's class probabilities (binary: `[P(negative), P(positive)]`). */
  readonly probabilities: readonly ArrayLike<number>[];
  /** Fair metrics: each case's group (index into the metric's groups). */
  readonly groups?: ArrayLike<number>;
}

/**
 * What the elicited belief is: samples of metrics a person's answers leave plausible (the
 * engine's draws, a range sampled evenly, or the participants' own metrics for a consensus).
 */
export interface MetricBelief {
  readonly kind: "draws" | "range" | "participants";
  /** How the samples were made, in words (printed with the probabilities). */
  readonly note: string;
  readonly samples: readonly PortableMetric[];
}

/** One model's result. */
export interface ModelScore {
  readonly name: string;
  /** The metric's value of the model's decisions (the `rule` applied to its probabilities). */
  readonly score: number;
  /** The decision rule optimal under the metric for the model's probabilities. */
  readonly rule: DecisionRule;
  /** The confusion matrix of its decisions (counts; fair: one per group). */
  readonly confusion: number[][] | number[][][];
  /** 1 for the best model; models of equal score share a rank. */
  readonly rank: number;
}

/** Two models the belief cannot tell apart, with the share of samples ranking the first ahead. */
export interface CloseCall {
  readonly first: string;
  readonly second: string;
  /** Share of the belief's samples under which `first` scores better (ties count half). */
  readonly firstAhead: number;
  /** Share of the samples under which the two score the same. */
  readonly tied: number;
  /** Share of the samples under which `first` scores strictly better. */
  readonly firstBetter: number;
  /** Share of the samples under which `second` scores strictly better. */
  readonly secondBetter: number;
}

/** Result of `scoreModels`. */
export interface ScoreReport {
  readonly metric: PortableMetric;
  /** True for a cost (the fair metric): lower is better. */
  readonly cost: boolean;
  /** The models in the order given. */
  readonly models: readonly ModelScore[];
  /** Model names, best first. */
  readonly ranking: readonly string[];
  /** With a belief: its account, each model's probability of being best, and close calls. */
  readonly belief?: {
    readonly kind: MetricBelief["kind"];
    readonly note: string;
    readonly samples: number;
    /**
     * Per model (in the order given): the share of samples under which it is best, a sample
     * under which n models tie for best counting 1/n to each (so the shares sum to 1).
     */
    readonly pBest: readonly number[];
    /** Per model: the share of samples under which it alone scores best. */
    readonly pBestAlone: readonly number[];
    /** Per model: the share of samples under which no model scores better (best or tied). */
    readonly pBestOrTied: readonly number[];
    /** Neighbours in the ranking whose order fewer than 95% of the samples agree on. */
    readonly closeCalls: readonly CloseCall[];
  };
}

/** Decisions of a rule on every case. */
function decide(rule: DecisionRule, probabilities: readonly ArrayLike<number>[]): Int32Array {
  return Int32Array.from(probabilities, (p) => rule.predict(p));
}

/** The confusion counts (fair: one matrix per group) of decisions against labels. */
function confusionOf(
  metric: PortableMetric,
  model: ModelPredictions,
  predicted: ArrayLike<number>,
): number[][] | number[][][] {
  const k = metricClassCount(metric);
  const zero = () => Array.from({ length: k }, () => new Array<number>(k).fill(0));
  if (metric.family === "fair") {
    if (!model.groups) throw new RangeError(`${model.name}: a fair metric needs each case's group`);
    const out = Array.from({ length: metricGroupCount(metric) }, zero);
    for (let n = 0; n < model.labels.length; n++)
      out[model.groups[n]!]![model.labels[n]!]![predicted[n]!]!++;
    return out;
  }
  const out = zero();
  for (let n = 0; n < model.labels.length; n++) out[model.labels[n]!]![predicted[n]!]!++;
  return out;
}

/** The model's score under a metric with the rule optimal for it. */
function scoreUnder(metric: PortableMetric, model: ModelPredictions) {
  const rule = optimalRule(metric, model.probabilities);
  const confusion = confusionOf(metric, model, decide(rule, model.probabilities));
  return { rule, confusion, score: portableMetricValue(metric, confusion) };
}

/** Is `a` better than `b` (by more than rounding)? */
function better(a: number, b: number, cost: boolean): boolean {
  const eps = 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));
  return cost ? a < b - eps : a > b + eps;
}

/**
 * Score models under an elicited metric, rank them, and (with the elicited belief) say how
 * probable it is that each is the best. Each model is judged as it would be deployed for
 * this metric: its probabilities are turned into decisions by the rule optimal under the
 * metric (`optimalRule`: binary, a threshold; multiclass, the cost-sensitive rule), and its
 * score is the metric's value of the confusion matrix of those decisions against the labels.
 * Under the belief each sample metric gets its own optimal rule, and a model is best under
 * a sample when no other scores better: `pBest` shares a sample among the models tied for
 * best (1/n each), `pBestAlone` and `pBestOrTied` count it for none or all of them.
 * `closeCalls` lists the neighbours in the ranking whose order fewer than 95% of the samples
 * agree on (the formatted report says when one of the two is never worse).
 * @example
 * const report = scoreModels({ family: "binary-linear", tp: 0.7, tn: 0.3 }, [
 *   { name: "A", labels: [1, 0], probabilities: [[0.2, 0.8], [0.9, 0.1]] },
 *   { name: "B", labels: [1, 0], probabilities: [[0.6, 0.4], [0.3, 0.7]] },
 * ]);
 * report.ranking; // ["A", "B"]
 */
export function scoreModels(
  metric: PortableMetric,
  models: readonly ModelPredictions[],
  belief?: MetricBelief,
): ScoreReport {
  if (models.length === 0) throw new RangeError("scoring needs at least one model");
  const cost = isCostMetric(metric);
  const scored = models.map((m) => ({ name: m.name, ...scoreUnder(metric, m) }));
  const order = scored
    .map((_, i) => i)
    .sort((i, j) => {
      const [a, b] = [scored[i]!.score, scored[j]!.score];
      return better(a, b, cost) ? -1 : better(b, a, cost) ? 1 : i - j;
    });
  const rank = new Array<number>(models.length);
  order.forEach((i, r) => {
    const prev = order[r - 1];
    rank[i] =
      prev !== undefined &&
      !better(scored[prev]!.score, scored[i]!.score, cost) &&
      !better(scored[i]!.score, scored[prev]!.score, cost)
        ? rank[prev]!
        : r + 1;
  });
  const report: ScoreReport = {
    metric,
    cost,
    models: scored.map((s, i) => ({ ...s, rank: rank[i]! })),
    ranking: order.map((i) => scored[i]!.name),
  };
  if (!belief || belief.samples.length === 0) return report;
  const pBest = new Array<number>(models.length).fill(0);
  const alone = new Array<number>(models.length).fill(0);
  const orTied = new Array<number>(models.length).fill(0);
  const S = belief.samples.length;
  const perSample = belief.samples.map((s) => models.map((m) => scoreUnder(s, m).score));
  for (const scores of perSample) {
    const best = scores.filter((x) => !scores.some((y) => better(y, x, cost)));
    const top = scores.map((x) => best.includes(x));
    const n = top.filter(Boolean).length;
    top.forEach((t, i) => {
      if (!t) return;
      pBest[i]! += 1 / n / S;
      orTied[i]!++;
      if (n === 1) alone[i]!++;
    });
  }
  const closeCalls: CloseCall[] = [];
  for (let r = 1; r < order.length; r++) {
    const [i, j] = [order[r - 1]!, order[r]!];
    let ahead = 0;
    let tied = 0;
    let firstBetter = 0;
    let secondBetter = 0;
    for (const scores of perSample) {
      if (better(scores[i]!, scores[j]!, cost)) {
        ahead += 1;
        firstBetter += 1;
      } else if (!better(scores[j]!, scores[i]!, cost)) {
        ahead += 0.5;
        tied += 1;
      } else secondBetter += 1;
    }
    const share = ahead / S;
    if (share < 0.95)
      closeCalls.push({
        first: scored[i]!.name,
        second: scored[j]!.name,
        firstAhead: share,
        tied: tied / S,
        firstBetter: firstBetter / S,
        secondBetter: secondBetter / S,
      });
  }
  return {
    ...report,
    belief: {
      kind: belief.kind,
      note: belief.note,
      samples: S,
      pBest,
      pBestAlone: alone.map((c) => c / S),
      pBestOrTied: orTied.map((c) => c / S),
      closeCalls,
    },
  };
}
