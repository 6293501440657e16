import { fmt, table } from "../experiments/format.ts";
import { mean, quantile } from "../math/stats.ts";

/** Distribution of one error measure over trials. */
export interface ErrorStats {
  readonly mean: number;
  readonly median: number;
  readonly p95: number;
  readonly max: number;
}

/**
 * Summarise the named error measures of many runs.
 * @example errorStats([{ angle: 0.1 }, { angle: 0.3 }], ["angle"]).angle.mean // 0.2
 */
export function errorStats(
  errors: readonly Record<string, number>[],
  keys: readonly string[],
): Record<string, ErrorStats> {
  return Object.fromEntries(
    keys.map((k) => {
      const xs = errors.map((e) => e[k]!);
      return [
        k,
        {
          mean: mean(xs),
          median: quantile(xs, 0.5),
          p95: quantile(xs, 0.95),
          max: Math.max(...xs),
        },
      ];
    }),
  );
}

/** The summary as a text table. */
export function errorTable(stats: Record<string, ErrorStats>): string {
  return table(
    ["error", "mean", "median", "p95", "max"],
    Object.entries(stats).map(([k, s]) => [
      k,
      fmt(s.mean, 4),
      fmt(s.median, 4),
      fmt(s.p95, 4),
      fmt(s.max, 4),
    ]),
  );
}
