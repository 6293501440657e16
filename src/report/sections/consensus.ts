// The consensus section: who it is over (and who is left out), then the kind's figures with
// their spread; says plainly when nobody finished.

import { html, type SafeHtml } from "../html.ts";
import type { ReportContext, ReportKind } from "../kinds/kind.ts";

/** The dashboard's sentence when there is no consensus yet. */
export const NOBODY = "Nobody has finished yet (test runs and pilot participants are left out).";

/**
 * Who the consensus is over, as the dashboard says it: how many, and those whose answers a
 * coin could have given, left out or included.
 * @example whoLine({ n: 2, participants: [1, 2], coinLike: [4] }) // "Over 2 participants who finished (test runs and pilot left out). 1 whose answers a coin could have given (#4) left out."
 */
export function whoLine(c: {
  n: number;
  coinLike?: number[] | undefined;
  coinLikeIncluded?: boolean | undefined;
}): string {
  const coin = c.coinLike ?? [];
  const coinNote =
    coin.length === 0
      ? ""
      : ` ${coin.length} whose answers a coin could have given (${coin.map((id) => `#${id}`).join(", ")}) ${c.coinLikeIncluded ? "included" : "left out"}.`;
  return `Over ${c.n} participant${c.n === 1 ? "" : "s"} who finished (test runs and pilot left out).${coinNote}`;
}

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
