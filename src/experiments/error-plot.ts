/**
 * Box plots of elicitation errors as SVG (UAI 2022 Figure 4), by plain string building: one
 * panel per error, on the x axis one group per setting (k for QPME, m for fair QPME), in each
 * group one box per series (one series for QPME, one per k for fair QPME). Used by
 * `quadraticErrorSvg` and `fairErrorSvg`.
 */
import { mean, quantile } from "../math/stats.ts";

/** Mean and quantiles of a sample of errors. */
export interface ErrorSummary {
  readonly mean: number;
  readonly q25: number;
  readonly median: number;
  readonly q75: number;
  readonly q90: number;
  readonly max: number;
}

/**
 * Summary of a sample (quantiles by linear interpolation; NaN for an empty sample).
 * @example errorSummary([1, 2, 3, 4]) // { mean: 2.5, q25: 1.75, median: 2.5, q75: 3.25, ... }
 */
export function errorSummary(xs: readonly number[]): ErrorSummary {
  return {
    mean: mean(xs),
    q25: quantile(xs, 0.25),
    median: quantile(xs, 0.5),
    q75: quantile(xs, 0.75),
    q90: quantile(xs, 0.9),
    max: xs.length === 0 ? Number.NaN : Math.max(...xs),
  };
}

/** What a box shows: quartiles (box), median (dot) and mean (diamond, joined per series). */
export type BoxStats = Pick<ErrorSummary, "mean" | "q25" | "median" | "q75">;

export interface PlotBox {
  /** Index into `ErrorPlot.series` (0 when there is one series). */
  readonly series: number;
  readonly stats: BoxStats;
  /** A reference value drawn as a red cross beside the box. */
  readonly reference?: number | undefined;
}

export interface PlotGroup {
  /** x-axis label, e.g. "k = 2". */
  readonly label: string;
  readonly boxes: readonly PlotBox[];
}

export interface ErrorPanel {
  readonly title: string;
  readonly groups: readonly PlotGroup[];
}

export interface ErrorPlot {
  readonly panels: readonly ErrorPanel[];
  /** Series names for the legend (no legend without them). */
  readonly series?: readonly string[];
  /** Lines of text under the panels. */
  readonly caption?: readonly string[];
  /** Size of one panel (default 360 x 260). */
  readonly panelWidth?: number;
  readonly panelHeight?: number;
}

/** Escape text for SVG character data and attribute values. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** Colours of one series: box fill, box outline and median dot, mean line and diamond. */
interface SeriesStyle {
  readonly fill: string;
  readonly fillOpacity: number;
  readonly stroke: string;
  readonly dot: string;
  readonly line: string;
}

const SINGLE: SeriesStyle = {
  fill: "#9ecae1",
  fillOpacity: 1,
  stroke: "#3182bd",
  dot: "#08519c",
  line: "#e6550d",
};
/** Category colours without red (red marks the reference values). */
const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf"];

function seriesStyle(index: number, count: number): SeriesStyle {
  if (count <= 1) return SINGLE;
  const c = PALETTE[index % PALETTE.length]!;
  return { fill: c, fillOpacity: 0.35, stroke: c, dot: c, line: c };
}

/**
 * A y axis from 0 covering `max`: a step of 1, 2, 2.5 or 5 times a power of ten, at most four
 * steps up to the top.
 */
export function niceAxis(max: number): { readonly top: number; readonly step: number } {
  const raw = Math.max(max, 1e-9) / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * p).find((s) => s >= raw * (1 - 1e-9)) ?? 10 * p;
  return { top: step * Math.max(1, Math.ceil(max / step - 1e-9)), step };
}

/** Tick label without float noise (0.30000000000000004 -> "0.3"). */
function tick(v: number): string {
  return String(Number(v.toPrecision(6)));
}

/** Round to 0.01 px so the markup stays short and free of float noise. */
const px = (v: number): number => Math.round(v * 100) / 100;

/**
 * The whole figure as a standalone SVG document (white background, sans-serif text; every
 * label escaped). Non-finite statistics are skipped rather than drawn.
 * @example
 * errorPlotSvg({
 *   panels: [{ title: "||a - â||", groups: [{ label: "k = 2", boxes: [{ series: 0, stats }] }] }],
 *   caption: ["bars: quartiles"],
 * }) // "<svg xmlns=..."
 */
export function errorPlotSvg(plot: ErrorPlot): string {
  const W = plot.panelWidth ?? 360;
  const H = plot.panelHeight ?? 260;
  const series = plot.series ?? [];
  const nSeries = Math.max(
    1,
    series.length,
    ...plot.panels.flatMap((p) => p.groups.flatMap((g) => g.boxes.map((b) => b.series + 1))),
  );
  const legend = series.length > 0;
  const m = { l: 56, r: 12, t: legend ? 48 : 28, b: 40 };
  const caption = plot.caption ?? [];
  const width = Math.max(1, plot.panels.length) * W;
  const height = H + (legend ? 20 : 0) + 14 * Math.max(0, caption.length - 1);
  const bottom = H + (legend ? 20 : 0) - m.b;
  const parts: string[] = [];
  plot.panels.forEach((panel, pi) => {
    const ox = pi * W;
    const finite = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v);
    const values = panel.groups.flatMap((g) =>
      g.boxes.flatMap((b) => [b.stats.q75, b.stats.mean, b.reference]),
    );
    const axis = niceAxis(1.05 * Math.max(...values.filter(finite), 1e-6));
    const ymax = axis.top;
    const Y = (v: number) => px(m.t + (1 - v / ymax) * (bottom - m.t));
    const groupWidth = (W - m.l - m.r) / Math.max(1, panel.groups.length);
    const slot = (0.8 * groupWidth) / nSeries;
    const bw = Math.min(16, 0.6 * slot);
    const X = (gi: number, s: number) =>
      px(ox + m.l + (gi + 0.5) * groupWidth + (s - (nSeries - 1) / 2) * slot);
    parts.push(
      `<text x="${ox + W / 2}" y="18" text-anchor="middle" font-size="13">${escapeXml(panel.title)}</text>`,
      `<line x1="${ox + m.l}" y1="${bottom}" x2="${ox + W - m.r}" y2="${bottom}" stroke="black"/>`,
      `<line x1="${ox + m.l}" y1="${m.t}" x2="${ox + m.l}" y2="${bottom}" stroke="black"/>`,
    );
    for (let t = 0; t * axis.step <= ymax * (1 + 1e-9); t++) {
      const v = t * axis.step;
      parts.push(
        `<line x1="${ox + m.l - 3}" y1="${Y(v)}" x2="${ox + m.l}" y2="${Y(v)}" stroke="black"/>`,
        `<text x="${ox + m.l - 5}" y="${px(Y(v) + 4)}" text-anchor="end" font-size="10">${tick(v)}</text>`,
      );
    }
    const means: string[][] = Array.from({ length: nSeries }, () => []);
    panel.groups.forEach((group, gi) => {
      parts.push(
        `<text x="${X(gi, (nSeries - 1) / 2)}" y="${bottom + 16}" text-anchor="middle" font-size="11">${escapeXml(group.label)}</text>`,
      );
      for (const box of group.boxes) {
        const x = X(gi, box.series);
        const st = seriesStyle(box.series, nSeries);
        const e = box.stats;
        if (finite(e.q25) && finite(e.q75)) {
          parts.push(
            `<rect class="box" x="${px(x - bw / 2)}" y="${Y(e.q75)}" width="${px(bw)}" height="${px(Math.max(Y(e.q25) - Y(e.q75), 1))}" fill="${st.fill}" fill-opacity="${st.fillOpacity}" stroke="${st.stroke}"/>`,
          );
        }
        if (finite(e.median)) {
          parts.push(
            `<circle cx="${x}" cy="${Y(e.median)}" r="${px(Math.min(3, bw / 2))}" fill="${st.dot}"/>`,
          );
        }
        if (finite(e.mean)) {
          const y = Y(e.mean);
          means[box.series]!.push(`${x},${y}`);
          parts.push(
            `<path d="M${x} ${px(y - 3.5)} l3.5 3.5 l-3.5 3.5 l-3.5 -3.5 z" fill="white" stroke="${st.line}" stroke-width="1.5"/>`,
          );
        }
        if (finite(box.reference)) {
          const cx = px(x + bw / 2 + 6);
          const y = Y(box.reference);
          parts.push(
            `<path d="M${cx - 4} ${px(y - 4)} l8 8 M${cx + 4} ${px(y - 4)} l-8 8" stroke="#d62728" stroke-width="1.5"/>`,
          );
        }
      }
    });
    means.forEach((points, s) => {
      if (points.length < 2) return;
      const st = seriesStyle(s, nSeries);
      parts.push(
        `<polyline points="${points.join(" ")}" fill="none" stroke="${st.line}" stroke-width="2"/>`,
      );
    });
  });
  if (legend) {
    const step = 70;
    const x0 = width / 2 - (step * series.length) / 2;
    series.forEach((name, s) => {
      const st = seriesStyle(s, nSeries);
      const x = x0 + s * step;
      parts.push(
        `<rect x="${x}" y="28" width="12" height="12" fill="${st.fill}" fill-opacity="${st.fillOpacity}" stroke="${st.stroke}"/>`,
        `<text x="${x + 16}" y="38" font-size="11">${escapeXml(name)}</text>`,
      );
    });
  }
  caption.forEach((line, i) => {
    parts.push(
      `<text x="${width / 2}" y="${bottom + 34 + 14 * i}" text-anchor="middle" font-size="10">${escapeXml(line)}</text>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n${parts.join("\n")}\n</svg>\n`;
}
