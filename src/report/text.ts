// The report's numbers in words. The figures' wording and rounding are the dashboard's and the
// debrief's own (src/server/study/figure-text.ts, re-exported here), so a report and the
// dashboard read alike; the metric itself is read by the server's functions (participant/metric.ts).

import { type MetricRecord, metricWeights } from "../server/participant/metric.ts";

export {
  type Consistency,
  classWeightText,
  consistencyText,
  fairWholeText,
  formatRange,
  formatSeconds,
  lambdaText,
  percent,
  ratioText,
  undecidedText,
} from "../server/study/figure-text.ts";

export { inWords } from "../words.ts";

/**
 * A count with its noun, plural when not 1.
 * @example counted(1, "test run") // "1 test run"
 */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/**
 * A binary metric as "0.797 TP + 0.203 TN" (`{ a0 }` weighs true negatives), or "—".
 * Not the dashboard's `binaryMetricText`: that one reads any row's metric of unknown shape (web
 * metricWeights, "—" for a {tp, tn} summing to 0); this one a typed record (the server's).
 * @example binaryMetricText({ a0: 0.2 }) // "0.800 TP + 0.200 TN"
 */
export function binaryMetricText(metric: MetricRecord | null): string {
  if (metric === null) return "—";
  const w = metricWeights(metric);
  return `${w.tp.toFixed(3)} TP + ${w.tn.toFixed(3)} TN`;
}
