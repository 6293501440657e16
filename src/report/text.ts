// The report's numbers in words, worded and rounded as the web app's dashboard and debrief
// print them (web/src/researcher/metric.ts), so a report and the dashboard read alike. The
// metric itself is read by the server's own functions (participant/metric.ts).

import { type MetricRecord, metricWeights } from "../server/participant/metric.ts";

/** A share as a whole percentage, or "—". @example percent(0.8666) // "87%" */
export function percent(x: number | null | undefined): string {
  return x === null || x === undefined ? "—" : `${Math.round(x * 100)}%`;
}

/**
 * A list in words.
 * @example inWords(["a", "b", "c"]) // "a, b and c"
 */
export function inWords(xs: readonly string[]): string {
  return xs.length < 2 ? (xs[0] ?? "") : `${xs.slice(0, -1).join(", ")} and ${xs.at(-1)}`;
}

/**
 * A count with its noun, plural when not 1.
 * @example counted(1, "test run") // "1 test run"
 */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** A cost ratio as the debrief prints it: one decimal below 10, whole numbers from 10. */
export function ratioText(x: number): string {
  return x >= 10 ? String(Math.round(x)) : x.toFixed(1).replace(/\.0$/, "");
}

/**
 * The debrief's range of cost ratios (missed positive / false alarm) as the dashboard shows
 * it: "3–4.5", "about 4" when both ends print alike, "≥ 12" when unbounded, "—" without one.
 * @example formatRange({ low: 3, high: 4.5 }) // "3–4.5"
 */
export function formatRange(
  range: { low: number; high: number | null } | null | undefined,
): string {
  if (range === null || range === undefined) return "—";
  if (range.high === null) return `≥ ${ratioText(range.low)}`;
  const lo = ratioText(range.low);
  const hi = ratioText(range.high);
  return lo === hi ? `about ${lo}` : `${lo}–${hi}`;
}

/**
 * A binary metric as "0.797 TP + 0.203 TN" (`{ a0 }` weighs true negatives), or "—".
 * @example binaryMetricText({ a0: 0.2 }) // "0.800 TP + 0.200 TN"
 */
export function binaryMetricText(metric: MetricRecord | null): string {
  if (metric === null) return "—";
  const w = metricWeights(metric);
  return `${w.tp.toFixed(3)} TP + ${w.tn.toFixed(3)} TN`;
}

/**
 * A class's weight per case as the debrief and the dashboard print it: whole per cent, and its
 * range when there is one.
 * @example classWeightText(0.31, { low: 0.25, high: 0.38 }) // "31% (25–38%)"
 */
export function classWeightText(
  w: number,
  range?: { readonly low: number; readonly high: number },
): string {
  const pct = (x: number) => Math.round(x * 100);
  return range === undefined ? `${pct(w)}%` : `${pct(w)}% (${pct(range.low)}–${pct(range.high)}%)`;
}

/**
 * A fairness participant's trade-off lambda with the range the debrief states.
 * @example lambdaText({ lambda: 0.3, low: 0.2, high: 0.4 }) // "lambda 0.30 (0.20–0.40)"
 */
export function lambdaText(m: { lambda: number; low: number; high: number }): string {
  return `lambda ${m.lambda.toFixed(2)} (${m.low.toFixed(2)}–${m.high.toFixed(2)})`;
}

/**
 * A fair-quadratic metric's costs `a` and gap weights (each class's diagonal of `B`, summed
 * over group pairs), 2 decimals, as the dashboard prints them.
 * @example fairWholeText({ a: [0.46, 0.89], B: { "0-1": [[1.89, 0], [0, 0.64]] } }) // "costs 0.46 / 0.89; gap weights 1.89 / 0.64"
 */
export function fairWholeText(m: {
  a: readonly number[];
  B: Readonly<Record<string, readonly (readonly number[])[]>>;
}): string {
  const gaps = m.a.map((_, i) => Object.values(m.B).reduce((s, M) => s + (M[i]?.[i] ?? 0), 0));
  return `costs ${m.a.map((x) => x.toFixed(2)).join(" / ")}; gap weights ${gaps.map((x) => x.toFixed(2)).join(" / ")}`;
}

/** How consistently a participant answered, as the export holds it (`ConsistencySchema`). */
export interface Consistency {
  readonly errorRate: number | null;
  readonly errorLow: number | null;
  readonly errorHigh: number | null;
  readonly retestPairs: number;
  readonly retestSame: number;
  readonly coinLike: boolean;
}

/**
 * The dashboard's consistency cell: the share of answers against the participant's own
 * result with its 90% range, the repeats answered the same, and "like a coin" when a coin
 * could have answered as well.
 * @example consistencyText({ errorRate: 0.067, errorLow: 0.015, errorHigh: 0.251, retestPairs: 2, retestSame: 2, coinLike: false }) // "7% (2%–25%); 2 of 2"
 */
export function consistencyText(c: Consistency | null | undefined): string {
  if (c === null || c === undefined) return "—";
  const share =
    c.errorRate === null
      ? "—"
      : `${percent(c.errorRate)} (${percent(c.errorLow)}–${percent(c.errorHigh)})`;
  const repeats = c.retestPairs > 0 ? `; ${c.retestSame} of ${c.retestPairs}` : "";
  return `${share}${repeats}${c.coinLike ? "; like a coin" : ""}`;
}

/**
 * Seconds as minutes and seconds, or "—".
 * @example formatSeconds(75) // "1 min 15 s"
 */
export function formatSeconds(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return "—";
  const m = Math.floor(s / 60);
  const r = Math.round(s % 60);
  return m > 0 ? `${m} min ${r} s` : `${r} s`;
}
