// Part 1 of a fairness study: questions about reading two of its systems, every group's
// counts per true class, whose right answers are counts on those charts.

import type { FairView } from "../../api-schemas.ts";
import type { ComprehensionQuestion } from "../../study/config.ts";
import { countOptions, type KindComprehension } from "../../study/kind-comprehension.ts";

const quote = (s: string) => `“${s}”`;

/**
 * A fairness study's comprehension check: reading one count of System A (how many people of
 * a group and true answer it decides right), then comparing the two systems' gaps between the
 * groups for a true answer where they differ.
 * @example fairComprehension(left, right, ["No", "Yes"], ["Black", "White"], "System").questions.length // 2
 */
export function fairComprehension(
  left: FairView,
  right: FairView,
  classes: readonly string[],
  groups: readonly string[],
  noun: string,
): KindComprehension {
  const k = classes.length;
  let c = 0;
  for (let i = 1; i < k; i++)
    if (Math.abs(left.gaps[i]! - right.gaps[i]!) > Math.abs(left.gaps[c]! - right.gaps[c]!)) c = i;
  const g = 0;
  const r = c === 0 && k > 1 ? 1 : 0;
  const a = left.counts[g]![r]!;
  const readQ: ComprehensionQuestion = {
    id: "read-count",
    prompt: `Of 100 ${quote(groups[g]!)} people whose true answer is ${quote(classes[r]!)}, how many does ${noun} A decide right?`,
    options: countOptions(a, [left.counts[1]![r]!, right.counts[g]![r]!]),
    correct: String(a),
    explanation: `Read ${noun} A's row ${quote(groups[g]!)}, column ${quote(classes[r]!)}: ${a} of 100 right.`,
  };
  const options = [`${noun} A`, `${noun} B`];
  const smaller = left.gaps[c]! < right.gaps[c]! ? options[0]! : options[1]!;
  const compareQ: ComprehensionQuestion = {
    id: "compare-gap",
    prompt: `For people whose true answer is ${quote(classes[c]!)}, which system has the smaller gap between the groups?`,
    options,
    correct: smaller,
    explanation: `Read the "Gap" row under ${quote(classes[c]!)}: ${noun} A ${left.gaps[c]}, ${noun} B ${right.gaps[c]} (the difference between the groups' counts of 100).`,
  };
  const questions = left.gaps[c] === right.gaps[c] ? [readQ] : [readQ, compareQ];
  return { views: { kind: "fair", left, right }, questions };
}
