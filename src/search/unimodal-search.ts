import type { Answer, Ask } from "./question.ts";
import {
  plateauOutcome,
  type ShrinkOutcome,
  type Sign,
  shrink,
  shrinkOutcome,
  topPlateau,
} from "./shrink-interval.ts";
import { determinedOutcome, type Strategy } from "./strategy.ts";

/**
 * Options of a one-dimensional unimodal search by repeated ShrinkInterval halvings.
 */
export interface UnimodalSearchOptions<P> {
  /** Interval ends (e.g. 0 and pi/2 for Algorithm 1). */
  readonly lo: number;
  readonly hi: number;
  /** Stop when the interval is no wider than this. */
  readonly tolerance: number;
  readonly strategy: Strategy;
  /** "max": find the most preferred point (Algorithm 1); "min": the least (Algorithm 2). */
  readonly sense: "max" | "min";
  /** Stage name carried by every question. */
  readonly stage: string;
  /** The point (with its classifier) at a parameter value. */
  readonly pointAt: (t: number) => P;
  /** Called after every halving with the new interval (for step-by-step displays). */
  readonly onShrink?: (step: ShrinkStep) => void;
}

/** One halving, as reported to `onShrink`. */
export interface ShrinkStep {
  readonly stage: string;
  readonly halving: number;
  readonly outcome: ShrinkOutcome;
  readonly lo: number;
  readonly hi: number;
}

export interface UnimodalSearchResult {
  /** Final interval. */
  readonly lo: number;
  readonly hi: number;
  /** Its midpoint: the estimate (as in the user-study paper's appendix). */
  readonly estimate: number;
  readonly halvings: number;
  readonly questions: number;
}

/**
 * Number of halvings needed to shrink `range` to at most `tolerance`:
 * `ceil(log2(range / tolerance))`, counted exactly by repeated halving.
 * @example halvingsNeeded(Math.PI / 2, 0.02) // 7
 */
export function halvingsNeeded(range: number, tolerance: number): number {
  if (!(tolerance > 0)) throw new RangeError("tolerance must be positive");
  let w = range;
  let n = 0;
  while (w > tolerance) {
    w /= 2;
    n++;
  }
  return n;
}

function signOf(answer: Answer, sense: "max" | "min"): Sign {
  // Questions present (later, earlier) as in the paper's Omega(C_c, C_a): "first" = later.
  if (answer === "tie") return 0;
  const laterBetter = answer === "first";
  return (laterBetter === (sense === "max") ? 1 : -1) as Sign;
}

/**
 * Maximise (or minimise) a unimodal preference over `[lo, hi]` with ShrinkInterval.
 *
 * @example
 * // Find the best threshold for a person with metric 0.3 TN + 0.7 TP on a pool:
 * searchUnimodal(ask, { lo: 0, hi: 1, tolerance: 0.05, strategy: STRATEGIES.paper,
 *   sense: "max", stage: "threshold", pointAt: (t) => pointOf(thresholdClassifier(t)) });
 */
export function searchUnimodal<P>(ask: Ask<P>, o: UnimodalSearchOptions<P>): UnimodalSearchResult {
  let lo = o.lo;
  let hi = o.hi;
  const halvings = halvingsNeeded(hi - lo, o.tolerance);
  let questions = 0;
  for (let h = 0; h < halvings; h++) {
    const ts = [lo, (3 * lo + hi) / 4, (lo + hi) / 2, (lo + 3 * hi) / 4, hi];
    const points: (P | undefined)[] = [];
    const point = (i: number): P => {
      points[i] ??= o.pointAt(ts[i]!);
      return points[i]!;
    };
    const signs: (Sign | undefined)[] = [undefined, undefined, undefined, undefined];
    const compare = (later: number, earlier: number): Sign => {
      const answer = ask({
        stage: o.stage,
        first: point(later),
        second: point(earlier),
        params: [ts[later]!, ts[earlier]!],
      });
      questions++;
      return signOf(answer, o.sense);
    };
    for (const i of o.strategy.order) {
      if (o.strategy.lazy && determinedOutcome(signs) !== null) break;
      signs[i] = compare(i + 1, i);
    }
    if (o.strategy.resolveTies && signs.includes(0)) {
      // A tie on a staircase: see the whole pattern before deciding.
      for (const i of o.strategy.order) {
        if (signs[i] !== undefined) continue;
        signs[i] = compare(i + 1, i);
      }
    }
    let outcome = o.strategy.lazy
      ? (determinedOutcome(signs) ?? shrinkOutcome(signs.map((s) => s ?? 0)))
      : shrinkOutcome(signs as Sign[]);
    const plateau =
      o.strategy.resolveTies && !signs.includes(undefined) ? topPlateau(signs as Sign[]) : null;
    if (plateau) {
      // Is the optimum in the gap before the plateau? Compare the gap's midpoint with it.
      const mid = (ts[plateau[0] - 1]! + ts[plateau[0]]!) / 2;
      const answer = ask({
        stage: o.stage,
        first: point(plateau[0]),
        second: o.pointAt(mid),
        params: [ts[plateau[0]]!, mid],
      });
      questions++;
      outcome = plateauOutcome(plateau, signOf(answer, o.sense) === -1 ? "before" : "after");
    }
    [lo, hi] = shrink(lo, hi, outcome);
    o.onShrink?.({ stage: o.stage, halving: h + 1, outcome, lo, hi });
  }
  return { lo, hi, estimate: (lo + hi) / 2, halvings, questions };
}
