// What several kinds' report parts share: the recommended classifier's shares right in words
// and as bars, the consensus of weights per class, and one plot per class.

import type { Consensus } from "../../server/api-schemas.ts";
import type { ExportParticipant } from "../schema.ts";
import { percent } from "../text.ts";
import type { Axis, Bar, FigurePanel, ReportContext } from "./kind.ts";

/** The consensus's `best` (present). */
type Best = NonNullable<Consensus["best"]>;

/**
 * The shares right of the recommended classifier, per class, as the dashboard words them.
 * @example rightText(best, ["a", "b"]) // "“a” 95%, “b” 99% right (97% of all cases)"
 */
export function rightText(b: Best, classes: readonly string[]): string {
  return `${classes.map((k, i) => `“${k}” ${percent(b.rates[i]!)}`).join(", ")} right (${percent(b.accuracy)} of all cases)`;
}

/**
 * How many participants' own best classifier is the recommended one, as the dashboard says it.
 * @example sharedText(best, 3) // "it is the own best classifier of 2 of the 3 participants"
 */
export function sharedText(b: Best, n: number): string {
  return `it is the own best classifier of ${b.agree} of the ${n} participant${n === 1 ? "" : "s"}`;
}

/** The recommended classifier's shares right per class as bars (everyone). */
export function classBars(b: Best, classes: readonly string[]): Bar[] {
  return classes.map((k, i) => ({ label: k, value: b.rates[i] ?? 0 }));
}

/**
 * The consensus of weights per class (or per kind of mistake) in lines, as the dashboard
 * states them: mean, sd and range, 3 decimals.
 */
export function weightLines(c: Consensus): string[] {
  const w = c.weights;
  if (w === undefined) return [];
  const f = (x: number) => x.toFixed(3);
  const linear = w.classes.length > (c.classes ?? w.classes).length;
  return w.classes.map(
    (k, i) =>
      `“${k}”: mean ${linear ? "share" : "weight per case"} ${f(w.mean[i]!)}, sd ${f(w.sd[i]!)}, from ${f(w.min[i]!)} to ${f(w.max[i]!)}`,
  );
}

/** A share from 0 to 1, printed as a whole percentage. */
export const SHARE_AXIS = (label: string): Axis => ({ min: 0, max: 1, label, format: percent });

/**
 * One plot per class of each participant's weight per case (`summary.classWeights`) with the
 * range their answers leave (`classRanges`), and the consensus's mean and sd of that class
 * (`perClass`: from the consensus, or null when it states none per class).
 */
export function classPanels(
  ctx: ReportContext,
  finished: readonly ExportParticipant[],
  perClass: (i: number) => { mean: number; sd: number | null } | null,
  axisLabel: string,
): FigurePanel[] {
  return ctx.classes.map((name, i) => ({
    title: `“${name}”`,
    axis: SHARE_AXIS(axisLabel),
    consensus: perClass(i),
    points: finished.flatMap((p) => {
      const w = p.summary.classWeights?.[i];
      if (w === undefined) return [];
      const r = p.summary.classRanges?.[i];
      return [{ participant: p, value: w, low: r?.low ?? w, high: r?.high ?? w }];
    }),
  }));
}
