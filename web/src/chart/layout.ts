// Pure geometry of the flow chart of one binary system (guideline G1 of UI.md):
// true-class boxes on the left, prediction boxes on the right, four arrows between them whose
// width is proportional to the count. Correct outcomes are straight; errors cross.
//
// The layout is computed for an actual pixel width (1 SVG unit = 1 CSS pixel), so text is
// never scaled below its font size on a phone: the browser measures the container and asks
// for a layout of that width.

import {
  DEFAULT_PAGE_LABELS,
  type PageLabels,
} from "../../../src/server/study/page-label-defaults.ts";
import type { StudyWords, SystemView } from "../api/types.ts";
import { countOfTotal, fillIn, formatCount, populationOf } from "./format.ts";

export const FONT_SIZE = 15;
export const LINE_HEIGHT = 19;
/** Rough advance of one character of the system UI font, in em. Used only for wrapping. */
const CHAR_EM = 0.56;
/**
 * Pixels of arrow width per patient of 100. The same for every chart, so A and B compare; a
 * study shown out of another population scales it, so the bands keep their width for a share.
 */
export const PX_PER_PATIENT = 1.2;

export type Outcome = "tp" | "fn" | "fp" | "tn";

export interface Box {
  key: "actualPositive" | "actualNegative" | "predictedPositive" | "predictedNegative";
  x: number;
  y: number;
  width: number;
  height: number;
  lines: string[];
  total: number;
  /** Which true class tints the box; prediction boxes are neutral. */
  tone: "positive" | "negative" | "neutral";
}

export interface Arrow {
  outcome: Outcome;
  count: number;
  /** Stroke width of the band: count * PX_PER_PATIENT. */
  width: number;
  correct: boolean;
  /** Centre line of the band (SVG path data). */
  path: string;
  /** Arrow head polygon points at the arrival end (empty for a zero count). */
  head: string;
  trueClass: "positive" | "negative";
  label: Label;
}

export interface Label {
  lines: string[];
  /** Centre of the label pill. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FlowLayout {
  width: number;
  height: number;
  boxes: Box[];
  arrows: Arrow[];
}

/** Greedy word wrap to at most `maxChars` per line (a longer single word keeps its own line). */
export function wrap(text: string, maxChars: number): string[] {
  const words = text.split(/\s+/).filter((w) => w.length > 0);
  const lines: string[] = [];
  let line = "";
  for (const w of words) {
    if (line === "") line = w;
    else if (line.length + 1 + w.length <= maxChars) line = `${line} ${w}`;
    else {
      lines.push(line);
      line = w;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function textWidth(text: string): number {
  return text.length * FONT_SIZE * CHAR_EM;
}

function pill(lines: string[]): { width: number; height: number } {
  const widest = Math.max(...lines.map(textWidth));
  return { width: Math.ceil(widest + 16), height: lines.length * LINE_HEIGHT + 8 };
}

/** y of the cubic with horizontal tangents from (x0,y0) to (x1,y1) at parameter t. */
function curveAt(x0: number, y0: number, x1: number, y1: number, t: number): [number, number] {
  const s = 1 - t;
  const xm = (x0 + x1) / 2;
  const x = s * s * s * x0 + 3 * s * s * t * xm + 3 * s * t * t * xm + t * t * t * x1;
  const y = s * s * s * y0 + 3 * s * s * t * y0 + 3 * s * t * t * y1 + t * t * t * y1;
  return [x, y];
}

/** The point of the curve whose y is `y` (bisection; the curve is monotone in y). */
function curveAtY(x0: number, y0: number, x1: number, y1: number, y: number): [number, number] {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    const [, ym] = curveAt(x0, y0, x1, y1, mid);
    if (y1 > y0 ? ym < y : ym > y) lo = mid;
    else hi = mid;
  }
  return curveAt(x0, y0, x1, y1, (lo + hi) / 2);
}

const HEAD_LEN = 9;

function headPoints(xEnd: number, y: number, width: number): string {
  if (width <= 0) return "";
  const half = width / 2 + 4;
  const xs = xEnd - HEAD_LEN;
  return `${r(xs)},${r(y - half)} ${r(xEnd)},${r(y)} ${r(xs)},${r(y + half)}`;
}

function r(v: number): number {
  return Math.round(v * 10) / 10;
}

/**
 * Lay out one system's flow chart at `width` pixels.
 *
 * @example
 *   const l = flowLayout({ tp: 32, fn: 3, fp: 6, tn: 59, tpr: 32 / 35, tnr: 59 / 65, threshold: 0.5 }, words, 560);
 *   l.arrows.find((a) => a.outcome === "tp")!.width; // 38.4 = 32 * 1.2
 */
export function flowLayout(
  s: SystemView,
  words: StudyWords,
  width: number,
  labels: Pick<PageLabels, "tableActually" | "chartBadge"> = DEFAULT_PAGE_LABELS,
): FlowLayout {
  const w = Math.max(300, Math.round(width));
  const k = (PX_PER_PATIENT * 100) / Math.max(1, populationOf(s));
  const pad = 6;
  const boxW = Math.min(150, Math.max(84, Math.round(w * 0.24)));
  const charsPerLine = Math.max(6, Math.floor((boxW - 12) / (FONT_SIZE * CHAR_EM)));
  const xL1 = boxW;
  const xR0 = w - boxW;

  const pos = s.tp + s.fn;
  const neg = s.fp + s.tn;
  const predPos = s.tp + s.fp;
  const predNeg = s.fn + s.tn;

  const boxLines = (text: string, total: number) => [
    ...wrap(text, charsPerLine),
    `(${formatCount(total)})`,
  ];
  const lAP = boxLines(fillIn(labels.tableActually, { class: words.positive }), pos);
  const lAN = boxLines(fillIn(labels.tableActually, { class: words.negative }), neg);
  const lPP = boxLines(capitalise(words.predictedPositive), predPos);
  const lPN = boxLines(capitalise(words.predictedNegative), predNeg);
  const textH = (lines: string[]) => lines.length * LINE_HEIGHT + 12;
  const hAP = Math.max(textH(lAP), pos * k + 2 * pad);
  const hAN = Math.max(textH(lAN), neg * k + 2 * pad);
  const hPP = Math.max(textH(lPP), predPos * k + 2 * pad);
  const hPN = Math.max(textH(lPN), predNeg * k + 2 * pad);

  // Labels that do not fit between the boxes put the rate on a line of its own, then wrap
  // their words (a narrow phone's "missed cancers" otherwise covered the left box).
  const room = xR0 - HEAD_LEN - xL1 - 10;
  const fitLines = (lines: string[]): string[] => {
    if (pill(lines).width <= room) return lines;
    const last = lines[lines.length - 1]!;
    const cut = last.lastIndexOf(" · ");
    const split =
      cut < 0 ? lines : [...lines.slice(0, -1), last.slice(0, cut), last.slice(cut + 3)];
    if (pill(split).width <= room) return split;
    const chars = Math.max(6, Math.floor((room - 16) / (FONT_SIZE * CHAR_EM)));
    return split.flatMap((line) => wrap(line, chars));
  };
  const labelLines: Record<Outcome, string[]> = {
    tp: fitLines([countOfTotal(s.tp, pos, s.tpr, labels.chartBadge)]),
    fn: fitLines([words.missed, countOfTotal(s.fn, pos, 1 - s.tpr, labels.chartBadge)]),
    fp: fitLines([words.falseAlarm, countOfTotal(s.fp, neg, 1 - s.tnr, labels.chartBadge)]),
    tn: fitLines([countOfTotal(s.tn, neg, s.tnr, labels.chartBadge)]),
  };
  const pills = {
    tp: pill(labelLines.tp),
    fn: pill(labelLines.fn),
    fp: pill(labelLines.fp),
    tn: pill(labelLines.tn),
  };

  // Vertical gap between the upper and lower boxes: room for four label rows down the middle.
  // Margins so the TP and TN labels, centred on their bands, stay inside the chart.
  const top = Math.max(4, pills.tp.height / 2 + 2 - pad - (s.tp * k) / 2);
  const bottomMargin = Math.max(4, pills.tn.height / 2 + 2 - pad - (s.tn * k) / 2);
  const upperH = Math.max(hAP, hPP);
  const lowerH = Math.max(hAN, hPN);
  // Distance needed between the TP and TN band centres for four evenly spaced label rows.
  const maxPill = Math.max(pills.tp.height, pills.fn.height, pills.fp.height, pills.tn.height);
  const need = 3 * (maxPill + 14);
  const gap = Math.max(120, need - upperH - lowerH + 2 * pad + ((s.tp + s.tn) * k) / 2);
  const bottom = top + upperH + gap + lowerH;

  const boxes: Box[] = [
    {
      key: "actualPositive",
      x: 0,
      y: top,
      width: boxW,
      height: hAP,
      lines: lAP,
      total: pos,
      tone: "positive",
    },
    {
      key: "actualNegative",
      x: 0,
      y: bottom - hAN,
      width: boxW,
      height: hAN,
      lines: lAN,
      total: neg,
      tone: "negative",
    },
    {
      key: "predictedPositive",
      x: xR0,
      y: top,
      width: boxW,
      height: hPP,
      lines: lPP,
      total: predPos,
      tone: "neutral",
    },
    {
      key: "predictedNegative",
      x: xR0,
      y: bottom - hPN,
      width: boxW,
      height: hPN,
      lines: lPN,
      total: predNeg,
      tone: "neutral",
    },
  ];

  // Band centre lines. Upper boxes: TP at the top; lower boxes: TN at the bottom.
  const yTP = top + pad + (s.tp * k) / 2;
  const yTN = bottom - pad - (s.tn * k) / 2;
  const yFN0 = top + pad + s.tp * k + (s.fn * k) / 2;
  const yFN1 = bottom - pad - s.tn * k - (s.fn * k) / 2;
  const yFP0 = bottom - pad - s.tn * k - (s.fp * k) / 2;
  const yFP1 = top + pad + s.tp * k + (s.fp * k) / 2;
  const xEnd = xR0 - 1;
  const xBandEnd = xEnd - HEAD_LEN;
  const x0 = xL1 + 1;
  const mid = (x0 + xEnd) / 2;

  const straight = (y0: number, y1: number) => `M${r(x0)} ${r(y0)}L${r(xBandEnd)} ${r(y1)}`;
  const curve = (y0: number, y1: number) => {
    const xm = (x0 + xBandEnd) / 2;
    return `M${r(x0)} ${r(y0)}C${r(xm)} ${r(y0)} ${r(xm)} ${r(y1)} ${r(xBandEnd)} ${r(y1)}`;
  };

  // Four evenly spaced label rows: TP on its band, FN on its curve a third of the way down,
  // FP on its curve two thirds down, TN on its band. The crossing labels then sit on the
  // left half of their curves, leaving the crossing itself visible.
  const yFNrow = yTP + (yTN - yTP) / 3;
  const yFProw = yTP + (2 * (yTN - yTP)) / 3;
  const clampX = (x: number, pw: number) =>
    Math.min(Math.max(x, x0 + pw / 2 + 2), xBandEnd - pw / 2 - 2);
  const onCurve = (y0: number, y1: number, y: number): number => {
    const lo = Math.min(y0, y1);
    const hi = Math.max(y0, y1);
    if (y <= lo || y >= hi) return mid;
    return curveAtY(x0, y0, xBandEnd, y1, y)[0];
  };

  const label = (o: Outcome, x: number, y: number): Label => ({
    lines: labelLines[o],
    x: r(clampX(x, pills[o].width)),
    y: r(y),
    width: pills[o].width,
    height: pills[o].height,
  });

  const arrow = (
    outcome: Outcome,
    count: number,
    correct: boolean,
    y0: number,
    y1: number,
    lab: Label,
  ): Arrow => ({
    outcome,
    count,
    width: r(count * k),
    correct,
    path: correct ? straight(y0, y1) : curve(y0, y1),
    head: headPoints(xEnd, y1, count * k),
    trueClass: outcome === "tp" || outcome === "fn" ? "positive" : "negative",
    label: lab,
  });

  // Correct-outcome labels sit on their straight bands near the arrival; error labels on
  // the left half, at their rows, where their own curve passes under them.
  const rightX = (o: Outcome) => xBandEnd - pills[o].width / 2 - 6;
  const leftX = (o: Outcome, y0: number, y1: number, y: number) =>
    Math.min(x0 + pills[o].width / 2 + 6, onCurve(y0, y1, y));
  const arrows: Arrow[] = [
    arrow("tp", s.tp, true, yTP, yTP, label("tp", rightX("tp"), yTP)),
    arrow("fn", s.fn, false, yFN0, yFN1, label("fn", leftX("fn", yFN0, yFN1, yFNrow), yFNrow)),
    arrow("fp", s.fp, false, yFP0, yFP1, label("fp", leftX("fp", yFP0, yFP1, yFProw), yFProw)),
    arrow("tn", s.tn, true, yTN, yTN, label("tn", rightX("tn"), yTN)),
  ];

  return { width: w, height: Math.ceil(bottom + bottomMargin), boxes, arrows };
}
