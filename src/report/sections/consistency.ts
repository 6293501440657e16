// Consistency and agreement: per participant the share of their answers against their own
// result with its 90% range (a coin scores 50%; in a binary study, against the best metric of
// the range their Phase II answers allow, less), and agreement M, each as a plot.

import { html, type SafeHtml } from "../html.ts";
import type { ReportContext } from "../kinds/kind.ts";
import { type DotRow, dotWhiskerSvg } from "../plots/dot-whisker.ts";
import { responsivePlot } from "../plots/responsive.ts";
import { participantLabel, STANDING_TEXT, standingOf } from "../standing.ts";
import { counted, percent } from "../text.ts";
import { dotLegend } from "./legend.ts";

const AXIS = (label: string) => ({ min: 0, max: 1, label, format: percent });

/** The consistency and agreement section. */
export function consistencySection(ctx: ReportContext): SafeHtml {
  const finished = ctx.exp.participants.filter((p) => p.summary.metric !== null);
  const row = (
    p: (typeof finished)[number],
    value: number,
    low: number,
    high: number,
    what: string,
  ): DotRow => {
    const standing = standingOf(p, ctx.exp.consensus);
    return {
      label: participantLabel(p, standing),
      value,
      low,
      high,
      hollow: standing !== "counted",
      text: `participant ${p.id}${standing === "counted" ? "" : ` (${STANDING_TEXT[standing]})`}: ${what}`,
    };
  };
  const errors = finished.flatMap((p) => {
    const c = p.summary.consistency;
    if (!c || c.errorRate === null) return [];
    const lo = c.errorLow ?? c.errorRate;
    const hi = c.errorHigh ?? c.errorRate;
    return [
      row(
        p,
        c.errorRate,
        lo,
        hi,
        `${percent(c.errorRate)} against${c.versus === "range" ? " the best of their range" : ""} (range ${percent(lo)} to ${percent(hi)})${c.coinLike ? ", like a coin" : c.nearCoin ? ", hard to tell from a coin" : ""}${c.leansTo ? `, leans ${c.leansTo}` : ""}`,
      ),
    ];
  });
  const ms = finished.flatMap((p) => {
    const a = p.summary.agreementDetail;
    const m = p.summary.agreement;
    return m === null
      ? []
      : [row(p, m, m, m, `M ${percent(m)}${a ? ` of ${a.pairs - a.ties} pairs` : ""}`)];
  });
  const coin = finished.filter((p) => p.summary.consistency?.coinLike).map((p) => `#${p.id}`);
  const near = finished.filter((p) => p.summary.consistency?.nearCoin).map((p) => `#${p.id}`);
  const hollow = finished.some((p) => standingOf(p, ctx.exp.consensus) !== "counted");
  // A binary study counts answers against the best metric of each participant's range, which
  // a coin's answers can fit better than a point (below one half), so no coin line there.
  const versusRange = finished.some((p) => p.summary.consistency?.versus === "range");
  const errorPlot =
    errors.length === 0
      ? html`<p>No participant's consistency is known yet.</p>`
      : html`${dotLegend({ consensus: false, hollow, whiskers: "the 90% range of the share" })}${responsivePlot(
          (w, s) =>
            dotWhiskerSvg(
              {
                title: "Answers against their own result, per participant",
                rows: errors,
                axis: AXIS("share of answers against their own result"),
                consensus: null,
                references: versusRange ? [] : [{ value: 0.5, label: "a coin" }],
                summary: versusRange
                  ? "Share of each participant's answers against their own result: against the metric their earlier answers allow that fits them best. A coin's answers can fit such a metric better than a point, below half, so the flag, not this share, tells a coin."
                  : "Share of each participant's answers against their own result; a coin would be against half of them.",
              },
              w,
              `consistency-${s}`,
            ),
        )}`;
  const mPlot =
    ms.length === 0
      ? html`<p>No participant has answered Phase III yet.</p>`
      : responsivePlot((w, s) =>
          dotWhiskerSvg(
            {
              title: "Agreement M, per participant",
              rows: ms,
              axis: AXIS("agreement M: share of Phase III answers the elicited metric predicts"),
              consensus: null,
              references: [{ value: 0.5, label: "a coin" }],
              summary:
                "Agreement M of each participant (Phase III answers, “about the same” left out).",
            },
            w,
            `agreement-${s}`,
          ),
        );
  return html`<section aria-labelledby="consistency-heading"><h2 id="consistency-heading">Consistency and agreement</h2><p>How consistently each participant answered: the share of their answers against their own result, with its 90% range (from Phase III and its repeated pairs, in a binary study counted against the metric their earlier answers allow that fits these answers best; in a study without Phase III, the slip rate the engine learned). A participant whose answers a coin could have given is flagged and left out of the consensus${coin.length > 0 ? `: ${counted(coin.length, "participant")} flagged (${coin.join(", ")})` : "; nobody is flagged"}. One whose answers a coin would give about once in forty sessions is marked hard to tell from a coin and counted${near.length > 0 ? `: ${counted(near.length, "participant")} marked (${near.join(", ")})` : "; nobody is marked"}.</p>${errorPlot}<h3>Agreement M</h3><p>The share of a participant's Phase III answers (random pairs after the elicitation, “about the same” left out) on which their elicited metric prefers the same system.</p>${mPlot}</section>`;
}
