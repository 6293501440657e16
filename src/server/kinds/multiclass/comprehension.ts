// Part 1 of a study over classes (multiclass, quadratic): questions about reading two of its
// systems, people per class, whose right answers are counts on those charts.

import type { MulticlassView } from "../../api-schemas.ts";
import type { ComprehensionQuestion } from "../../study/config.ts";
import { countOptions, type KindComprehension } from "../../study/kind-comprehension.ts";

const quote = (s: string) => `“${s}”`;

/**
 * A multiclass study's comprehension check: reading one count of System A (how many people of
 * a class it gets right), then comparing the two systems on a class where they differ.
 * `noun` is the study's word for a system, capitalised ("System").
 * @example multiclassComprehension(left, right, ["setosa", "versicolor", "virginica"], "System").questions.length // 2
 */
export function multiclassComprehension(
  left: MulticlassView,
  right: MulticlassView,
  classes: readonly string[],
  noun: string,
): KindComprehension {
  const k = classes.length;
  const right1 = (v: MulticlassView, i: number) => v.counts[i]![i]!;
  // The class whose count differs most between the two: the comparison question's.
  let c = 0;
  for (let i = 1; i < k; i++)
    if (Math.abs(right1(left, i) - right1(right, i)) > Math.abs(right1(left, c) - right1(right, c)))
      c = i;
  // The reading question's class: another one, so the two questions ask about two rows.
  const r = c === 0 ? 1 : 0;
  const a = right1(left, r);
  const wrong = left.counts[r]!.filter((_, j) => j !== r);
  const readQ: ComprehensionQuestion = {
    id: "read-count",
    prompt: `Of 100 people whose true class is ${quote(classes[r]!)}, how many does ${noun} A put in the right class?`,
    options: countOptions(a, [right1(right, r), Math.max(...wrong)]),
    correct: String(a),
    explanation: `Read ${noun} A's row for the true class ${quote(classes[r]!)}: ${a} of 100 right.`,
  };
  const more = right1(left, c) > right1(right, c) ? `${noun} A` : `${noun} B`;
  const compareQ: ComprehensionQuestion = {
    id: "compare-class",
    prompt: `Which system gets more people whose true class is ${quote(classes[c]!)} right?`,
    options: [`${noun} A`, `${noun} B`],
    correct: more,
    explanation: `Compare the two rows for ${quote(classes[c]!)}: ${noun} A gets ${right1(left, c)} of 100 right, ${noun} B ${right1(right, c)}.`,
  };
  // Two systems the same on every class's correct count (a linear study's pair may differ
  // only in its mistakes) leave nothing to compare: the reading question alone.
  const questions = right1(left, c) === right1(right, c) ? [readQ] : [readQ, compareQ];
  return { views: { kind: "multiclass", left, right }, questions };
}
