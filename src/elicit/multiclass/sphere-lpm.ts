import type { Classifier } from "../../geometry/multiclass/classifier.ts";
import { realiseOnSphere } from "../../geometry/multiclass/realise.ts";
import type { Sphere } from "../../geometry/multiclass/sphere.ts";
import { searchAngles } from "../../search/angle-search.ts";
import type { Ask } from "../../search/question.ts";
import type { Strategy } from "../../search/strategy.ts";
import type { ShrinkStep } from "../../search/unimodal-search.ts";
import { upsilon } from "./angles.ts";
import type { MulticlassPoint } from "./point.ts";

/** Options of the LPM search on a sphere. */
export interface SphereLpmOptions {
  readonly tolerance: number;
  readonly strategy: Strategy;
  /** Number of full sweeps over the q - 1 angles (paper: 2, i.e. T = 2(q - 1)). */
  readonly cycles?: number;
  /** `forward` (the paper) or `reverse` (last angle first: exact after one cycle, A.6). */
  readonly order?: "forward" | "reverse";
  /** Orthant signs sigma (default all -1: utilities that decrease in every misclassification). */
  readonly signs?: readonly number[];
  readonly onShrink?: (step: ShrinkStep) => void;
}

/** Result of the sphere LPM search. */
export interface SphereLpmElicitation {
  /** Elicited unit-norm slope `sigma ⊙ Upsilon(theta)`. */
  readonly metric: number[];
  readonly theta: number[];
  /** The point of the sphere at the elicited slope (the elicited metric's optimum on it). */
  readonly optimum: MulticlassPoint;
  readonly questions: number;
}

/**
 * LPM elicitation by coordinate-wise angle search on the sphere (NeurIPS 2019, Algorithm 2;
 * ALGORITHMS.md A.5-A.6): every query is a point `o + rho sigma ⊙ Upsilon(theta)` of the
 * sphere found by Algorithm 3, realised by a randomised classifier (B.6). By Lemma 1 the most
 * preferred point of the sphere has the oracle's own slope. In `paper` strategy with two
 * cycles it asks `4 * 2(q - 1) * ceil(log2((pi/2)/eps))` questions (320 for k = 3, 704 for k = 4
 * at eps = 0.01).
 * @example elicitSphereLpm(oracle.ask, sphere, { tolerance: 0.01, strategy: STRATEGIES.paper }).metric
 */
export function elicitSphereLpm(
  ask: Ask<MulticlassPoint>,
  sphere: Sphere,
  o: SphereLpmOptions,
): SphereLpmElicitation {
  const q = sphere.dim;
  if (q < 2) throw new RangeError("the sphere search needs at least two coordinates");
  if (!(sphere.rho > 0)) throw new RangeError(sphere.reason ?? "the sphere has radius 0");
  const signs = o.signs ?? new Array<number>(q).fill(-1);
  if (signs.length !== q) throw new RangeError(`need ${q} orthant signs, got ${signs.length}`);
  const pointOf = (theta: readonly number[]): MulticlassPoint => {
    const u = upsilon(theta);
    const target = new Float64Array(q);
    for (let i = 0; i < q; i++) target[i] = sphere.centre[i]! + sphere.rho * signs[i]! * u[i]!;
    const classifier: Classifier = realiseOnSphere(sphere, target);
    return { point: target, classifier };
  };
  const { theta, questions } = searchAngles(ask, {
    angles: q - 1,
    tolerance: o.tolerance,
    strategy: o.strategy,
    sense: "max",
    cycles: o.cycles ?? 2,
    order: o.order,
    stage: (j) => `lpm-angle-${j + 1}`,
    pointAt: pointOf,
    onShrink: o.onShrink,
  });
  const u = upsilon(theta);
  return {
    metric: Array.from(u, (x, i) => signs[i]! * x),
    theta,
    optimum: pointOf(theta),
    questions,
  };
}
