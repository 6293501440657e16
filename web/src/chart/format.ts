// Number formatting shared by the chart, its table and its description.

/** A count out of 100: integers as is, fractions with one decimal ("3.5"). */
export function formatCount(n: number): string {
  const r = Math.round(n * 10) / 10;
  return Number.isInteger(r) ? String(r) : r.toFixed(1);
}

/** A rate in [0, 1] as a whole percentage ("91%"). */
export function formatPercent(rate: number): string {
  if (!Number.isFinite(rate)) return "–";
  return `${Math.round(rate * 100)}%`;
}

/** "32 of 35 · 91%" — a count out of its true-class total, with the class-conditional rate. */
export function countOfTotal(count: number, total: number, rate: number): string {
  return `${formatCount(count)} of ${formatCount(total)} · ${formatPercent(rate)}`;
}
