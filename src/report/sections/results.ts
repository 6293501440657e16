// Each participant's result: a dot-and-whisker plot per figure (the participant's figure with
// the range their answers leave, the consensus mean and spread behind), then the table of
// every participant who started, with agreement M and consistency.

import { html, type SafeHtml } from "../html.ts";
import type { FigurePanel, ReportContext, ReportKind } from "../kinds/kind.ts";
import { type DotWhisker, dotWhiskerSvg } from "../plots/dot-whisker.ts";
import { responsivePlot } from "../plots/responsive.ts";
import type { ExportParticipant } from "../schema.ts";
import { participantLabel, STANDING_TEXT, standingOf } from "../standing.ts";
import { consistencyText, formatSeconds, percent, undecidedText } from "../text.ts";
import { dotLegend } from "./legend.ts";

/** A figure panel as a dot-and-whisker plot. */
function panelPlot(ctx: ReportContext, panel: FigurePanel): DotWhisker {
  const f = panel.axis.format;
  const c = panel.consensus;
  return {
    title: `${panel.title}: each participant's result with its range`,
    axis: panel.axis,
    consensus: c,
    rows: panel.points.map((pt) => {
      const standing = standingOf(pt.participant, ctx.exp.consensus);
      const range = pt.high > pt.low ? ` (range ${f(pt.low)} to ${f(pt.high)})` : "";
      return {
        label: participantLabel(pt.participant, standing),
        value: pt.value,
        low: pt.low,
        high: pt.high,
        hollow: standing !== "counted",
        text: `participant ${pt.participant.id}${standing === "counted" ? "" : ` (${STANDING_TEXT[standing]})`}: ${f(pt.value)}${range}`,
      };
    }),
    summary:
      c === null
        ? `${panel.axis.label}.`
        : `${panel.axis.label}; consensus mean ${f(c.mean)}${c.sd === null ? "" : `, sd ${f(c.sd)}`}.`,
  };
}

/** The participants' table: every participant who started (or has a result). */
function participantsTable(ctx: ReportContext, kind: ReportKind): SafeHtml {
  const rows = ctx.exp.participants.filter(
    (p) => p.summary.startedAt !== null || p.summary.metric !== null,
  );
  if (rows.length === 0) return html`<p>Nobody has started yet.</p>`;
  const range = kind.range;
  const cell = (p: ExportParticipant) => {
    const s = p.summary;
    const a = s.agreementDetail;
    return html`<tr><th scope="row">${`#${p.id}`}</th><td class="wide">${STANDING_TEXT[standingOf(p, ctx.exp.consensus)]}</td><td>${p.status}</td><td class="metric">${kind.metricText(p, ctx)}</td>${range ? html`<td class="num">${range.text(p, ctx)}</td>` : ""}<td class="num">${percent(s.agreement)}</td><td class="num">${a ? undecidedText(a) : "—"}</td><td class="num">${a ? `${a.ties} of ${a.pairs}` : "—"}</td><td class="wide">${consistencyText(s.consistency)}</td><td class="num">${s.questions ?? s.answered}</td><td class="num">${formatSeconds(s.seconds)}</td></tr>`;
  };
  return html`<div class="table-wrap" role="region" aria-labelledby="table-caption" tabindex="0"><table class="data" data-testid="participants"><caption id="table-caption" class="muted">Every participant who started: their result, agreement M and consistency (as on the dashboard)</caption><thead><tr><th scope="col">Participant</th><th scope="col">In the consensus</th><th scope="col">Status</th><th scope="col">Elicited metric</th>${range ? html`<th scope="col">${range.heading}</th>` : ""}<th scope="col">M, all pairs</th><th scope="col">M, pairs not decided in advance</th><th scope="col">“About the same”</th><th scope="col">Against own result (90% range); repeats the same</th><th scope="col">Phase II questions</th><th scope="col">Time</th></tr></thead><tbody>${rows.map(cell)}</tbody></table></div>`;
}

/** The section of each participant's result. */
export function resultsSection(ctx: ReportContext, kind: ReportKind): SafeHtml {
  const finished = ctx.exp.participants.filter((p) => p.summary.metric !== null);
  const panels = finished.length === 0 ? [] : kind.panels(ctx, finished);
  const hollow = finished.some((p) => standingOf(p, ctx.exp.consensus) !== "counted");
  const plots =
    finished.length === 0
      ? html`<p>Nobody has a result yet, so there is nothing to plot.</p>`
      : html`${dotLegend({ consensus: panels.some((p) => p.consensus !== null), hollow, whiskers: "the range the participant's answers leave (their debrief's range)" })}${panels.map(
          (panel, i) =>
            html`${panels.length > 1 ? html`<h3>${panel.title}</h3>` : ""}${responsivePlot((w, s) =>
              dotWhiskerSvg(panelPlot(ctx, panel), w, `figure-${i}-${s}`),
            )}`,
        )}`;
  return html`<section aria-labelledby="results-heading"><h2 id="results-heading">Each participant's result</h2><p>${kind.elicits(ctx)}</p>${plots}<h3>All participants</h3>${participantsTable(ctx, kind)}</section>`;
}
