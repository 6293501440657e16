// What several kinds' report parts share: the recommended classifier's shares right in words
// and as bars, the consensus of weights per class, and one plot per class.

import type { Consensus } from "../../server/api-schemas.ts";
import type { ExportParticipant } from "../schema.ts";
import { percent } from "../text.ts";
import type { Axis, Bar, FigurePanel, ReportContext } from "./kind.ts";

// The dashboard's consensus wording (one implementation, shared with web/src/researcher/Consensus.tsx).
export { rightText, sharedText, weightLines } from "../../server/study/consensus-text.ts";

/** The consensus's `best` (present). */
type Best = NonNullable<Consensus["best"]>;

/** The recommended classifier's shares right per class as bars (everyone). */
export function classBars(b: Best, classes: readonly string[]): Bar[] {
  return classes.map((k, i) => ({ label: k, value: b.rates[i] ?? 0 }));
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
