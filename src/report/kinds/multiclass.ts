// A multiclass study in the report: each participant's weight per case of every class (a
// linear study: each true class's share of the cost of its people's mistakes), the consensus
// per class (or per kind of mistake) and the classifier best for it.

import {
  debriefSentence,
  linearDebriefSentence,
  linearMistakes,
  uncertaintySentence,
} from "../../server/kinds/multiclass/participant.ts";
import { weightsBestLine } from "../../server/study/consensus-text.ts";
import type { ExportParticipant } from "../schema.ts";
import { classWeightText } from "../text.ts";
import type { ReportContext, ReportKind } from "./kind.ts";
import { classBars, classPanels, weightLines } from "./shared.ts";

/** Whether the study elicits the linear family (a cost per kind of mistake). */
const isLinear = (ctx: ReportContext) => ctx.exp.study.config.spec.family === "linear";

/**
 * A participant's figure per class as the debrief states it (whole per cent, its range,
 * "(uncertain)" where the answers did not pin it down), each class named; "—" without one.
 */
export function classFiguresText(p: ExportParticipant, ctx: ReportContext, what: string): string {
  const s = p.summary;
  if (s.classWeights === undefined) return "—";
  const hw = s.classHalfWidths ?? [];
  const own = s.kindFigures ? `; ${s.kindFigures.short}` : "";
  const figures = s.classWeights.map(
    (w, i) =>
      `“${ctx.classes[i]}” ${classWeightText(w, s.classRanges?.[i])}${hw[i] != null ? " (uncertain)" : ""}`,
  );
  return `${what} ${figures.join(", ")}${own}`;
}

/** The multiclass kind of the report. */
export const multiclassReport: ReportKind = {
  label: "Multiclass: 3 to 6 classes, which class’s mistakes matter most",
  elicits: (ctx) =>
    isLinear(ctx)
      ? "Each participant's metric gives every kind of mistake (a true class taken for another) its own cost (the linear family); stated per true class, as the share of the cost its people's mistakes carry (the shares sum to 100%)."
      : "Each participant's metric weighs the people of each class the system gets right (the diagonal-linear family); stated as each class's weight per case, as their debrief did (the weights sum to 100%).",
  metricText: (p, ctx) =>
    classFiguresText(p, ctx, isLinear(ctx) ? "shares of the cost" : "weights per case"),
  debrief: (p, ctx) => {
    const s = p.summary;
    const weights = s.metric !== null && "weights" in s.metric ? s.metric.weights : null;
    if (weights === null) return null;
    if (isLinear(ctx))
      return linearDebriefSentence(
        linearMistakes(weights, s.adaptive?.unidentified ?? [], ctx.classes),
      );
    if (s.classWeights === undefined) return null;
    const uncertain = uncertaintySentence(
      s.classHalfWidths ?? s.classWeights.map(() => null),
      ctx.classes,
    );
    return `${debriefSentence(s.classWeights, ctx.classes, s.classRanges)}${uncertain ? ` ${uncertain}` : ""}`;
  },
  panels: (ctx, finished) => {
    const w = ctx.exp.consensus?.weights;
    const linear = isLinear(ctx);
    // A linear consensus is per kind of mistake (true i taken for j, row by row): a class's
    // share of the cost is the sum of its mistakes' shares, whose means add up (no sd).
    const perClass = (i: number) => {
      if (w === undefined) return null;
      if (!linear) return { mean: w.mean[i]!, sd: w.sd[i]! };
      const k = ctx.classes.length;
      const mine = w.mean.slice(i * (k - 1), (i + 1) * (k - 1));
      return { mean: mine.reduce((s, x) => s + x, 0), sd: null };
    };
    return classPanels(
      ctx,
      finished,
      perClass,
      linear ? "share of the cost of this class's mistakes" : "weight per case of this class",
    );
  },
  consensusLines: (c) => weightLines(c),
  best: (c, ctx) => {
    const b = c.best;
    if (b === undefined) return null;
    return {
      lines: [weightsBestLine(b, ctx.classes, c.n)],
      bars: classBars(b, ctx.classes),
    };
  },
};
