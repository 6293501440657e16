// A binary study in the report: each participant's weight on true positives and the cost
// ratio their answers allow, the consensus weight and the threshold classifier best for it.

import { metricWeights, rangeSummary } from "../../server/participant/metric.ts";
import { binaryBestLine, tpWeightLine } from "../../server/study/consensus-text.ts";
import type { ExportParticipant } from "../schema.ts";
import { binaryMetricText, formatRange, ratioText } from "../text.ts";
import type { ReportKind } from "./kind.ts";
import { classBars, SHARE_AXIS } from "./shared.ts";

/** A binary participant's metric record (`{ a0 }` or `{ tp, tn }`), or null. */
function binaryMetric(p: ExportParticipant) {
  const m = p.summary.metric;
  return m !== null && ("a0" in m || "tp" in m) ? m : null;
}

/** The binary kind of the report. */
export const binaryReport: ReportKind = {
  label: "Binary: two classes, the cost of a missed case against a false alarm",
  elicits: ({ exp }) => {
    const w = exp.study.config.words;
    return `Each participant's metric weighs the cases rightly flagged (true positives, TP) against those rightly cleared (true negatives, TN), w TP + (1 − w) TN; the cost ratio w / (1 − w) is how many times as bad ${w.missed} are as ${w.falseAlarm} for them.`;
  },
  metricText: (p) => binaryMetricText(binaryMetric(p)),
  range: {
    heading: "Cost ratio (range)",
    text: (p) => formatRange(p.summary.range),
  },
  debrief: (p, { exp }) => {
    const r = p.summary.rangeA;
    return r ? rangeSummary(r.lo, r.hi, exp.study.config.words) : null;
  },
  panels: (ctx, finished) => {
    const t = ctx.exp.consensus?.tpWeight;
    return [
      {
        title: "Weight on true positives",
        axis: { ...SHARE_AXIS(""), label: "weight on true positives (TP); the rest is on TN" },
        consensus: t ? { mean: t.mean, sd: t.sd } : null,
        points: finished.flatMap((p) => {
          const m = binaryMetric(p);
          if (m === null) return [];
          const tp = metricWeights(m).tp;
          // The debrief's range of a in (1 - a) TP + a TN: the weight on TP is 1 - a.
          const r = p.summary.rangeA;
          return [
            {
              participant: p,
              value: tp,
              low: r ? Math.min(tp, 1 - r.hi) : tp,
              high: r ? Math.max(tp, 1 - r.lo) : tp,
            },
          ];
        }),
      },
    ];
  },
  consensusLines: (c, { exp }) => {
    const w = c.tpWeight;
    if (w === undefined) return [];
    const f = (x: number) => x.toFixed(3);
    const words = exp.study.config.words;
    const ratio = w.mean < 1 ? w.mean / (1 - w.mean) : null;
    return [
      tpWeightLine(w),
      `The consensus metric is ${f(w.mean)} TP + ${f(1 - w.mean)} TN${ratio === null ? "" : `: ${words.missed} count ${ratioText(ratio)} times as much as ${words.falseAlarm}`}.`,
    ];
  },
  best: (c, ctx) => {
    const b = c.best;
    if (b === undefined) return null;
    const [neg, pos] = ctx.classes;
    return {
      lines: [binaryBestLine(b, ctx.classes, c.n)],
      bars: classBars(b, [neg!, pos!]),
    };
  },
};
