// Pieces every plot of the report draws: the SVG element with its title and description,
// coordinates, and a number axis along the bottom.

import { html, type SafeHtml } from "../html.ts";
import { CHAR_PX, wrapWords } from "./wrap.ts";

/** Ink of text and axes (the web app's --ink; 4.5:1 and more on white). */
export const INK = "#1b1b1b";
/** The participants' marks and the bars (the web app's plot blue). */
export const MARK = "#0067a3";
/** The consensus's spread, behind the marks. */
export const BAND = "#d6e6f3";
/** The consensus mean and reference lines. */
export const LINE = "#8a3b00";
/** Text size of every plot, px (never less, UI.md). */
export const FONT = 14;

/** A coordinate as SVG writes it (one decimal). */
export const px = (x: number) => Math.round(x * 10) / 10;

/**
 * An SVG plot: `role="img"` named by its title and described by `desc` (what a screen reader
 * says instead of the drawing), `width` by `height` px, scaling down with its box.
 */
export function svgPlot(o: {
  id: string;
  width: number;
  height: number;
  title: string;
  desc: string;
  body: SafeHtml | SafeHtml[];
}): SafeHtml {
  return html`<svg class="plot-svg" role="img" aria-labelledby="${o.id}-title" aria-describedby="${o.id}-desc" width="${o.width}" height="${px(o.height)}" viewBox="0 0 ${o.width} ${px(o.height)}" font-size="${FONT}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Liberation Sans', Arial, sans-serif"><title id="${o.id}-title">${o.title}</title><desc id="${o.id}-desc">${o.desc}</desc>${o.body}</svg>`;
}

/**
 * A horizontal number axis at `y` from `x0` to `x1` for values `min`..`max`: the line, five
 * ticks with their labels, and `label` wrapped below; its height below `y`.
 */
export function bottomAxis(o: {
  x0: number;
  x1: number;
  y: number;
  min: number;
  max: number;
  label: string;
  format: (v: number) => string;
}): { svg: SafeHtml; height: number } {
  const x = (v: number) => o.x0 + ((v - o.min) / (o.max - o.min)) * (o.x1 - o.x0);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => o.min + t * (o.max - o.min));
  const lines = o.label === "" ? [] : wrapWords(o.label, Math.floor((o.x1 - o.x0) / CHAR_PX));
  const svg = html`<g class="axis"><line x1="${px(o.x0)}" x2="${px(o.x1)}" y1="${px(o.y)}" y2="${px(o.y)}" stroke="${INK}"/>${ticks.map(
    (t) =>
      html`<line x1="${px(x(t))}" x2="${px(x(t))}" y1="${px(o.y)}" y2="${px(o.y + 6)}" stroke="${INK}"/><text x="${px(x(t))}" y="${px(o.y + 22)}" text-anchor="middle" fill="${INK}">${o.format(t)}</text>`,
  )}${lines.map(
    (line, i) =>
      html`<text x="${px((o.x0 + o.x1) / 2)}" y="${px(o.y + 44 + i * 18)}" text-anchor="middle" fill="${INK}">${line}</text>`,
  )}</g>`;
  return { svg, height: 30 + lines.length * 18 + (lines.length > 0 ? 8 : 0) };
}
