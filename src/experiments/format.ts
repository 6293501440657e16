import { type DisplayFrame, displayFrame, shownCounts } from "../elicit/binary/display.ts";
import type { BinaryConfusion } from "../metrics/binary-confusion.ts";

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
 * The frame `systemLines` shows a pool of prevalence `zeta` in: a tenth of a person out of 100
 * (counts of 1000, printed divided by 10), the class totals by largest remainder, so the
 * caught and missed counts add up to the class total as printed.
 * @example textFrame(0.3438) // { population: 1000, positives: 344, negatives: 656, step: 0.001 }
 */
export function textFrame(zeta: number): DisplayFrame {
  return displayFrame(1000, zeta);
}

/**
 * One system as text: counts out of 100 to a tenth of a person and class-conditional rates
 * (G4 of the user study). TP and TN are rounded (`shownCounts` of `textFrame`, the adaptive
 * engine's display key at step 0.001) and the missed cases and false alarms are the rest of
 * their class totals as printed, so a person comparing missed cases compares caught ones
 * too. Returns lines so two systems can be printed side by side.
 * @example systemLines("System A", { tp: 0.3123, tn: 0.5904 }, 0.3438, words)[2] // "    caught  31.2  (91%)   missed       3.2   (9%)"
 */
export function systemLines(
  title: string,
  c: BinaryConfusion,
  zeta: number,
  words: ClassWords,
): string[] {
  const frame = textFrame(zeta);
  const m = shownCounts(c, frame);
  const n = (x: number) => (x / 10).toFixed(1);
  const rate = (x: number, total: number) =>
    total > 0 ? `${Math.round((100 * x) / total)}%` : "-";
  return [
    title,
    `  actually ${words.positive} (${n(frame.positives)} of 100):`,
    `    caught  ${pad(n(m.tp), 5)} (${rate(m.tp, frame.positives)})   missed       ${pad(n(m.fn), 5)} (${rate(m.fn, frame.positives)})`,
    `  actually ${words.negative} (${n(frame.negatives)} of 100):`,
    `    cleared ${pad(n(m.tn), 5)} (${rate(m.tn, frame.negatives)})   false alarms ${pad(n(m.fp), 5)} (${rate(m.fp, frame.negatives)})`,
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
