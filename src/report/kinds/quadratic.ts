// A quadratic study in the report: each participant's weight per case of every class and what
// uneven results between classes cost them, and the consensus weights per class.

import { debriefSentence, uncertaintySentence } from "../../server/kinds/multiclass/participant.ts";
import type { ReportKind } from "./kind.ts";
import { classFiguresText } from "./multiclass.ts";
import { classPanels, weightLines } from "./shared.ts";

/** The quadratic kind of the report. */
export const quadraticReport: ReportKind = {
  label:
    "Quadratic: 3 or 4 classes, which classes matter and how much uneven results between them cost",
  elicits: () =>
    "Each participant's metric is quadratic in the classes' shares right: how much each class matters (stated as its weight per case at the middle of the systems shown, the weights summing to 100%) and what uneven results between two classes cost (stated in people of 100).",
  metricText: (p, ctx) => classFiguresText(p, ctx, "weights per case"),
  debrief: (p, ctx) => {
    const s = p.summary;
    if (s.classWeights === undefined) return null;
    const uncertain = uncertaintySentence(
      s.classHalfWidths ?? s.classWeights.map(() => null),
      ctx.classes,
    );
    const own = s.kindFigures ? ` ${s.kindFigures.text}` : "";
    return `${debriefSentence(s.classWeights, ctx.classes, s.classRanges)}${uncertain ? ` ${uncertain}` : ""}${own}`;
  },
  panels: (ctx, finished) => {
    const w = ctx.exp.consensus?.weights;
    return classPanels(
      ctx,
      finished,
      (i) => (w === undefined ? null : { mean: w.mean[i]!, sd: w.sd[i]! }),
      "weight per case of this class",
    );
  },
  consensusLines: (c) => weightLines(c),
  // The consensus of a quadratic study recommends no classifier.
  best: () => null,
};
