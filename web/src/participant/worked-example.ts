// The worked example shown before the first comprehension question (Part 1).

import type { StudyWords, SystemView } from "../api/types.ts";

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

/**
 * How to read one system, in the study's own words and from the numbers on screen: the
 * sentences a participant needs before Part 1's questions (each class total on the left, where
 * the system sends its people on the right, and which two flows are the mistakes).
 * @example workedExample(systemA, words, "System A")[1] // "Of the 34 people who had cancer, System A predicted high risk for 31 (91%) and predicted low risk for 3: those 3 are missed cancers."
 */
export function workedExample(s: SystemView, words: StudyWords, name: string): string[] {
  const positives = s.tp + s.fn;
  const negatives = s.tn + s.fp;
  const total = positives + negatives;
  const flagged = lowerFirst(words.predictedPositive);
  const cleared = lowerFirst(words.predictedNegative);
  return [
    `Read ${name} from left to right. On the left, the ${n(total)} people split by what was actually true; on the right, by what ${name} predicted.`,
    `Of the ${n(positives)} people who ${words.positive}, ${name} ${flagged} for ${n(s.tp)} (${pct(s.tp, positives)}) and ${cleared} for ${n(s.fn)}: those ${n(s.fn)} are ${words.missed}.`,
    `Of the ${n(negatives)} people who ${words.negative}, ${name} ${cleared} for ${n(s.tn)} (${pct(s.tn, negatives)}) and ${flagged} for ${n(s.fp)}: those ${n(s.fp)} are ${words.falseAlarm}.`,
    `So ${name} makes ${n(s.fn)} ${words.missed} and ${n(s.fp)} ${words.falseAlarm} in these ${n(total)} people. The crossing arrows in the chart are these two mistakes.`,
  ];
}
