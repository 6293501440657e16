// Part 1 of a multiclass or fairness study (issue 27 item 2): two systems of the study's own
// pool, shown as its comparison pages show them, and questions about reading them whose
// right answers are the counts on those charts. Made once when the study is created and
// stored in its configuration (so every participant sees the same, and a replay the same).

import type { AdaptiveFamily } from "../../elicit/adaptive/family.ts";
import { randomTradeOffs } from "../../elicit/adaptive/phase-three.ts";
import type { FairView, MulticlassView } from "../api-schemas.ts";
import type { ComprehensionQuestion } from "./config.ts";

/** The two systems of a kind's comprehension page, as its comparison pages draw them. */
export type KindComprehensionViews =
  | {
      readonly kind: "multiclass";
      readonly left: MulticlassView;
      readonly right: MulticlassView;
    }
  | {
      readonly kind: "fair";
      readonly left: FairView;
      readonly right: FairView;
    };

/** A kind's comprehension check: its two systems and its questions about them. */
export interface KindComprehension {
  readonly views: KindComprehensionViews;
  readonly questions: ComprehensionQuestion[];
}

/**
 * Two systems of a study's family that differ on screen and are a trade-off (the first of the
 * family's Phase III pairs for seed 1: no participant's answers are involved).
 * @example comprehensionPair(family) // { first, second }
 */
export function comprehensionPair<P, M>(family: AdaptiveFamily<P, M>): { first: P; second: P } {
  const [pair] = randomTradeOffs(family, 1, 1);
  if (!pair) throw new RangeError("the study's pool has no two systems that differ on screen");
  return pair;
}

/**
 * Four whole-number options around `right` (the right one among them), in ascending order:
 * `others` first (counts of the same charts a careless reader might take), then neighbours.
 * @example countOptions(72, [65, 28]) // ["28", "65", "72", "82"]
 */
export function countOptions(right: number, others: readonly number[]): string[] {
  const set = new Set<number>([right]);
  for (const x of [...others, right + 10, right - 10, right + 5, right - 5, right + 20]) {
    if (set.size >= 4) break;
    if (x >= 0 && x <= 100) set.add(x);
  }
  return [...set].sort((a, b) => a - b).map(String);
}

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
