// The flow chart of one binary system (UI.md "The comparison view"), as an accessible SVG
// plus a real table of the same numbers. Pure: props in, markup out (renders to a string).

import {
  DEFAULT_PAGE_LABELS,
  type PageLabels,
} from "../../../src/server/study/page-label-defaults.ts";
import type { StudyWords, SystemView } from "../api/types.ts";
import { fillIn, formatCount, formatPercent, peopleOutOf } from "./format.ts";
import { type Arrow, type Box, FONT_SIZE, flowLayout, LINE_HEIGHT } from "./layout.ts";

/** Okabe–Ito colours (colour-blind safe): vermillion for the positive class, blue for the negative. */
export const COLOURS = {
  positive: "#C24E00",
  negative: "#0067A3",
  positiveTint: "#FCE5D6",
  negativeTint: "#DDEBF6",
  neutralTint: "#F2F2F2",
  ink: "#1B1B1B",
  border: "#4A4A4A",
} as const;

export interface FlowChartProps {
  system: SystemView;
  words: StudyWords;
  /** "System A" */
  name: string;
  /** Unique prefix for element ids (title/desc references). */
  id: string;
  /** Layout width in CSS pixels (the browser passes the measured container width). */
  width?: number;
  /** Show the table of numbers visibly (it is always available to screen readers). */
  showTable?: boolean;
  /** The study's words for the table (page labels; the built-in wording when absent). */
  labels?: TableLabels;
}

/** The page labels the tables of counts use. */
export type TableLabels = Pick<
  PageLabels,
  | "tableCaption"
  | "tableTrueClass"
  | "tableTotal"
  | "tableActually"
  | "tableCell"
  | "compactClass"
  | "chartBadge"
  | "chartDescription"
>;

/** One-paragraph text equivalent of the chart (used as the SVG's <desc>; `chartDescription`). */
export function describeSystem(
  name: string,
  s: SystemView,
  w: StudyWords,
  labels: Pick<PageLabels, "chartDescription"> = DEFAULT_PAGE_LABELS,
): string {
  const lower = (x: string) => x.toLowerCase();
  return fillIn(labels.chartDescription, {
    name,
    people: peopleOutOf(s, w.people),
    positives: formatCount(s.tp + s.fn),
    negatives: formatCount(s.fp + s.tn),
    tp: formatCount(s.tp),
    fn: formatCount(s.fn),
    fp: formatCount(s.fp),
    tn: formatCount(s.tn),
    tpr: formatPercent(s.tpr),
    fnr: formatPercent(1 - s.tpr),
    fpr: formatPercent(1 - s.tnr),
    tnr: formatPercent(s.tnr),
    positive: w.positive,
    negative: w.negative,
    flagged: lower(w.predictedPositive),
    cleared: lower(w.predictedNegative),
    missed: w.missed,
    falseAlarm: w.falseAlarm,
  });
}

function tint(tone: Box["tone"]): string {
  if (tone === "positive") return COLOURS.positiveTint;
  if (tone === "negative") return COLOURS.negativeTint;
  return COLOURS.neutralTint;
}

function BoxMark({ box }: { box: Box }) {
  const textTop = box.y + box.height / 2 - ((box.lines.length - 1) * LINE_HEIGHT) / 2;
  const stroke =
    box.tone === "positive"
      ? COLOURS.positive
      : box.tone === "negative"
        ? COLOURS.negative
        : COLOURS.border;
  return (
    <g class={`box box-${box.key}`}>
      <rect
        x={box.x + 0.75}
        y={box.y}
        width={box.width - 1.5}
        height={box.height}
        rx={6}
        fill={tint(box.tone)}
        stroke={stroke}
        stroke-width={1.5}
      />
      <text
        x={box.x + box.width / 2}
        y={textTop}
        text-anchor="middle"
        dominant-baseline="central"
        font-size={FONT_SIZE}
        fill={COLOURS.ink}
      >
        {box.lines.map((line, i) => (
          <tspan
            key={line}
            x={box.x + box.width / 2}
            dy={i === 0 ? 0 : LINE_HEIGHT}
            font-weight={i === box.lines.length - 1 ? 700 : 400}
          >
            {line}
          </tspan>
        ))}
      </text>
    </g>
  );
}

function ArrowMark({ arrow }: { arrow: Arrow }) {
  const hue = arrow.trueClass === "positive" ? COLOURS.positive : COLOURS.negative;
  const opacity = arrow.correct ? 0.85 : 0.5;
  return (
    <g
      class={`arrow arrow-${arrow.outcome} ${arrow.correct ? "arrow-correct" : "arrow-error"}`}
      data-outcome={arrow.outcome}
      data-count={arrow.count}
    >
      {arrow.width > 0 ? (
        <path
          d={arrow.path}
          fill="none"
          stroke={hue}
          stroke-opacity={opacity}
          stroke-width={arrow.width}
        />
      ) : (
        <path d={arrow.path} fill="none" stroke={hue} stroke-width={1} stroke-dasharray="3 4" />
      )}
      {arrow.head !== "" && <polygon points={arrow.head} fill={hue} fill-opacity={opacity} />}
    </g>
  );
}

function LabelMark({ arrow }: { arrow: Arrow }) {
  const l = arrow.label;
  const hue = arrow.trueClass === "positive" ? COLOURS.positive : COLOURS.negative;
  const y0 = l.y - ((l.lines.length - 1) * LINE_HEIGHT) / 2;
  return (
    <g class={`label label-${arrow.outcome}`}>
      <rect
        x={l.x - l.width / 2}
        y={l.y - l.height / 2}
        width={l.width}
        height={l.height}
        rx={l.height / 2 > 14 ? 10 : l.height / 2}
        fill="#FFFFFF"
        stroke={hue}
        stroke-width={1.5}
        stroke-dasharray={arrow.correct ? undefined : "5 3"}
      />
      <text
        x={l.x}
        y={y0}
        text-anchor="middle"
        dominant-baseline="central"
        font-size={FONT_SIZE}
        fill={COLOURS.ink}
      >
        {l.lines.map((line, i) => (
          <tspan
            key={line}
            x={l.x}
            dy={i === 0 ? 0 : LINE_HEIGHT}
            font-weight={i === l.lines.length - 1 ? 700 : 400}
          >
            {line}
          </tspan>
        ))}
      </text>
    </g>
  );
}

/** The same numbers as the chart, as a real table. */
export function SystemTable({
  system: s,
  words: w,
  name,
  visible,
  labels: L = DEFAULT_PAGE_LABELS,
}: {
  system: SystemView;
  words: StudyWords;
  name: string;
  visible: boolean;
  labels?: TableLabels | undefined;
}) {
  const pos = s.tp + s.fn;
  const neg = s.fp + s.tn;
  const cell = (n: number, rate: number, of: number) =>
    fillIn(L.tableCell, {
      n: formatCount(n),
      percent: formatPercent(rate),
      of: formatCount(of),
    });
  return (
    // The class goes on a wrapper: a table does not clip its cells when made 1 px wide.
    <div class={visible ? "numbers-holder" : "numbers-holder visually-hidden"}>
      <table class="numbers">
        <caption>{fillIn(L.tableCaption, { name, people: peopleOutOf(s, w.people) })}</caption>
        <thead>
          <tr>
            <th scope="col">{L.tableTrueClass}</th>
            <th scope="col">{w.predictedPositive}</th>
            <th scope="col">{w.predictedNegative}</th>
            <th scope="col">{L.tableTotal}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{fillIn(L.tableActually, { class: w.positive })}</th>
            <td data-outcome="tp">{cell(s.tp, s.tpr, pos)}</td>
            <td data-outcome="fn">{`${cell(s.fn, 1 - s.tpr, pos)} — ${w.missed}`}</td>
            <td>{formatCount(pos)}</td>
          </tr>
          <tr>
            <th scope="row">{fillIn(L.tableActually, { class: w.negative })}</th>
            <td data-outcome="fp">{`${cell(s.fp, 1 - s.tnr, neg)} — ${w.falseAlarm}`}</td>
            <td data-outcome="tn">{cell(s.tn, s.tnr, neg)}</td>
            <td>{formatCount(neg)}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

export function FlowChart({
  system,
  words,
  name,
  id,
  width = 520,
  showTable = false,
  labels,
}: FlowChartProps) {
  const L = labels ?? DEFAULT_PAGE_LABELS;
  const layout = flowLayout(system, words, width, L);
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  return (
    <figure class="flow-chart">
      <svg
        xmlns="http://www.w3.org/2000/svg"
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descId}
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        font-family="system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Liberation Sans', Arial, sans-serif"
      >
        <title id={titleId}>{name}</title>
        <desc id={descId}>{describeSystem(name, system, words, L)}</desc>
        {layout.arrows.map((a) => (
          <ArrowMark key={a.outcome} arrow={a} />
        ))}
        {layout.boxes.map((b) => (
          <BoxMark key={b.key} box={b} />
        ))}
        {layout.arrows.map((a) => (
          <LabelMark key={a.outcome} arrow={a} />
        ))}
      </svg>
      <SystemTable system={system} words={words} name={name} visible={showTable} labels={labels} />
    </figure>
  );
}
