import type { Classifier } from "../../geometry/multiclass/classifier.ts";
import type { MulticlassPool } from "../../geometry/multiclass/pool.ts";
import type { Sphere } from "../../geometry/multiclass/sphere.ts";
import { STRATEGIES, type StrategyName } from "../../search/strategy.ts";
import type { Procedure } from "../session.ts";
import { type DlfpmElicitation, elicitDlfpm } from "./dlfpm.ts";
import { elicitDlpm } from "./dlpm.ts";
import type { FractionalMetric } from "./fractional-grid.ts";
import type { UnresolvedPair } from "./identical.ts";
import { elicitLfpm, type LfpmElicitation } from "./lfpm.ts";
import type { MulticlassPoint } from "./point.ts";
import { elicitSphereLpm } from "./sphere-lpm.ts";

/** Multiclass metric families. */
export type MulticlassFamily =
  | "diagonal-linear"
  | "linear"
  | "diagonal-linear-fractional"
  | "linear-fractional";

export const MULTICLASS_FAMILIES: readonly MulticlassFamily[] = [
  "diagonal-linear",
  "linear",
  "diagonal-linear-fractional",
  "linear-fractional",
];

/**
 * Flatness thresholds of the sphere families (issue 10). The in-radius of the feasible set
 * found by Algorithm 3, `sphere.radius`, must be at least `FLAT_SPHERE_ABSOLUTE` and at least
 * `FLAT_SPHERE_RELATIVE` times the feasible set's largest axis extent
 * `max_j max(l_j^+, l_j^-)`. The relative bound is the accuracy Algorithm 3 finds each extent
 * to (`SphereOptions.tolerance`, 1e-6 of the axis bracket, which is at least the extent): a
 * smaller radius cannot be told from 0, and querying on it only burns questions. The check is
 * on the feasible set's radius, not on the query radius `rho`: a deliberately small `rho`
 * inside a healthy set (the paper's Table 7 goes down to 1e-12) is still allowed.
 */
export const FLAT_SPHERE_ABSOLUTE = 1e-9;
export const FLAT_SPHERE_RELATIVE = 1e-6;

/**
 * Throw a one-line RangeError when the sphere's feasible set is too flat to query on (see
 * `FLAT_SPHERE_ABSOLUTE`, `FLAT_SPHERE_RELATIVE`).
 * @example assertQueryableSphere(findSphere(createSpace("offdiag-confusion", pool)))
 */
export function assertQueryableSphere(sphere: Sphere): void {
  let largest = 0;
  for (const a of sphere.axes) largest = Math.max(largest, a.plus, a.minus);
  const { radius, rho } = sphere;
  if (radius >= FLAT_SPHERE_ABSOLUTE && radius >= FLAT_SPHERE_RELATIVE * largest && rho > 0) {
    return;
  }
  const why = sphere.reason ? ` (${sphere.reason})` : "";
  throw new RangeError(
    `the sphere of Algorithm 3 has radius ${radius.toExponential(2)} (rho ${rho.toExponential(2)}, largest axis extent ${largest.toExponential(2)}): the pool's feasible set is too flat in some direction for the sphere search${why}; try --strategy adaptive, which queries the pool's own classifiers`,
  );
}

/**
 * Families that query points of the sphere (and need it).
 * @example usesSphere("linear") // true; usesSphere("diagonal-linear") // false
 */
export function usesSphere(family: MulticlassFamily): boolean {
  return family === "linear" || family === "linear-fractional";
}

/** Everything that determines a multiclass elicitation apart from the pool, sphere and answers. */
export interface MulticlassSpec {
  readonly family: MulticlassFamily;
  /** Search tolerance: on m in [0, 1] (DLPM) or on each angle (LPM). Paper: 0.01. */
  readonly tolerance: number;
  readonly strategy: StrategyName;
  /** DLPM: pivot class 0 (paper) or the pivot-selection pass. */
  readonly pivot?: "first" | "select";
  /** LPM: number of sweeps over the angles (paper: 2) and their order. */
  readonly cycles?: number;
  readonly order?: "forward" | "reverse";
}

export interface MulticlassResult {
  readonly family: MulticlassFamily;
  /**
   * DLPM weights (sum 1, >= 0), LPM weights over off-diagonal confusions (unit L2, <= 0), or
   * the numerator `a` of a fractional metric (sum 1 / sum -1, the appendix's normalisation).
   */
  readonly metric: number[];
  /** Fractional families: the whole elicited metric and the points Algorithm 5 / 7 compared on. */
  readonly fractional?: {
    readonly metric: FractionalMetric;
    readonly samples: readonly ArrayLike<number>[];
  };
  /** The optimal classifier for the elicited metric: a plug-in (DLPM) or a sphere mixture (LPM). */
  readonly classifier: Classifier;
  readonly questions: number;
  /**
   * DLPM and DLFPM: the class pairs whose searches compared identical systems (`UnresolvedPair`),
   * whose weights the answers do not place to the tolerance.
   */
  readonly unresolved?: UnresolvedPair[];
}

/**
 * The procedure a spec describes. The LPM family needs the sphere of Algorithm 3 on the pool
 * (compute it once with `findSphere(createSpace("offdiag-confusion", pool))`).
 * @example runProcedure(multiclassProcedure(spec, pool, sphere), oracle.ask).result.metric
 */
export function multiclassProcedure(
  spec: MulticlassSpec,
  pool: MulticlassPool,
  sphere?: Sphere,
): Procedure<MulticlassPoint, MulticlassResult> {
  const { family, tolerance } = spec;
  const strategy = STRATEGIES[spec.strategy];
  if (family === "diagonal-linear" || family === "diagonal-linear-fractional") {
    // DLPM and DLFPM run the same pairwise searches around a pivot class.
    const o = { tolerance, strategy, pivot: spec.pivot ?? "first" } as const;
    if (family === "diagonal-linear-fractional") {
      return (ask) => fractionalResult(family, elicitDlfpm(ask, pool, o));
    }
    return (ask) => {
      const r = elicitDlpm(ask, pool, o);
      return {
        family,
        metric: r.metric,
        classifier: r.classifier,
        questions: r.questions,
        unresolved: r.unresolved,
      };
    };
  }
  if (!sphere) throw new RangeError(`the ${family} family needs the sphere of Algorithm 3`);
  // A flat sphere: say so before any question (not thousands of questions on a point).
  assertQueryableSphere(sphere);
  // LPM and LFPM run the same angle search on the sphere (LFPM then also its opposite orthant).
  const o = {
    tolerance,
    strategy,
    cycles: spec.cycles ?? 2,
    order: spec.order ?? "forward",
  } as const;
  if (family === "linear-fractional") {
    return (ask) => fractionalResult(family, elicitLfpm(ask, sphere, o));
  }
  return (ask) => {
    const r = elicitSphereLpm(ask, sphere, o);
    return { family, metric: r.metric, classifier: r.optimum.classifier, questions: r.questions };
  };
}

/** A fractional family's result: the numerator `a` as `metric`, plus the whole metric. */
function fractionalResult(
  family: MulticlassFamily,
  r: DlfpmElicitation | LfpmElicitation,
): MulticlassResult {
  return {
    family,
    metric: r.metric.a,
    fractional: { metric: r.metric, samples: r.samples },
    classifier: r.classifier,
    questions: r.questions,
    ...("unresolved" in r ? { unresolved: r.unresolved } : {}),
  };
}

/**
 * Questions the `paper` strategy asks: `4 (k-1) ceil(log2(1/eps))` (DLPM) and
 * `4 * cycles (q-1) ceil(log2((pi/2)/eps))` (LPM).
 * @example paperMulticlassCount({ family: "linear", tolerance: 0.01, strategy: "paper" }, 3) // 320
 */
export function paperMulticlassCount(spec: MulticlassSpec, k: number): number {
  if (spec.family === "diagonal-linear") {
    return (
      4 * (k - 1) * Math.ceil(Math.log2(1 / spec.tolerance)) * (spec.pivot === "select" ? 2 : 1)
    );
  }
  const q = k * k - k;
  return 4 * (spec.cycles ?? 2) * (q - 1) * Math.ceil(Math.log2(Math.PI / 2 / spec.tolerance));
}
