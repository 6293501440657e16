// The participants' figures as a dot-and-whisker plot: one row per participant, the dot at
// the figure stated and the whisker over the range their answers leave; behind them the
// consensus mean (a line) and its spread (a band, mean ± sd), and reference lines (a coin).

import { html, type SafeHtml } from "../html.ts";
import { BAND, bottomAxis, INK, LINE, MARK, px, svgPlot } from "./svg.ts";
import { clip } from "./wrap.ts";

/** One row: its label, the figure, its range, and whether it is drawn hollow (left out). */
export interface DotRow {
  readonly label: string;
  readonly value: number;
  readonly low: number;
  readonly high: number;
  readonly hollow: boolean;
  /** What the row says in words (its tooltip and the plot's description). */
  readonly text: string;
}

/** A dot-and-whisker plot's data. */
export interface DotWhisker {
  readonly title: string;
  readonly rows: readonly DotRow[];
  readonly axis: {
    readonly min: number;
    readonly max: number;
    readonly label: string;
    readonly format: (v: number) => string;
  };
  readonly consensus: { readonly mean: number; readonly sd: number | null } | null;
  /** Vertical lines at values with a label (e.g. what a coin would score). */
  readonly references?: readonly { readonly value: number; readonly label: string }[];
  /** The plot in words, before the rows (the description's start). */
  readonly summary: string;
}

const ROW = 30;
const TOP = 12;

/**
 * The plot drawn `width` px wide (its labels 14 px at that width); `id` must be unique in
 * the page.
 * @example dotWhiskerSvg(plot, 680, "figure-1-w")
 */
export function dotWhiskerSvg(p: DotWhisker, width: number, id: string): SafeHtml {
  const left = width < 500 ? 84 : 110;
  const right = 22;
  const x0 = left;
  const x1 = width - right;
  const clamp = (v: number) => Math.min(p.axis.max, Math.max(p.axis.min, v));
  const x = (v: number) => x0 + ((clamp(v) - p.axis.min) / (p.axis.max - p.axis.min)) * (x1 - x0);
  const refs = p.references ?? [];
  // Reference labels sit above the rows.
  const top = TOP + (refs.length > 0 ? 20 : 0);
  const bottom = top + p.rows.length * ROW;
  const axis = bottomAxis({ x0, x1, y: bottom + 6, ...p.axis });
  const height = bottom + 6 + axis.height + 4;
  const c = p.consensus;
  const consensus: SafeHtml[] =
    c === null
      ? []
      : [
          c.sd !== null && c.sd > 0
            ? html`<rect x="${px(x(c.mean - c.sd))}" y="${TOP}" width="${px(Math.max(1, x(c.mean + c.sd) - x(c.mean - c.sd)))}" height="${px(bottom - TOP)}" fill="${BAND}"/>`
            : html``,
          html`<line x1="${px(x(c.mean))}" x2="${px(x(c.mean))}" y1="${TOP}" y2="${px(bottom)}" stroke="${LINE}" stroke-width="2" stroke-dasharray="6 4"/>`,
        ];
  const references = refs.map(
    (r) =>
      html`<line x1="${px(x(r.value))}" x2="${px(x(r.value))}" y1="${px(top - 4)}" y2="${px(bottom)}" stroke="${INK}" stroke-width="1.5" stroke-dasharray="2 3"/><text x="${px(x(r.value))}" y="${px(top - 8)}" text-anchor="middle" fill="${INK}">${r.label}</text>`,
  );
  const rows = p.rows.map((r, i) => {
    const y = top + i * ROW + ROW / 2;
    const fill = r.hollow ? "#ffffff" : MARK;
    const whisker =
      r.high > r.low
        ? html`<line x1="${px(x(r.low))}" x2="${px(x(r.high))}" y1="${px(y)}" y2="${px(y)}" stroke="${MARK}" stroke-width="2.5"/><line x1="${px(x(r.low))}" x2="${px(x(r.low))}" y1="${px(y - 6)}" y2="${px(y + 6)}" stroke="${MARK}" stroke-width="2"/><line x1="${px(x(r.high))}" x2="${px(x(r.high))}" y1="${px(y - 6)}" y2="${px(y + 6)}" stroke="${MARK}" stroke-width="2"/>`
        : html``;
    return html`<g><title>${r.text}</title><text x="${left - 14}" y="${px(y + 5)}" text-anchor="end" fill="${INK}">${clip(r.label, Math.floor((left - 16) / 8))}</text>${whisker}<circle cx="${px(x(r.value))}" cy="${px(y)}" r="6.5" fill="${fill}" stroke="${MARK}" stroke-width="2.5"/></g>`;
  });
  const desc = `${p.summary} ${p.rows.map((r) => r.text).join("; ")}.`;
  return svgPlot({
    id,
    width,
    height,
    title: p.title,
    desc,
    body: [...consensus, ...references, ...rows, axis.svg],
  });
}
