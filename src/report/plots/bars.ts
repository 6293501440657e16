// Shares right as horizontal bars from 0 to 100%, each with its label above it and its value
// at its end; bars of one group (a fairness study's group) under the group's heading.

import { html, type SafeHtml } from "../html.ts";
import { BAND, INK, MARK, px, svgPlot } from "./svg.ts";
import { CHAR_PX, clip } from "./wrap.ts";

/** A bar: a share from 0 to 1 with its label, in `group` when given. */
export interface BarDatum {
  readonly label: string;
  readonly value: number;
  readonly group?: string;
}

const BAR = 18;
const LABEL = 20;
const GAP = 10;

/**
 * The bars drawn `width` px wide; `id` unique in the page, `title` and `desc` the plot's name
 * and its numbers in words.
 * @example barsSvg([{ label: "benign", value: 0.95 }], 680, "best-w", "Shares right", "...")
 */
export function barsSvg(
  bars: readonly BarDatum[],
  width: number,
  id: string,
  title: string,
  desc: string,
): SafeHtml {
  const x0 = 8;
  const x1 = width - 60;
  const maxChars = Math.floor((width - 16) / CHAR_PX);
  const parts: SafeHtml[] = [];
  let y = 4;
  let group: string | undefined;
  for (const b of bars) {
    if (b.group !== undefined && b.group !== group) {
      group = b.group;
      y += parts.length > 0 ? 8 : 0;
      parts.push(
        html`<text x="${x0}" y="${px(y + 15)}" font-weight="700" fill="${INK}">${clip(b.group, maxChars)}</text>`,
      );
      y += LABEL + 2;
    }
    const w = Math.max(0, Math.min(1, b.value)) * (x1 - x0);
    parts.push(
      html`<g><title>${`${b.group === undefined ? "" : `${b.group}, `}${b.label}: ${Math.round(b.value * 100)}% right`}</title><text x="${x0}" y="${px(y + 15)}" fill="${INK}">${clip(b.label, maxChars)}</text><rect x="${x0}" y="${px(y + LABEL)}" width="${px(x1 - x0)}" height="${BAR}" fill="${BAND}"/><rect x="${x0}" y="${px(y + LABEL)}" width="${px(w)}" height="${BAR}" fill="${MARK}"/><text x="${px(x1 + 6)}" y="${px(y + LABEL + 14)}" fill="${INK}">${`${Math.round(b.value * 100)}%`}</text></g>`,
    );
    y += LABEL + BAR + GAP;
  }
  return svgPlot({ id, width, height: y, title, desc, body: parts });
}
