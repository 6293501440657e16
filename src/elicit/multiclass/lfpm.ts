import type { Classifier } from "../../geometry/multiclass/classifier.ts";
import { realiseOnSphere } from "../../geometry/multiclass/realise.ts";
import type { Sphere } from "../../geometry/multiclass/sphere.ts";
import { createRng } from "../../math/rng.ts";
import { searchAngles } from "../../search/angle-search.ts";
import type { Ask } from "../../search/question.ts";
import type { Strategy } from "../../search/strategy.ts";
import type { ShrinkStep } from "../../search/unimodal-search.ts";
import { upsilon } from "./angles.ts";
import {
  consistentNumerator,
  type FractionalMetric,
  type FractionalPlane,
  pairGrid,
  ratioSpread,
  solveFractionalSystem,
} from "./fractional-grid.ts";
import type { MulticlassPoint } from "./point.ts";
import { elicitSphereLpm } from "./sphere-lpm.ts";

/** Options of LFPM elicitation over off-diagonal confusions. */
export interface LfpmOptions {
  /** Tolerance of every angle search (paper: 0.01). */
  readonly tolerance: number;
  readonly strategy: Strategy;
  /** Sweeps over the q - 1 angles per search (paper: 2) and their order. */
  readonly cycles?: number;
  readonly order?: "forward" | "reverse";
  /**
   * `grid` (Algorithm 7: coordinate-wise grid search of the shares `a_j / (a_0 + a_j)`) or
   * `closed-form` (`consistentNumerator`, the exact solution of what the grid approximates).
   */
  readonly method?: "grid" | "closed-form";
  /** Algorithm 7's n': sphere points the metrics are compared on (paper: 1000). */
  readonly samples?: number;
  /** Algorithm 7's delta (paper: 0.01). */
  readonly gridStep?: number;
  /** Sweeps of the coordinate-wise grid over j = 1..q-1 (default 2). */
  readonly passes?: number;
  /**
   * Assumption 4's constants `zeta_i` in `b0 = sum -(a_i + b_i) zeta_i` (one per off-diagonal
   * entry, or one number for all). Default: the prior of the entry's true class, an upper
   * bound on the entry. Only the scale of the elicited `(b, b0)` depends on it.
   */
  readonly zeta?: number | readonly number[];
  /** Seed of the sphere points used by Algorithm 7. */
  readonly seed?: number;
  readonly onShrink?: (step: ShrinkStep) => void;
}

/** Result of LFPM elicitation. */
export interface LfpmElicitation {
  /** Elicited `{a, b, b0}` (Assumption 4: `sum a = -1`). */
  readonly metric: FractionalMetric;
  /** The solution of the lower system with the same `a` (equals `metric` up to scale ideally). */
  readonly lowerMetric: FractionalMetric | null;
  /** Planes at the most preferred (Algorithm 2) and least preferred (Algorithm 6) sphere points; slopes sum to -1. */
  readonly upper: FractionalPlane;
  readonly lower: FractionalPlane;
  /** Spread of `metric / lowerMetric` on the samples (0 when the two solutions agree). */
  readonly spread: number;
  /** The off-diagonal confusions of the sphere Algorithm 7 compared the metrics on. */
  readonly samples: readonly Float64Array[];
  /** The zeta used for Assumption 4. */
  readonly zeta: readonly number[];
  /** Classifier at the most preferred sphere point. */
  readonly classifier: Classifier;
  readonly questions: number;
  readonly upperQuestions: number;
  readonly lowerQuestions: number;
}

/** Options of Algorithm 6. */
export interface SphereMinOptions {
  readonly tolerance: number;
  readonly strategy: Strategy;
  readonly cycles?: number;
  readonly order?: "forward" | "reverse";
  /** Orthant signs (default all +1: the upper boundary dS+ where decreasing metrics are smallest). */
  readonly signs?: readonly number[];
  readonly onShrink?: (step: ShrinkStep) => void;
}

/**
 * Algorithm 6 (appendix E.2): minimise a quasiconvex metric on the sphere by the same
 * coordinate-wise angle search as Algorithm 2, in the opposite orthant (points
 * `o + rho sigma ⊙ Upsilon(theta)`, sigma = +1, theta in [0, pi/2]^(q-1)) and with the
 * comparisons reversed (`sense: "min"`). Returns the unit direction `u = sigma ⊙ Upsilon` of
 * the least preferred point; the metric's gradient there is a negative multiple of `u`.
 * In `paper` strategy it asks as many questions as Algorithm 2.
 * @example minimiseOnSphere(oracle.ask, sphere, { tolerance: 0.01, strategy: STRATEGIES.paper })
 */
export function minimiseOnSphere(
  ask: Ask<MulticlassPoint>,
  sphere: Sphere,
  o: SphereMinOptions,
): { direction: number[]; theta: number[]; point: MulticlassPoint; questions: number } {
  const q = sphere.dim;
  if (q < 2) throw new RangeError("the sphere search needs at least two coordinates");
  if (!(sphere.rho > 0)) throw new RangeError(sphere.reason ?? "the sphere has radius 0");
  const signs = o.signs ?? new Array<number>(q).fill(1);
  if (signs.length !== q) throw new RangeError(`need ${q} orthant signs, got ${signs.length}`);
  const pointOf = (theta: readonly number[]): MulticlassPoint => {
    const u = upsilon(theta);
    const target = new Float64Array(q);
    for (let i = 0; i < q; i++) target[i] = sphere.centre[i]! + sphere.rho * signs[i]! * u[i]!;
    return { point: target, classifier: realiseOnSphere(sphere, target) };
  };
  const { theta, questions } = searchAngles(ask, {
    angles: q - 1,
    tolerance: o.tolerance,
    strategy: o.strategy,
    sense: "min",
    cycles: o.cycles ?? 2,
    order: o.order,
    stage: (j) => `lfpm-lower-angle-${j + 1}`,
    pointAt: pointOf,
    onShrink: o.onShrink,
  });
  const u = upsilon(theta);
  return {
    direction: Array.from(u, (x, i) => signs[i]! * x),
    theta,
    point: pointOf(theta),
    questions,
  };
}

/**
 * `n` points of the sphere's lower orthant `o - rho Upsilon(theta)`, theta uniform in
 * [0, pi/2]^(q-1) (seeded): Algorithm 7's samples.
 * @example sphereSamples(sphere, 1000, 1).length // 1000
 */
export function sphereSamples(sphere: Sphere, n: number, seed = 1): Float64Array[] {
  const rng = createRng(seed);
  const q = sphere.dim;
  return Array.from({ length: n }, () => {
    const u = upsilon(Array.from({ length: q - 1 }, () => rng.uniform(0, Math.PI / 2)));
    const x = new Float64Array(q);
    for (let i = 0; i < q; i++) x[i] = sphere.centre[i]! - sphere.rho * u[i]!;
    return x;
  });
}

/**
 * The default Assumption-4 constants: the prior of each off-diagonal entry's true class.
 * @example offDiagonalPriors(sphere) // one prior per entry of sphere.centre, that entry's true class
 */
export function offDiagonalPriors(sphere: Sphere): number[] {
  const k = sphere.k;
  // The centre holds zeta_i / k in every entry of row i.
  return Array.from(sphere.centre, (c) => c * k);
}

const sumAbs = (v: readonly number[]) => v.reduce((s, x) => s + Math.abs(x), 0);

/**
 * LFPM elicitation over off-diagonal confusions (NeurIPS 2019 appendix E.2): Algorithm 2
 * finds the most preferred point of the sphere (`elicitSphereLpm`, slope in the all -1
 * orthant), Algorithm 6 the least preferred one (`minimiseOnSphere`, opposite orthant); both
 * slopes are rescaled to sum -1, so that at the true `a` the two solutions of Proposition 8
 * coincide exactly (the member of the Möbius family with `sum b = 0`; keeping Algorithm 2's
 * unit-norm slopes instead breaks that and, in our trials, gave negative `b0`). Algorithm 7
 * then searches, coordinate by coordinate, the numerator `a` (sum -1) at which Proposition 8's
 * solutions for the two planes are constant multiples of each other on n' sphere points, and
 * Proposition 8 with the upper plane gives `b` and `b0`. Assumes Assumption 4 (bounded, decreasing in every off-diagonal confusion).
 *
 * Questions: two sphere searches, `2 * 4 * cycles (q - 1) ceil(log2((pi/2)/eps))` in `paper`
 * strategy (640 for k = 3, 1408 for k = 4 at eps = 0.01 and two cycles).
 * @example elicitLfpm(oracle.ask, sphere, { tolerance: 0.01, strategy: STRATEGIES.paper }).metric
 */
export function elicitLfpm(
  ask: Ask<MulticlassPoint>,
  sphere: Sphere,
  o: LfpmOptions,
): LfpmElicitation {
  const q = sphere.dim;
  const top = elicitSphereLpm(ask, sphere, {
    tolerance: o.tolerance,
    strategy: o.strategy,
    cycles: o.cycles ?? 2,
    order: o.order ?? "forward",
    onShrink: o.onShrink,
  });
  const bottom = minimiseOnSphere(ask, sphere, {
    tolerance: o.tolerance,
    strategy: o.strategy,
    cycles: o.cycles ?? 2,
    order: o.order ?? "forward",
    onShrink: o.onShrink,
  });
  const su = sumAbs(top.metric);
  const upper: FractionalPlane = {
    slope: top.metric.map((x) => x / su),
    point: top.optimum.point,
  };
  const sl = sumAbs(bottom.direction);
  const lower: FractionalPlane = {
    slope: bottom.direction.map((x) => -x / sl),
    point: bottom.point.point,
  };
  const zeta =
    o.zeta === undefined
      ? offDiagonalPriors(sphere)
      : typeof o.zeta === "number"
        ? new Array<number>(q).fill(o.zeta)
        : o.zeta.slice();
  if (zeta.length !== q) throw new RangeError(`zeta needs ${q} entries, got ${zeta.length}`);
  const samples = sphereSamples(sphere, o.samples ?? 1000, o.seed ?? 1);
  const delta = o.gridStep ?? 0.01;

  let closed: number[] | null = null;
  if (o.method === "closed-form") {
    closed = consistentNumerator(upper, lower);
    if (closed && !closed.every((x) => x <= 1e-12)) closed = null;
  }
  let a: number[];
  if (closed !== null) {
    const n = sumAbs(closed);
    a = closed.map((x) => x / n);
  } else {
    // Algorithm 7, coordinate-wise from the upper slope: the share of a_j in a_0 + a_j.
    a = upper.slope.map((x) => x / sumAbs(upper.slope));
    for (let pass = 0; pass < (o.passes ?? 2); pass++) {
      for (let j = 1; j < q; j++) {
        const w = a[0]! + a[j]!;
        const base = a.slice();
        const candidate = (t: number): number[] => {
          const c = base.slice();
          c[0] = (1 - t) * w;
          c[j] = t * w;
          return c;
        };
        const share = pairGrid("lfpm", candidate, upper, lower, zeta, samples, delta).share;
        a = candidate(Math.min(share, 1 - delta / 2));
      }
    }
  }
  const metric = solveFractionalSystem("lfpm", a, upper, zeta);
  if (!metric) throw new RangeError("Proposition 8 has no solution for the elicited slope");
  const lowerMetric = solveFractionalSystem("lfpm", a, lower, zeta);
  return {
    metric,
    lowerMetric,
    upper,
    lower,
    spread: lowerMetric ? ratioSpread(metric, lowerMetric, samples) : Number.NaN,
    samples,
    zeta,
    classifier: top.optimum.classifier,
    questions: top.questions + bottom.questions,
    upperQuestions: top.questions,
    lowerQuestions: bottom.questions,
  };
}
