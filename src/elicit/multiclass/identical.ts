import type { Ask } from "../../search/question.ts";
import type { MulticlassPoint } from "./point.ts";

/**
 * A class pair whose searches compared identical systems `same` times: on a pool of few points
 * (or of predictions sure of most of them) a boundary between two classes is made of few
 * classifiers and is flat between them, and ShrinkInterval reads "a tie" as "the best is to
 * the left", so the answers do not place that pair's weights to the tolerance.
 */
export interface UnresolvedPair {
  readonly pair: readonly [number, number];
  readonly same: number;
}

/**
 * `ask`, counting the questions whose two points are the same diagonal confusion (up to float
 * rounding of sums): what a search on a finite pool's flat boundary asks.
 * @example const c = countingIdentical(oracle.ask); searchUnimodal(c.ask, ...); c.count() // 0
 */
export function countingIdentical(ask: Ask<MulticlassPoint>): {
  ask: Ask<MulticlassPoint>;
  count: () => number;
} {
  let same = 0;
  return {
    ask: (q) => {
      if (identical(q.first.point, q.second.point)) same++;
      return ask(q);
    },
    count: () => same,
  };
}

function identical(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 1e-12) return false;
  return true;
}
