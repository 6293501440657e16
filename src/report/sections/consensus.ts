// The consensus section: who it is over (and who is left out), then the kind's figures with
// their spread; says plainly when nobody finished.

import { NOBODY, whoLine } from "../../server/study/consensus-text.ts";
import { html, type SafeHtml } from "../html.ts";
import type { ReportContext, ReportKind } from "../kinds/kind.ts";

// The dashboard's sentences (one implementation, shared with web/src/researcher/Consensus.tsx).
export { NOBODY, whoLine } from "../../server/study/consensus-text.ts";

/** The consensus section. */
export function consensusSection(ctx: ReportContext, kind: ReportKind): SafeHtml {
  const c = ctx.exp.consensus;
  const body =
    c === null
      ? html`<p class="nobody" data-testid="nobody">${NOBODY} There is no consensus and no recommended classifier.</p>`
      : c.n === 0
        ? html`<p class="nobody" data-testid="nobody">${whoLine(c)} Everyone who finished answered as a coin could have, so there is no consensus.</p>`
        : html`<ul class="lines">${[whoLine(c), ...kind.consensusLines(c, ctx)].map((l) => html`<li>${l}</li>`)}</ul><p class="muted">sd is the population standard deviation (dividing by n). The plots below mark each mean with a dashed line and mean ± sd with a band.</p>`;
  return html`<section aria-labelledby="consensus-heading"><h2 id="consensus-heading">Consensus</h2>${body}</section>`;
}
