// The key under the dot-and-whisker plots' heading: what the marks mean (in text, so the
// meaning never rests on colour or shape alone).

import { html, type SafeHtml } from "../html.ts";

/** The legend of a dot-and-whisker plot; `consensus` when the plot marks the consensus. */
export function dotLegend(o: { consensus: boolean; hollow: boolean; whiskers: string }): SafeHtml {
  return html`<p class="legend"><span class="key filled" aria-hidden="true"></span>a participant counted in the consensus${o.hollow ? html`; <span class="key hollow" aria-hidden="true"></span>left out (test run, pilot, or answers like a coin; the label says which)` : ""}; whiskers: ${o.whiskers}${o.consensus ? html`; <span class="key mean" aria-hidden="true"></span>consensus mean; <span class="key band" aria-hidden="true"></span>mean ± sd` : ""}.</p>`;
}
