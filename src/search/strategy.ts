import { isConsistent, type ShrinkOutcome, type Sign, shrinkOutcome } from "./shrink-interval.ts";

/**
 * A question strategy for one halving of a unimodal search: in which order the four
 * comparisons (0: a-c, 1: c-d, 2: d-e, 3: e-b) are asked, and whether questions whose
 * answer cannot change the outcome are skipped.
 *
 * - `paper`: all four, in the paper's order: the counts the papers report.
 * - `lazy`: the paper's order, stopping as soon as every unimodal (consistent) completion of
 *   the remaining answers gives the same outcome: at most 3 questions per halving, the same
 *   interval as `paper` whenever the answers are consistent.
 * - `bisect`: asks c-d first, then d-e: at most 2 questions per halving (1.5 on average), the
 *   same interval as `paper` whenever the answers are consistent, but with less redundancy
 *   against noisy answers.
 *
 * When answers are already inconsistent the lazy strategies ask the rest, and the paper's
 * repair rule decides. On a finite pool the boundary is a staircase and neighbouring quarter
 * points can show the very same classifier ("tie"); `lazy` and `bisect` then ask whatever
 * is needed to see the whole pattern plus, when the top is a tied plateau with unexplored
 * gaps on both sides, one question that tells which side the optimum is on.
 */
export interface Strategy {
  readonly name: StrategyName;
  readonly order: readonly number[];
  readonly lazy: boolean;
  /** After a tie, ask the remaining comparisons and, if the peak is a tied plateau with
   * unexplored gaps on both sides, one extra question to find the side (see `topPlateau`). */
  readonly resolveTies: boolean;
}

export type StrategyName = "paper" | "lazy" | "bisect";

export const STRATEGIES: Record<StrategyName, Strategy> = {
  paper: { name: "paper", order: [0, 1, 2, 3], lazy: false, resolveTies: false },
  lazy: { name: "lazy", order: [0, 1, 2, 3], lazy: true, resolveTies: true },
  bisect: { name: "bisect", order: [1, 2, 0, 3], lazy: true, resolveTies: true },
};

/** All strategy names, for validation at the edges. */
export const STRATEGY_NAMES = Object.keys(STRATEGIES) as StrategyName[];

const SIGNS: readonly Sign[] = [-1, 0, 1];

/**
 * The outcome if it is already determined by the known signs, else null.
 * Unknown entries are `undefined`.
 * @example determinedOutcome([-1, undefined, undefined, undefined]) // "left"
 */
export function determinedOutcome(known: readonly (Sign | undefined)[]): ShrinkOutcome | null {
  const unknown = known.flatMap((s, i) => (s === undefined ? [i] : []));
  if (unknown.length === 0) return shrinkOutcome(known as Sign[]);
  let outcome: ShrinkOutcome | null = null;
  const total = 3 ** unknown.length;
  const trial = known.slice() as Sign[];
  for (let code = 0; code < total; code++) {
    let c = code;
    for (const i of unknown) {
      trial[i] = SIGNS[c % 3]!;
      c = Math.floor(c / 3);
    }
    if (!isConsistent(trial)) continue;
    const o = shrinkOutcome(trial);
    if (outcome === null) outcome = o;
    else if (o !== outcome) return null;
  }
  // No consistent completion: the answers so far already contradict unimodality.
  return outcome;
}
