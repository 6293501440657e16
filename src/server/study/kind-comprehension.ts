// Part 1 of the kinds that draw it from their own pool (multiclass, fairness, quadratic): the
// shared pieces. Two systems of the study's pool, shown as its comparison pages show them, and
// questions about reading them whose right answers are the counts on those charts (each kind
// writes its own: kinds/*/comprehension.ts), made once when the study is created and stored in
// its configuration (so every participant sees the same, and a replay the same).

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
