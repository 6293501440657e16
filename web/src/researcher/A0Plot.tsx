// A dot plot of the elicited weight on true positives (tp of tp TP + tn TN, tp + tn = 1)
// across participants, on [0, 1]. `a0` of a point is that weight (for the threshold family,
// 1 - the engine's a0, which weighs true negatives).

import { formatMetric } from "./metric.ts";

export interface A0Point {
  id: string;
  a0: number;
  test: boolean;
}

/** What the plot's [0, 1] axis is: its label, the description's name, a point's tooltip. */
export interface PlotAxis {
  readonly label: string;
  readonly describes: string;
  readonly tooltip: (v: number) => string;
}

const TP_AXIS: PlotAxis = {
  label: "weight on true positives (TP); the rest is on TN",
  describes: "Elicited weight on true positives",
  tooltip: (v) => formatMetric({ tp: v, tn: 1 - v }),
};

/** A fairness study's axis: each participant's trade-off lambda. */
export const LAMBDA_AXIS: PlotAxis = {
  label: "trade-off lambda: 0 only accuracy, 1 only equal treatment of the groups",
  describes: "Elicited trade-off lambda",
  tooltip: (v) => `lambda ${v.toFixed(2)}`,
};

/** A fairness participant's lambda (null for any other metric or none yet). */
export function lambdaOf(metric: unknown): number | null {
  const l = (metric as { lambda?: unknown } | null)?.lambda;
  return typeof l === "number" ? l : null;
}

export function A0Plot({
  points,
  width = 640,
  axis = TP_AXIS,
}: {
  points: A0Point[];
  width?: number;
  axis?: PlotAxis;
}) {
  const left = 24;
  const right = 24;
  const inner = width - left - right;
  const rowH = 20;
  // Stack points that fall in the same 1/40 bin so they do not hide each other.
  const bins = new Map<number, number>();
  const placed = points.map((p) => {
    const bin = Math.round(Math.min(1, Math.max(0, p.a0)) * 40);
    const level = bins.get(bin) ?? 0;
    bins.set(bin, level + 1);
    return { ...p, level };
  });
  const levels = Math.max(1, ...placed.map((p) => p.level + 1));
  const axisY = 16 + levels * rowH;
  // The label wraps to the plot's width (about 7.7 px per character at 14 px; a phone's plot
  // is about 340 px wide, and the lambda axis's label is 72 characters).
  const label = wrapWords(axis.label, Math.max(12, Math.floor(inner / 7.7)));
  const height = axisY + 48 + (label.length - 1) * 18;
  const x = (v: number) => left + Math.min(1, Math.max(0, v)) * inner;
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const desc =
    points.length === 0
      ? "No elicited metrics yet."
      : `${axis.describes} for ${points.length} participants: ${points.map((p) => p.a0.toFixed(2)).join(", ")}.`;
  return (
    <svg
      class="a0-plot"
      role="img"
      aria-labelledby="a0-title"
      aria-describedby="a0-desc"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      style={{ maxWidth: "100%", height: "auto" }}
    >
      <title id="a0-title">Elicited metrics across participants</title>
      <desc id="a0-desc">{desc}</desc>
      <line x1={left} x2={left + inner} y1={axisY} y2={axisY} stroke="#4a4a4a" />
      {ticks.map((t) => (
        <g key={t}>
          <line x1={x(t)} x2={x(t)} y1={axisY} y2={axisY + 6} stroke="#4a4a4a" />
          <text x={x(t)} y={axisY + 22} text-anchor="middle" font-size={14} fill="#1b1b1b">
            {String(t)}
          </text>
        </g>
      ))}
      <text x={left + inner / 2} y={axisY + 42} text-anchor="middle" font-size={14} fill="#1b1b1b">
        {label.map((line, i) => (
          <tspan key={line} x={left + inner / 2} dy={i === 0 ? 0 : 18}>
            {line}
          </tspan>
        ))}
      </text>
      {placed.map((p) => (
        <circle
          key={p.id}
          cx={x(p.a0)}
          cy={axisY - 10 - p.level * rowH}
          r={7}
          fill={p.test ? "#ffffff" : "#0067A3"}
          stroke="#0067A3"
          stroke-width={2}
        >
          <title>{`Participant ${p.id}: ${axis.tooltip(p.a0)}${p.test ? " (test run)" : ""}`}</title>
        </circle>
      ))}
    </svg>
  );
}

/**
 * Words in lines of at most `max` characters (a word longer than that keeps its own line).
 * @example wrapWords("a bb ccc", 4) // ["a bb", "ccc"]
 */
export function wrapWords(text: string, max: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= max)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}
