// The worked example shown before the first comprehension question (Part 1).

import {
  DEFAULT_PAGE_LABELS,
  type PageLabels,
} from "../../../src/server/study/page-label-defaults.ts";
import type { StudyWords, SystemView } from "../api/types.ts";
import { fillIn } from "../chart/format.ts";

/** Counts as shown: whole numbers stay whole, a study from before frames keeps one decimal. */
function n(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

/** A rate of a class as a whole percentage. */
function pct(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((100 * part) / whole)}%` : "0%";
}

/** "Predicted high risk" -> "predicted high risk" (an acronym such as "ICU ..." is kept). */
function lowerFirst(w: string): string {
  return /^[A-Z][a-z]/.test(w) ? w.charAt(0).toLowerCase() + w.slice(1) : w;
}

/** The worked example's sentences (page labels; the defaults are the built-in wording). */
type WorkedExampleLabels = Pick<
  PageLabels,
  "workedExampleRead" | "workedExamplePositives" | "workedExampleNegatives" | "workedExampleSo"
>;

/**
 * How to read one system, in the study's own words and from the numbers on screen: the
 * sentences a participant needs before Part 1's questions (each class total on the left, where
 * the system sends its people on the right, and which two flows are the mistakes). The
 * sentences are the study's page labels, their `{...}` filled in here.
 * @example workedExample(systemA, words, "System A")[1] // "Of the 34 people who had cancer, System A predicted high risk for 31 (91%) and predicted low risk for 3: those 3 are missed cancers."
 */
export function workedExample(
  s: SystemView,
  words: StudyWords,
  name: string,
  labels: WorkedExampleLabels = DEFAULT_PAGE_LABELS,
): string[] {
  const positives = s.tp + s.fn;
  const negatives = s.tn + s.fp;
  const values: Record<string, string> = {
    name,
    total: n(positives + negatives),
    positives: n(positives),
    negatives: n(negatives),
    tp: n(s.tp),
    fn: n(s.fn),
    fp: n(s.fp),
    tn: n(s.tn),
    tpr: pct(s.tp, positives),
    tnr: pct(s.tn, negatives),
    positive: words.positive,
    negative: words.negative,
    flagged: lowerFirst(words.predictedPositive),
    cleared: lowerFirst(words.predictedNegative),
    missed: words.missed,
    falseAlarm: words.falseAlarm,
  };
  const fill = (t: string) => fillIn(t, values);
  return [
    labels.workedExampleRead,
    labels.workedExamplePositives,
    labels.workedExampleNegatives,
    labels.workedExampleSo,
  ].map(fill);
}
