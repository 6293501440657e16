// What each participant's debrief told them of their result, in the debrief's own words (the
// server's sentences, from the figures in the export).

import { html, type SafeHtml } from "../html.ts";
import type { ReportContext, ReportKind } from "../kinds/kind.ts";
import { STANDING_TEXT, standingOf } from "../standing.ts";

/** The debriefs section (none before anyone has a result). */
export function debriefsSection(ctx: ReportContext, kind: ReportKind): SafeHtml {
  const told = ctx.exp.participants.flatMap((p) => {
    const text = kind.debrief(p, ctx);
    return text === null ? [] : [{ p, text }];
  });
  if (told.length === 0) return html``;
  return html`<section aria-labelledby="debriefs-heading"><h2 id="debriefs-heading">What each debrief said</h2><p class="muted">Each participant's result as their debrief page put it to them.</p>${told.map(
    ({ p, text }) => {
      const standing = standingOf(p, ctx.exp.consensus);
      return html`<h3>${`Participant #${p.id}`}${standing === "counted" ? "" : ` (${STANDING_TEXT[standing]})`}</h3><blockquote>${text}</blockquote>`;
    },
  )}</section>`;
}
