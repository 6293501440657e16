import type { BinaryPoint } from "../../elicit/binary/point.ts";
import type { BinaryConfusion } from "../../metrics/binary-confusion.ts";
import { evaluateFractional } from "../../metrics/binary-fractional.ts";
import { normalizeLinear } from "../../metrics/binary-linear.ts";
import { type ElicitationResult, isAdaptiveResult } from "./elicitation.ts";

/** The elicited metric as sent to clients: `{ a0 }` or unit-norm `{ tp, tn }`. */
export type MetricRecord = { a0: number } | { tp: number; tn: number };

export function metricOf(r: ElicitationResult): MetricRecord {
  if (isAdaptiveResult(r)) {
    const m = r.metric;
    if ("a0" in m) return { a0: m.a0 };
    const n = normalizeLinear(m);
    return { tp: n.tp, tn: n.tn };
  }
  switch (r.family) {
    case "binary-threshold":
      return { a0: r.a0 };
    case "binary-linear": {
      const m = normalizeLinear(r.metric);
      return { tp: m.tp, tn: m.tn };
    }
    case "binary-linear-fractional":
      throw new Error("the web app does not run linear-fractional studies");
  }
}

/**
 * The metric as `tp TP + tn TN` with `tp + tn = 1`: for `a0 TN + (1 - a0) TP` that is
 * `tp = 1 - a0`, `tn = a0` (a0 weighs true negatives); for unit-norm `{ tp, tn }` the shares.
 * What the dashboard shows and the wide CSV's `elicited_tp` / `elicited_tn` hold.
 * @example metricWeights({ a0: 0.203 }) // { tp: 0.797, tn: 0.203 }
 */
export function metricWeights(m: MetricRecord): { tp: number; tn: number } {
  if ("a0" in m) return { tp: 1 - m.a0, tn: m.a0 };
  const s = m.tp + m.tn;
  return s > 0 ? { tp: m.tp / s, tn: m.tn / s } : { tp: m.tp, tn: m.tn };
}

/** The elicited utility of a confusion point (larger is better). */
export function utilityOf(r: ElicitationResult): (c: BinaryConfusion) => number {
  if (isAdaptiveResult(r)) {
    const m = metricOf(r);
    if ("a0" in m) return (c) => m.a0 * c.tn + (1 - m.a0) * c.tp;
    return (c) => m.tp * c.tp + m.tn * c.tn;
  }
  switch (r.family) {
    case "binary-threshold":
      return (c) => r.a0 * c.tn + (1 - r.a0) * c.tp;
    case "binary-linear":
      return (c) => r.metric.tp * c.tp + r.metric.tn * c.tn;
    case "binary-linear-fractional":
      return (c) => evaluateFractional(r.metric, c);
  }
}

/**
 * How many times as bad a missed positive is as a false alarm under the elicited metric:
 * for `a0 TN + (1 - a0) TP` moving one patient from TP to FN costs `1 - a0` and from TN to FP
 * costs `a0`, so the ratio is `(1 - a0) / a0`; for `tp TP + tn TN` it is `tp / tn`.
 * Null when undefined (a zero weight).
 */
export function costRatio(r: ElicitationResult): number | null {
  return costRatioOf(metricOf(r));
}

/**
 * The cost ratio "missed positive / false alarm" of a metric record (null when a false alarm
 * costs nothing).
 * @example costRatioOf({ a0: 0.2 }) // 4
 */
export function costRatioOf(m: MetricRecord): number | null {
  const [num, den] = "a0" in m ? [1 - m.a0, m.a0] : [m.tp, m.tn];
  if (!(den > 0) || !(num >= 0)) return null;
  return num / den;
}

/**
 * The metric a study reports: the procedure's, moved into `range` (the `a` of the metrics
 * `(1 - a) TP + a TN` that give the participant's answers) when it lies outside. A search's
 * point is the middle of its last interval, which on a coarse pool or with rounded counts can
 * lie outside what the answers allow (a cost ratio of 3.9 reported beside "between 4 and 7").
 * Every screen and export shows this one.
 * @example reportedMetric(result, { lo: 0.125, hi: 0.2 }) // { a0: 0.2 } for a search's 0.203
 */
export function reportedMetric(
  r: ElicitationResult,
  range: { readonly lo: number; readonly hi: number } | null,
): MetricRecord {
  const m = metricOf(r);
  if (!range) return m;
  const a = "a0" in m ? m.a0 : m.tp + m.tn > 0 ? m.tn / (m.tp + m.tn) : 0.5;
  const moved = Math.min(range.hi, Math.max(range.lo, a));
  if (moved === a) return m;
  if ("a0" in m) return { a0: moved };
  const n = normalizeLinear({ tp: 1 - moved, tn: moved });
  return { tp: n.tp, tn: n.tn };
}

/** Is `p` at least as good as `q` on both counts (so the pair tells nothing)? */
export function dominates(p: BinaryPoint, q: BinaryPoint): boolean {
  return p.confusion.tp >= q.confusion.tp && p.confusion.tn >= q.confusion.tn;
}

/**
 * The `a` of `a TN + (1 - a) TP` equivalent to the elicited metric (for `tp TP + tn TN`,
 * `tn / (tp + tn)`); for the fractional family, the optimal threshold.
 */
export function equivalentA0(r: ElicitationResult): number {
  if (!isAdaptiveResult(r) && r.family === "binary-linear-fractional") {
    return r.classifier.threshold;
  }
  const m = metricOf(r);
  if ("a0" in m) return m.a0;
  return m.tn / (m.tp + m.tn);
}

/** One Phase II answer as a constraint on `a` of `(1 - a) TP + a TN`: counts first - second. */
export interface AnswerDifference {
  readonly dTp: number;
  readonly dTn: number;
  readonly answer: "first" | "second" | "tie";
}

/**
 * The metrics `(1 - a) TP + a TN`, `a` in [0, 1], that agree with the most answers: `[lo, hi]`
 * is the closure of the `a` contradicting the fewest non-tie answers (an answer "first" holds
 * at `a` when `(1 - a) dTp + a dTn > 0`; "about the same" constrains nothing). For a
 * consistent participant it is exactly the set of metrics that give every answer they gave,
 * so it contains theirs, and `violations` is 0. An answer no metric gives strictly (preferring
 * a system no better on either count) contradicts every `a` and so moves nothing. Exact: the
 * count changes only at the answers' flip points, so it is evaluated between neighbouring flip
 * points (a point never agrees with more answers than the open intervals beside it).
 * @example consistentRange([{ dTp: -3, dTn: 20, answer: "second" }]) // { lo: 0, hi: 3 / 23, violations: 0 }
 */
export function consistentRange(answers: readonly AnswerDifference[]): {
  lo: number;
  hi: number;
  violations: number;
} {
  const hard = answers.filter((x) => x.answer !== "tie" && (x.dTp !== 0 || x.dTn !== 0));
  // "second" is "first" with the differences negated.
  const cons = hard.map((x) => {
    const sign = x.answer === "first" ? 1 : -1;
    return { dTp: sign * x.dTp, dTn: sign * x.dTn };
  });
  const violated = (a: number) => {
    let n = 0;
    for (const x of cons) if (!((1 - a) * x.dTp + a * x.dTn > 0)) n++;
    return n;
  };
  const flips = new Set<number>([0, 1]);
  for (const x of cons) {
    if (x.dTp === x.dTn) continue;
    const a = x.dTp / (x.dTp - x.dTn); // where (1 - a) dTp + a dTn = 0
    if (a > 0 && a < 1) flips.add(a);
  }
  const points = [...flips].sort((p, q) => p - q);
  const cells = points.slice(1).map((p, i) => {
    const prev = points[i]!;
    return { lo: prev, hi: p, v: violated((prev + p) / 2) };
  });
  const least = Math.min(...cells.map((c) => c.v));
  const best = cells.filter((c) => c.v === least);
  return { lo: best[0]!.lo, hi: best[best.length - 1]!.hi, violations: least };
}

/** A cost ratio range "missed positive / false alarm": `high` null when unbounded. */
export interface RatioRange {
  readonly low: number;
  readonly high: number | null;
}

/** Outward rounding to what is printed: one decimal below 10, whole numbers from 10. */
const down = (x: number) => (x >= 10 ? Math.floor(x) : Math.floor(x * 10 + 1e-9) / 10);
const up = (x: number) => (x >= 10 ? Math.ceil(x) : Math.ceil(x * 10 - 1e-9) / 10);

/** Ratios above this print as "at least": past it the answers cannot tell them apart. */
const UNBOUNDED = 100;

/**
 * The cost ratios `(1 - a) / a` of the metrics with `a` in `[lo, hi]`, rounded outward to what
 * the debrief prints, so the printed range contains the exact one; `high` is null when the
 * range is unbounded (or past 100).
 * @example ratioRange(0.15, 0.25) // { low: 3, high: 5.7 }
 */
export function ratioRange(lo: number, hi: number): RatioRange {
  const low = hi >= 1 ? 0 : hi <= 0 ? UNBOUNDED : (1 - hi) / hi;
  const high = lo <= 0 ? null : (1 - lo) / lo;
  return { low: down(low), high: high === null || high > UNBOUNDED ? null : up(high) };
}

function formatBound(x: number): string {
  return x >= 10 ? String(x) : x.toFixed(1).replace(/\.0$/, "");
}

function between(r: RatioRange): string {
  if (r.high === null) return `at least ${formatBound(r.low)} times`;
  if (formatBound(r.low) === formatBound(r.high)) return `about ${formatBound(r.low)} times`;
  return `between ${formatBound(r.low)} and ${formatBound(r.high)} times`;
}

/**
 * The result as a range in plain words, in the study's terms, from the range of `a` in
 * `(1 - a) TP + a TN`: "For you, missed cancers are between 2.5 and 6 times as bad as false
 * alarms." Turned round ("false alarms are ... as bad as missed cancers") when every ratio in
 * it is below 1; when it spans 1, "Your answers fit anything from false alarms 2 times as bad
 * as missed cancers to missed cancers 3 times as bad as false alarms."
 * @example rangeSummary(0.15, 0.25, words) // "For you, missed cancers are between 3 and 5.7 times as bad as false alarms."
 */
export function rangeSummary(
  lo: number,
  hi: number,
  words: { missed: string; falseAlarm: string },
): string {
  const { missed, falseAlarm } = words;
  if (lo <= 0 && hi >= 1) return "Your answers do not tell which kind of mistake is worse for you.";
  if (hi <= 0.5)
    return `For you, ${missed} are ${between(ratioRange(lo, hi))} as bad as ${falseAlarm}.`;
  // False alarms per missed positive: a / (1 - a), the ratio of the metric with a -> 1 - a.
  if (lo >= 0.5)
    return `For you, ${falseAlarm} are ${between(ratioRange(1 - hi, 1 - lo))} as bad as ${missed}.`;
  const f = ratioRange(1 - hi, 0.5).high;
  const m = ratioRange(lo, 0.5).high;
  const falseWorse =
    f === null
      ? `${falseAlarm} far worse than ${missed}`
      : `${falseAlarm} ${formatBound(f)} times as bad as ${missed}`;
  const missedWorse =
    m === null
      ? `${missed} far worse than ${falseAlarm}`
      : `${missed} ${formatBound(m)} times as bad as ${falseAlarm}`;
  return `Your answers fit anything from ${falseWorse} to ${missedWorse}.`;
}
