import type { BinaryPopulation } from "../../geometry/binary/population.ts";
import type { BinaryConfusion } from "../../metrics/binary-confusion.ts";
import { angleToLinear, type BinaryLinearMetric } from "../../metrics/binary-linear.ts";
import type { Ask } from "../../search/question.ts";
import type { Strategy } from "../../search/strategy.ts";
import { type ShrinkStep, searchUnimodal } from "../../search/unimodal-search.ts";
import { type BinaryPoint, boundaryPoint } from "./point.ts";

/** Options shared by Algorithms 1 and 2. */
export interface BoundarySearchOptions {
  readonly tolerance: number;
  readonly strategy: Strategy;
  readonly onShrink?: (step: ShrinkStep) => void;
}

/**
 * What Algorithms 1 and 2 return: the angle, the slope `m = (cos theta, sin theta)` of the
 * supporting hyperplane, the boundary point there and the hyperplane's constant
 * `<m, C>` (the line `m11 tp + m00 tn = constant`).
 */
export interface BoundarySearchResult {
  readonly theta: number;
  readonly interval: readonly [number, number];
  readonly slope: BinaryLinearMetric;
  readonly point: BinaryPoint;
  readonly constant: number;
  readonly questions: number;
}

function finish(
  population: BinaryPopulation,
  lo: number,
  hi: number,
  questions: number,
): BoundarySearchResult {
  const theta = (lo + hi) / 2;
  const slope = angleToLinear(theta);
  const point = boundaryPoint(population, theta);
  const c: BinaryConfusion = point.confusion;
  return {
    theta,
    interval: [lo, hi],
    slope,
    point,
    constant: slope.tp * c.tp + slope.tn * c.tn,
    questions,
  };
}

/**
 * Algorithm 1 (AISTATS 2019): the most preferred point on the upper boundary, searched over
 * theta in [0, pi/2], for metrics monotonically increasing in TP and TN and quasiconcave.
 * @example algorithm1(oracle.ask, syntheticPopulation(), { tolerance: 0.02, strategy: STRATEGIES.paper })
 */
export function algorithm1(
  ask: Ask<BinaryPoint>,
  population: BinaryPopulation,
  o: BoundarySearchOptions,
): BoundarySearchResult {
  const r = searchUnimodal(ask, {
    lo: 0,
    hi: Math.PI / 2,
    tolerance: o.tolerance,
    strategy: o.strategy,
    sense: "max",
    stage: "algorithm-1",
    pointAt: (t) => boundaryPoint(population, t),
    onShrink: o.onShrink,
  });
  return finish(population, r.lo, r.hi, r.questions);
}

/**
 * Algorithm 2 (AISTATS 2019): search the lower boundary, theta in [pi, 3 pi/2].
 * With `sense: "min"` (the paper's Algorithm 2) it finds the least preferred point of a
 * quasiconvex increasing metric, as LFPM elicitation needs; the slope returned is the
 * outward normal there (both coordinates <= 0). With `sense: "max"` it finds the most
 * preferred point of a metric that *decreases* in TP and TN — the same search as minimising
 * the increasing cost `-phi` — which is how an LPM with negative weights is elicited.
 * @example algorithm2(oracle.ask, population, { tolerance: 0.05, strategy: STRATEGIES.paper }, "min")
 */
export function algorithm2(
  ask: Ask<BinaryPoint>,
  population: BinaryPopulation,
  o: BoundarySearchOptions,
  sense: "max" | "min" = "min",
): BoundarySearchResult {
  const r = searchUnimodal(ask, {
    lo: Math.PI,
    hi: (3 * Math.PI) / 2,
    tolerance: o.tolerance,
    strategy: o.strategy,
    sense,
    stage: "algorithm-2",
    pointAt: (t) => boundaryPoint(population, t),
    onShrink: o.onShrink,
  });
  return finish(population, r.lo, r.hi, r.questions);
}
