// The recommended classifier: the one best for the consensus (consensus.best), in words and
// as bars of its shares right per class (and per group).

import { html, type SafeHtml } from "../html.ts";
import type { ReportContext, ReportKind } from "../kinds/kind.ts";
import { barsSvg } from "../plots/bars.ts";
import { responsivePlot } from "../plots/responsive.ts";

/** The recommended classifier's section (none without a consensus). */
export function recommendedSection(ctx: ReportContext, kind: ReportKind): SafeHtml {
  const c = ctx.exp.consensus;
  const best = c === null || c.n === 0 ? null : kind.best(c, ctx);
  const body =
    c === null || c.n === 0
      ? html`<p>None: there is no consensus yet.</p>`
      : best === null
        ? html`<p>This kind of study's consensus recommends no classifier: its figures above are the result.</p>`
        : html`<ul class="lines">${best.lines.map((l) => html`<li>${l}</li>`)}</ul>${responsivePlot(
            (w, s) =>
              barsSvg(
                best.bars,
                w,
                `best-${s}`,
                "Share right of the recommended classifier, per class",
                best.lines.join(" "),
              ),
          )}`;
  return html`<section aria-labelledby="best-heading"><h2 id="best-heading">Recommended classifier</h2>${body}</section>`;
}
