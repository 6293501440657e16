// A fairness study in the report: each participant's trade-off lambda with its range (and the
// whole metric's costs and gap weights), the consensus lambda and the group-wise systems best
// for it.

import {
  accuracyForGap,
  fairDebriefSentence,
  fullFairSentence,
} from "../../server/kinds/fair/participant.ts";
import { fairBestLine, lambdaLine } from "../../server/study/consensus-text.ts";
import type { ExportParticipant } from "../schema.ts";
import { fairWholeText, lambdaText, percent } from "../text.ts";
import type { Bar, ReportContext, ReportKind } from "./kind.ts";

/** A fairness participant's metric (lambda with its range; the whole metric's a and B). */
function fairMetric(p: ExportParticipant) {
  const m = p.summary.metric;
  return m !== null && "lambda" in m ? m : null;
}

/** The whole metric's costs and gap weights (fair-quadratic), or null for lambda alone. */
function wholeOf(m: NonNullable<ReturnType<typeof fairMetric>>) {
  const w = m as { a?: number[]; B?: Record<string, number[][]> };
  return w.a !== undefined && w.B !== undefined ? { a: w.a, B: w.B } : null;
}

const isWhole = (ctx: ReportContext) => ctx.exp.study.config.spec.family === "fair-quadratic";

/** The fairness kind of the report. */
export const fairReport: ReportKind = {
  label: "Fairness: how much accuracy to give up for treating groups alike (the trade-off lambda)",
  elicits: (ctx) =>
    isWhole(ctx)
      ? "Each participant's whole fair metric: the cost of wrong decisions per class, how much each class's gap between the groups matters, and the trade-off lambda between being right overall (0) and treating the groups alike (1)."
      : "Each participant's trade-off lambda between being right overall (0) and treating the groups alike (1); the costs of wrong decisions and the weights of the gaps between groups are fixed by the study.",
  metricText: (p) => {
    const m = fairMetric(p);
    if (m === null) return "—";
    const whole = wholeOf(m);
    return whole === null ? lambdaText(m) : `${lambdaText(m)}; ${fairWholeText(whole)}`;
  },
  debrief: (p, ctx) => {
    const m = fairMetric(p);
    if (m === null) return null;
    // The lambda family states the study's known a and B; the whole metric the elicited ones.
    const whole = wholeOf(m);
    const { a, B } = whole ?? ctx.exp.study.config.spec.known ?? { a: [], B: {} };
    const text = fairDebriefSentence(m, accuracyForGap(m.lambda, a, B), ctx.groups);
    return whole === null
      ? text
      : `${text} ${fullFairSentence(whole, p.summary.adaptive?.unidentified ?? [], ctx.classes)}`;
  },
  panels: (ctx, finished) => {
    const l = ctx.exp.consensus?.lambda;
    return [
      {
        title: "Trade-off lambda",
        axis: {
          min: 0,
          max: 1,
          label: "trade-off lambda: 0 only accuracy, 1 only equal treatment of the groups",
          format: (x) => x.toFixed(2),
        },
        consensus: l ? { mean: l.mean, sd: l.sd } : null,
        points: finished.flatMap((p) => {
          const m = fairMetric(p);
          return m === null ? [] : [{ participant: p, value: m.lambda, low: m.low, high: m.high }];
        }),
      },
    ];
  },
  consensusLines: (c, ctx) => {
    const l = c.lambda;
    if (l === undefined) return [];
    const f = (x: number) => x.toFixed(2);
    const m = c.fairMetric;
    return [
      lambdaLine(l),
      // Differs from the dashboard's "Mean whole metric" line: "costs …; gap weights …" (fairWholeText) with the classes named.
      ...(m === undefined
        ? []
        : [
            `Mean whole metric: ${fairWholeText(m)} (per class: ${ctx.classes.map((k) => `“${k}”`).join(" / ")}), lambda ${f(m.lambda)}.`,
          ]),
    ];
  },
  best: (c, ctx) => {
    const b = c.best;
    if (b === undefined) return null;
    const bars: Bar[] = [
      ...ctx.classes.map((k, i) => ({ label: k, value: b.rates[i] ?? 0, group: "Everyone" })),
      ...(b.groupRates ?? []).flatMap((row, g) =>
        ctx.classes.map((k, i) => ({ label: k, value: row[i] ?? 0, group: ctx.groups[g]! })),
      ),
    ];
    return {
      lines: [
        fairBestLine(b, ctx.classes, c.n, c.fairMetric !== undefined),
        ...(b.groupRates ?? []).map(
          (row, g) =>
            `“${ctx.groups[g]}”: ${ctx.classes.map((k, i) => `“${k}” ${percent(row[i])}`).join(", ")} right.`,
        ),
      ],
      bars,
    };
  },
};
