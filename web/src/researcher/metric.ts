// Reading the elicited metric of a participant row, whatever form the server sends.
//
// The server sends `{ a0 }` for the threshold family, whose metric is `a0 TN + (1 - a0) TP`
// (a0 weighs true NEGATIVES: src/elicit/binary/threshold.ts), and unit-norm `{ tp, tn }` for
// `tp TP + tn TN`. Everything shown here goes through `metricWeights`, the same shares the
// exports write (src/server/participant/metric.ts `metricWeights`), so the dashboard, the
// debrief and the exports cannot disagree.

import {
  classWeightText,
  fairWholeText,
  lambdaText as lambdaRangeText,
} from "../../../src/server/study/figure-text.ts";

// The figures' wording, shared with the debrief and `elicit report` (one implementation).
export {
  classWeightText,
  consistencyText as consistencyCell,
  formatRange,
  formatSeconds,
  percent,
  undecidedText,
} from "../../../src/server/study/figure-text.ts";

/** The metric as `tp TP + tn TN` with `tp + tn = 1`, or null if the row has no metric yet. */
export function metricWeights(metric: unknown): { tp: number; tn: number } | null {
  if (metric === null || typeof metric !== "object") return null;
  const m = metric as Record<string, unknown>;
  if (typeof m.a0 === "number") return { tp: 1 - m.a0, tn: m.a0 };
  if (typeof m.tp === "number" && typeof m.tn === "number" && m.tp + m.tn > 0) {
    return { tp: m.tp / (m.tp + m.tn), tn: m.tn / (m.tp + m.tn) };
  }
  return null;
}

/** The weight on true positives (the share a missed positive costs), or null. */
export function tpWeight(metric: unknown): number | null {
  return metricWeights(metric)?.tp ?? null;
}

/** A row's figures per class (the debrief's), as `classWeightsText` reads them. */
export interface ClassFigures {
  readonly classWeights?: readonly number[];
  readonly classHalfWidths?: readonly (number | null)[];
  readonly classRanges?: readonly { readonly low: number; readonly high: number }[];
  /** A kind's own figures (a quadratic study's imbalance cost), in a few words. */
  readonly kindFigures?: { readonly short: string };
}

type Unidentified = readonly { name: string; halfWidth: number }[];

/**
 * A row's weight per case of each class, as the participant's debrief states it (whole per
 * cent, its range, "(uncertain)" where the answers did not pin it down), and the kind's own
 * figures; null for a row without them. (The report's `classFiguresText` differs: it names
 * each class and says "—" without figures.)
 * @example classWeightsText({ classWeights: [0.31, 0.69] }) // "weights per case 31%, 69%"
 */
export function classWeightsText(row: ClassFigures | undefined): string | null {
  if (row?.classWeights === undefined) return null;
  const hw = row.classHalfWidths ?? [];
  const own = row.kindFigures ? `; ${row.kindFigures.short}` : "";
  return `weights per case ${row.classWeights
    .map(
      (w, i) => `${classWeightText(w, row.classRanges?.[i])}${hw[i] != null ? " (uncertain)" : ""}`,
    )
    .join(", ")}${own}`;
}

/**
 * A fairness row's trade-off lambda with the range the debrief states (and the whole metric's
 * costs and gap weights); null for another metric.
 * @example lambdaText({ lambda: 0.3, low: 0.2, high: 0.4 }) // "lambda 0.30 (0.20–0.40)"
 */
export function lambdaText(metric: unknown, unidentified: Unidentified = []): string | null {
  const f = metric as { lambda?: unknown; low?: unknown; high?: unknown } | null;
  if (typeof f?.lambda !== "number" || typeof f.low !== "number" || typeof f.high !== "number")
    return null;
  const lambda = lambdaRangeText({ lambda: f.lambda, low: f.low, high: f.high });
  const whole = fairWhole(metric, unidentified);
  return whole === null ? lambda : `${lambda}; ${whole}`;
}

/**
 * A multiclass metric's own weights (a row without its per-class figures): a linear study's
 * costs of each mistake (<= 0, row by row: true i taken for j, `a{i}{j}`) or a diagonal
 * study's weights, each the engine could not pin down with its half-width; null otherwise.
 * @example engineWeightsText({ weights: [0.5, 0.5] }) // "class weights 0.500, 0.500"
 */
export function engineWeightsText(metric: unknown, unidentified: Unidentified = []): string | null {
  const ws = (metric as { weights?: unknown } | null)?.weights;
  if (!Array.isArray(ws) || !ws.every((x) => typeof x === "number")) return null;
  const hw = new Map(unidentified.map((u) => [u.name, u.halfWidth]));
  const pm = (x: number, h: number | undefined) =>
    h === undefined ? x.toFixed(3) : `${x.toFixed(3)} ±${h.toFixed(3)}`;
  if (ws.some((x) => x < 0)) {
    const k = Math.round((1 + Math.sqrt(1 + 4 * ws.length)) / 2);
    const names = Array.from({ length: k }, (_, i) =>
      Array.from({ length: k }, (_, j) => (i === j ? [] : [`a${i}${j}`])).flat(),
    ).flat();
    return `mistake weights ${ws.map((x, a) => pm(x, hw.get(names[a]!))).join(", ")}`;
  }
  return `class weights ${ws.map((x, i) => pm(x, hw.get(`a${i}`))).join(", ")}`;
}

/**
 * A binary metric as "0.797 TP + 0.203 TN", or "—" without one. (Not src/report/text.ts's:
 * this one reads a row's metric of any shape, "—" for a {tp, tn} summing to 0.)
 * @example binaryMetricText({ a0: 0.2 }) // "0.800 TP + 0.200 TN"
 */
export function binaryMetricText(metric: unknown): string {
  const w = metricWeights(metric);
  return w === null ? "—" : `${w.tp.toFixed(3)} TP + ${w.tn.toFixed(3)} TN`;
}

/**
 * Any row's metric, read by its shape (for a row whose kind the page has no module for, and
 * the tests): the per-class figures, lambda, a multiclass metric's weights, or the binary
 * metric. A study's page asks its kind (`WebStudyKind.dashboard.metricText`).
 * @example formatMetric({ weights: [0.5, 0.5] }, [{ name: "a1", halfWidth: 0.1 }])
 */
export function formatMetric(
  metric: unknown,
  unidentified: Unidentified = [],
  classes?: ClassFigures,
): string {
  return (
    classWeightsText(classes) ??
    lambdaText(metric, unidentified) ??
    engineWeightsText(metric, unidentified) ??
    binaryMetricText(metric)
  );
}

/**
 * A fair-quadratic row's costs `a` and gap weights (each class's diagonal of `B`, summed over
 * group pairs), 2 decimals, each coordinate the engine left open with its half-width (a gap:
 * the sum of its entries' half-widths); null for a lambda-only row.
 * @example fairWhole({ a: [0.46, 0.89], B: { "0-1": [[1.89, 0], [0, 0.64]] } }, [{ name: "B12_22", halfWidth: 0.39 }])
 * // "costs 0.46 / 0.89; gap weights 1.89 / 0.64 ±0.39"
 */
export function fairWhole(
  metric: unknown,
  unidentified: readonly { name: string; halfWidth: number }[] = [],
): string | null {
  const m = metric as { a?: unknown; B?: unknown } | null;
  if (!Array.isArray(m?.a) || m.B === null || typeof m.B !== "object") return null;
  return fairWholeText({ a: m.a as number[], B: m.B as Record<string, number[][]> }, unidentified);
}
