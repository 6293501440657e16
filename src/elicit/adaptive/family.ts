import type { Rng } from "../../math/rng.ts";

/**
 * What the adaptive engine needs to know about one metric family, written once per family
 * (families/*.ts). Every supported family is linear in its parameters: a metric is a unit
 * vector `w` of dimension `dim` and its value at a query point is `<w, features(point)>`, so
 * each answer "A is preferred to B" is the half-space `<w, features(A) - features(B)> >= 0`
 * (ALGORITHMS.md F). The family converts `w` to its own metric type and normalisation.
 *
 * @example
 * const family = binaryLinearFamily(syntheticPopulation(), { displayStep: 1e-3 });
 * family.features(point); // Float64Array [tp, tn]
 */
export interface AdaptiveFamily<P, M> {
  /** Family name, for reports. */
  readonly name: string;
  /** Dimension of the parameter vector `w`. */
  readonly dim: number;
  /** Per parameter: +1 (known >= 0), -1 (known <= 0) or 0 (either sign). */
  readonly signs: readonly number[];
  /**
   * Optional: the prior's share on sparse metrics for this family (default `SPARSE_SHARE`).
   * The binary LPM sets 0: its one parameter is an angle, which the papers draw uniformly and
   * where "sparse" only bunches the prior at the two ends.
   */
  readonly sparseShare?: number;
  /**
   * Optional: sweeps of moves per answer under the exact model (default `defaultMoves`,
   * max(8, dim)). The multiclass families set 2 dim up to 24: the answers about a pool's
   * vertices leave a thin polytope that dim sweeps explore too little.
   */
  readonly exactMoves?: number;
  /**
   * Optional: how exact answers' questions are chosen (default "split"). "split" takes the
   * pair that best halves the belief; "spread" takes, among the pairs within 0.05 bit of
   * the best halving, the one whose answer leaves the least expected variance of the
   * reported coordinates, so cuts go across the belief's widest extent. The quadratic and
   * the multiclass linear families up to 12 weights set "spread" (QPME k = 2 no longer spends its whole budget
   * of 40 on B; LPM k = 4 asks 11% fewer questions); on the DLPM, fair and cubic families it
   * covered the truth less often (86%, 70%, 70% for 90% regions), so they keep "split".
   * Not used for a grid belief (one parameter: every halving is the same cut).
   */
  readonly cutBy?: "split" | "spread";
  /** The family's error measure, e.g. "angle (rad)" or "max |a_i - a_i'|". */
  readonly errorName: string;
  /** Names of the reported coordinates (`coordinates`), for the identification report. */
  readonly coordinateNames: readonly string[];
  /** The feature map: the metric's value at `point` is `<w, features(point)>`. */
  features(point: P): Float64Array;
  /**
   * Realisable query points for the parameter vectors `ws` (unit norm, drawn from the
   * belief): typically the point optimal for each on the pool, plus family-specific extras
   * (points of the sphere, mixtures). Order matters only for determinism.
   */
  candidates(ws: readonly Float64Array[], rng: Rng): P[];
  /**
   * Optional: realisable pairs whose feature difference is along each given direction (for
   * instance `o + rho n` and `o - rho n` on a sphere around `o`). The engine passes the
   * belief's principal axes (orthogonal to its mean), so a pair cuts the belief through its
   * mean across its widest spread. Returns the points, two per direction it can realise.
   */
  cutPoints?(normals: readonly Float64Array[]): P[];
  /**
   * Optional: every distinct point as shown, for a family with few of them (a binary study's
   * thresholds on whole people of 100), offered to the question selection beside the
   * candidates.
   */
  everyPoint?(): readonly P[];
  /** What a person sees of a point at the display precision: equal keys look identical. */
  displayKey(point: P): string;
  /** The point (and classifier) optimal for `w`: the recommendation for the elicited metric. */
  optimal(w: Float64Array): P;
  /** Convert a parameter vector to the family's metric, in the family's normalisation. */
  toMetric(w: Float64Array): M;
  /** The family's error between two metrics (the tolerance is in these units). */
  error(a: M, b: M): number;
  /**
   * Optional, for speed: a function giving `error(toMetric(w), metric)` for a parameter
   * vector `w`, to the bit, without building `toMetric(w)` (the credible region takes it for
   * every particle after every answer).
   */
  errorFrom?(metric: M): (w: Float64Array) => number;
  /** The coordinates reported for identification (e.g. the angle, the weights a_i). */
  coordinates(m: M): number[];
  /**
   * Optional: the parts of the error measure that no single coordinate is (the fair metric's
   * `||a - a'||` and `sum ||B - B'||_F`), each reported unidentified, as a coordinate is, when
   * its credible distance from the estimate is above the tolerance. Without them every
   * coordinate could be within the tolerance while a norm over several is not.
   */
  readonly parts?: {
    readonly names: readonly string[];
    /** Each part's distance between two metrics, in `names`' order. */
    distances(a: M, b: M): number[];
  };
}

/** Thrown (as a one-line message) for a family the adaptive engine cannot run. */
export class UnsupportedFamilyError extends RangeError {}
