// Reading the elicited metric of a participant row, whatever form the server sends.

/** a0 = weight on TP in a0*TP + (1-a0)*TN, or null if the row has no metric yet. */
export function metricA0(metric: unknown): number | null {
  if (metric === null || typeof metric !== "object")
    return typeof metric === "number" ? metric : null;
  const m = metric as Record<string, unknown>;
  if (typeof m.a0 === "number") return m.a0;
  if (typeof m.tp === "number" && typeof m.tn === "number" && m.tp + m.tn > 0) {
    return m.tp / (m.tp + m.tn);
  }
  return null;
}

/** "0.875 TP + 0.125 TN" */
export function formatMetric(metric: unknown): string {
  const a0 = metricA0(metric);
  if (a0 === null) return "—";
  return `${a0.toFixed(3)} TP + ${(1 - a0).toFixed(3)} TN`;
}

export function formatSeconds(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return "—";
  const m = Math.floor(s / 60);
  const r = Math.round(s % 60);
  return m > 0 ? `${m} min ${r} s` : `${r} s`;
}
