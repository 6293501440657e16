import { searchAngles } from "../../search/angle-search.ts";
import type { Ask } from "../../search/question.ts";
import type { Strategy } from "../../search/strategy.ts";
import type { ShrinkStep } from "../../search/unimodal-search.ts";
import { upsilon } from "../multiclass/angles.ts";

/**
 * A point of a rate space shown to the stakeholder. On the synthetic query space
 * (`--synthetic sphere`) every point is assumed feasible and no classifier realises it
 * (`classifier` null or absent); on real data a caller may attach one.
 */
export interface RatePoint {
  readonly point: Float64Array;
  readonly classifier?: null;
}

/** A Euclidean ball of rates (all of it assumed feasible). */
export interface Ball {
  readonly centre: ArrayLike<number>;
  readonly radius: number;
}

/** Options of LPME. */
export interface LpmeOptions {
  /** Binary-search tolerance eps on each angle (paper: 0.01). */
  readonly tolerance: number;
  /** ShrinkInterval question strategy: `lazy` (at most 3 per halving) is the UAI paper's counting. */
  readonly strategy: Strategy;
  /** Number of sweeps over the k - 1 angles (UAI paper: 3, i.e. T = 3(k - 1); koyejolab code: 4). */
  readonly cycles?: number;
  /** `forward` (paper) or `reverse` (last angle first: exact after one cycle, ALGORITHMS.md A.6). */
  readonly order?: "forward" | "reverse";
  /** Prefix of the stage names of the questions (default `lpme`). */
  readonly label?: string;
  readonly onShrink?: (step: ShrinkStep) => void;
}

/** Result of LPME. */
export interface LpmeResult {
  /** Elicited unit-norm slope `sigma ⊙ Upsilon(theta)`. */
  readonly slope: number[];
  /** Orthant signs found by the k sign queries. */
  readonly signs: number[];
  /** Final angles, each in [0, pi/2]. */
  readonly theta: number[];
  /** All questions asked (sign queries included). */
  readonly questions: number;
  /** Of which sign queries (always k). */
  readonly signQuestions: number;
}

/**
 * The point `centre + radius * v`.
 * @example ballPoint({ centre: [0.5, 0.5], radius: 0.2 }, [1, 0]).point // Float64Array [0.7, 0.5]
 */
export function ballPoint(ball: Ball, v: ArrayLike<number>): RatePoint {
  const k = v.length;
  const p = new Float64Array(k);
  for (let i = 0; i < k; i++) p[i] = ball.centre[i]! + ball.radius * v[i]!;
  return { point: p, classifier: null };
}

/**
 * Linear Performance Metric Elicitation (UAI 2022 Algorithm 2, Appendix A) on a k-dimensional
 * ball. Lines 2-6: k sign queries, `Omega(o + rho 1/sqrt(k), same with coordinate i negated)`,
 * reveal the orthant `sigma` of the slope (a tie counts as +). Lines 7-18: coordinate-wise
 * angle search over points `centre + radius sigma ⊙ Upsilon(theta)` of the sphere, each angle
 * in `[0, pi/2]`, started at the orthant midpoint `pi/4`, `cycles` sweeps (paper: 3), each
 * angle search a ShrinkInterval binary search to width `tolerance` whose midpoint is kept. By
 * Lemma 1 the most preferred point of the sphere is `centre + radius a / ||a||`, so the
 * returned unit slope is within `O(sqrt(k) eps)` of the oracle's (noise free).
 *
 * Questions: `k + cycles (k - 1) ceil(log2((pi/2)/eps)) q` with `q` questions per halving:
 * 4 with `STRATEGIES.paper`, at most 3 (about 2.7 on average) with `STRATEGIES.lazy`.
 * @example elicitLpme(oracle.ask, { centre: [0.5, 0.5], radius: 0.2 }, { tolerance: 0.01, strategy: STRATEGIES.lazy }).slope
 */
export function elicitLpme(ask: Ask<RatePoint>, ball: Ball, o: LpmeOptions): LpmeResult {
  const k = ball.centre.length;
  if (k < 2) throw new RangeError("LPME needs at least two rates");
  if (!(ball.radius > 0)) throw new RangeError("the ball must have a positive radius");
  const label = o.label ?? "lpme";
  const cycles = o.cycles ?? 3;
  if (!(Number.isInteger(cycles) && cycles >= 1)) throw new RangeError("cycles must be >= 1");

  // Lines 2-6: orthant detection.
  const signs: number[] = [];
  const diag = 1 / Math.sqrt(k);
  for (let i = 0; i < k; i++) {
    const v = new Array<number>(k).fill(diag);
    const w = v.slice();
    w[i] = -diag;
    const answer = ask({
      stage: `${label}-sign-${i + 1}`,
      first: ballPoint(ball, v),
      second: ballPoint(ball, w),
    });
    signs.push(answer === "second" ? -1 : 1);
  }

  // Lines 7-18: coordinate-wise search on the angles.
  const pointOf = (theta: readonly number[]): RatePoint => {
    const u = upsilon(theta);
    for (let i = 0; i < k; i++) u[i] = signs[i]! * u[i]!;
    return ballPoint(ball, u);
  };
  const search = searchAngles(ask, {
    angles: k - 1,
    tolerance: o.tolerance,
    strategy: o.strategy,
    sense: "max",
    cycles,
    order: o.order,
    stage: (j) => `${label}-angle-${j + 1}`,
    pointAt: pointOf,
    onShrink: o.onShrink,
  });
  const theta = search.theta;
  const questions = k + search.questions;
  const u = upsilon(theta);
  return {
    slope: Array.from(u, (x, i) => signs[i]! * x),
    signs,
    theta,
    questions,
    signQuestions: k,
  };
}
