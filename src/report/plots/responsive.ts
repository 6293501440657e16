// A plot drawn twice, for a wide and a narrow screen, so that its text is 14 px on both (an
// SVG scaled to fit a phone shrinks its text): the page's style sheet shows one of the two by
// the window's width, no script needed.

import { html, type SafeHtml } from "../html.ts";

/** Widths the plots are drawn at, px: a desktop's column and a phone's (390 px less margins). */
export const PLOT_WIDTHS = { wide: 680, narrow: 350 } as const;

/**
 * Both drawings of a plot in their boxes (`draw` gets the width and an id suffix to keep the
 * two drawings' ids apart).
 * @example responsivePlot((w, s) => dotWhiskerSvg(plot, w, `figure-1-${s}`))
 */
export function responsivePlot(draw: (width: number, suffix: string) => SafeHtml): SafeHtml {
  return html`<div class="plot plot-wide">${draw(PLOT_WIDTHS.wide, "w")}</div><div class="plot plot-narrow">${draw(PLOT_WIDTHS.narrow, "n")}</div>`;
}
