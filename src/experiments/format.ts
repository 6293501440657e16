import type { BinaryConfusion } from "../metrics/binary-confusion.ts";
import { fullConfusion } from "../metrics/binary-confusion.ts";

/** Labels for the two classes in text displays. */
export interface ClassWords {
  readonly positive: string;
  readonly negative: string;
}

/** Fixed-width number. */
export function fmt(x: number, digits = 3): string {
  return Number.isFinite(x) ? x.toFixed(digits) : String(x);
}

/** Right-pad. */
export function pad(s: string, n: number): string {
  return s.length >= n ? s : s + " ".repeat(n - s.length);
}

/** A plain text table with a header row. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => pad(c, widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/**
 * One system as text: counts out of 100 and class-conditional rates (G4 of the user study).
 * Returns lines so two systems can be printed side by side.
 */
export function systemLines(
  title: string,
  c: BinaryConfusion,
  zeta: number,
  words: ClassWords,
): string[] {
  const m = fullConfusion(c, zeta);
  const n = (x: number) => (100 * x).toFixed(1).replace(/\.0$/, "");
  const pos = 100 * zeta;
  const neg = 100 - pos;
  const rate = (x: number, total: number) =>
    total > 0 ? `${Math.round((100 * x) / total)}%` : "-";
  return [
    title,
    `  actually ${words.positive} (${n(zeta)} of 100):`,
    `    caught  ${pad(n(m.tp), 5)} (${rate(100 * m.tp, pos)})   missed       ${pad(n(m.fn), 5)} (${rate(100 * m.fn, pos)})`,
    `  actually ${words.negative} (${n(1 - zeta)} of 100):`,
    `    cleared ${pad(n(m.tn), 5)} (${rate(100 * m.tn, neg)})   false alarms ${pad(n(m.fp), 5)} (${rate(100 * m.fp, neg)})`,
  ];
}

/** Two blocks of lines side by side. */
export function sideBySide(left: readonly string[], right: readonly string[], gap = 4): string {
  const w = Math.max(...left.map((l) => l.length)) + gap;
  const rows = Math.max(left.length, right.length);
  return Array.from({ length: rows }, (_, i) => pad(left[i] ?? "", w) + (right[i] ?? "")).join(
    "\n",
  );
}
