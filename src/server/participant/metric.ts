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
  const m = metricOf(r);
  const [num, den] = "a0" in m ? [1 - m.a0, m.a0] : [m.tp, m.tn];
  if (!(den > 0) || !(num >= 0)) return null;
  return num / den;
}

function formatTimes(x: number): string {
  if (x >= 10) return String(Math.round(x));
  const s = x.toFixed(1);
  return s.endsWith(".0") ? s.slice(0, -2) : s;
}

/**
 * The result in plain words, in the study's own terms.
 * @example plainSummary(7, { missed: "missed cancers", falseAlarm: "false alarms" })
 * // "For you, missed cancers are about 7 times as bad as false alarms."
 */
export function plainSummary(
  ratio: number | null,
  words: { missed: string; falseAlarm: string },
): string {
  if (ratio === null) {
    return `Your answers suggest you care almost only about one kind of mistake.`;
  }
  if (ratio >= 0.95 && ratio <= 1.05) {
    return `For you, ${words.missed} and ${words.falseAlarm} are about equally bad.`;
  }
  if (ratio > 1) {
    return `For you, ${words.missed} are about ${formatTimes(ratio)} times as bad as ${words.falseAlarm}.`;
  }
  return `For you, ${words.falseAlarm} are about ${formatTimes(1 / ratio)} times as bad as ${words.missed}.`;
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
