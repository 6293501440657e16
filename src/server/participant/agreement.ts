import type { BinaryPoint } from "../../elicit/binary/point.ts";
import type { ElicitationResult } from "./elicitation.ts";
import { type AgreementReport, agreementReport, shownOnScreen } from "./evaluation-pairs.ts";
import { type AnswerDifference, consistentRange, metricWeights, reportedMetric } from "./metric.ts";
import { type DisplayFrame, shownCounts } from "./views.ts";

/** An answer row as stored: the answer and its two points (JSON, procedure order). */
export type ShownAnswerRow = {
  readonly answer: "first" | "second" | "tie";
  readonly first_point: string;
  readonly second_point: string;
};

/**
 * Agreement M both ways (over all Phase III pairs, and over the pairs the participant's
 * result range does not decide in advance; see `AgreementReport`), "about the same" answers
 * counted apart, every pair judged on the counts shown (`shownOnScreen`). `elicitation` and `evaluation` are the stored Phase II and Phase III rows;
 * the range is the one the debrief states (`answerRange`).
 * @example agreement(result, phase2Rows, phase3Rows, frame).undecided // 0.75
 */
export function agreement(
  result: ElicitationResult,
  elicitation: readonly ShownAnswerRow[],
  evaluation: readonly ShownAnswerRow[],
  frame: DisplayFrame | null,
): AgreementReport {
  const range = answerRange(elicitation, frame);
  // M scores the metric the participant and the researcher are shown, on the counts the
  // participant saw: a pair whose hidden rates and shown counts rank the two systems apart
  // is judged as the participant could judge it.
  const { tp, tn } = metricWeights(reportedMetric(result, range));
  return agreementReport(
    (c) => tp * c.tp + tn * c.tn,
    range,
    evaluation,
    (c) => shownOnScreen(c, frame),
  );
}

/**
 * The range of metrics `(1 - a) TP + a TN` that give a participant's Phase II answers (see
 * `consistentRange`). A person weighs the counts shown (whole people in the study's frame),
 * a simulated one may weigh the systems behind them, and the two can differ by the rounding:
 * the range is the hull of both readings, so it holds the metric of a participant consistent
 * in either. A study without a frame showed the systems themselves (to 0.1 in 100).
 */
export function answerRange(
  rows: readonly ShownAnswerRow[],
  frame: DisplayFrame | null,
): { lo: number; hi: number } {
  const read = (shown: boolean): AnswerDifference[] =>
    rows.map((r) => {
      const p = (JSON.parse(r.first_point) as BinaryPoint).confusion;
      const q = (JSON.parse(r.second_point) as BinaryPoint).confusion;
      const [a, b] = shown && frame ? [shownCounts(p, frame), shownCounts(q, frame)] : [p, q];
      return { dTp: a.tp - b.tp, dTn: a.tn - b.tn, answer: r.answer as AnswerDifference["answer"] };
    });
  const exact = consistentRange(read(false));
  if (frame === null) return exact;
  const shown = consistentRange(read(true));
  return { lo: Math.min(exact.lo, shown.lo), hi: Math.max(exact.hi, shown.hi) };
}
