/**
 * A *space* bundles what the generic feasibility and sphere code needs about one statistic
 * on one pool: its dimension, centre `o`, the map from a confusion matrix to a point, the
 * linear maximisation oracle (a plug-in, B.1) and the bisection brackets of B.5. The same
 * `minNormPoint` / `findSphere` code then serves diagonal and off-diagonal confusions and
 * rates alike.
 *
 * @example
 * const space = createSpace("offdiag-confusion", pool);
 * space.dim;                         // k^2 - k
 * const { point, classifier } = space.lmo(direction); // maximises <direction, point>
 */
import type {
  ConfusionMatrix,
  DiagConfusion,
  DiagRates,
  OffDiagConfusion,
  OffDiagRates,
} from "./brands.ts";
import type { Classifier, PluginClassifier } from "./classifier.ts";
import { constantClassifier } from "./classifier.ts";
import { expectedConfusion } from "./expected-confusion.ts";
import { pluginClassifier, pluginConfusion } from "./plugin.ts";
import type { MulticlassPool } from "./pool.ts";
import { isDiagonalSpace, isRateSpace, type SpaceKind, spaceDimension } from "./space-kind.ts";

/** The point type of each space. */
export interface SpacePoints {
  "diag-confusion": DiagConfusion;
  "offdiag-confusion": OffDiagConfusion;
  "diag-rates": DiagRates;
  "offdiag-rates": OffDiagRates;
}

/** What a linear maximisation oracle returns: a feasible point and the plug-in achieving it. */
export interface LmoResult<P extends Float64Array = Float64Array> {
  readonly point: P;
  readonly classifier: PluginClassifier;
}

/** A statistic space over one pool; see the module comment. */
export interface Space<K extends SpaceKind = SpaceKind> {
  readonly kind: K;
  readonly pool: MulticlassPool;
  /** Number of classes. */
  readonly k: number;
  /** Dimension of the space (k or k^2 - k). */
  readonly dim: number;
  /** Centre `o`: the point of the uniform random classifier. */
  readonly centre: SpacePoints[K];
  /** Map a confusion matrix on this pool to a point of the space. */
  point(confusion: ConfusionMatrix): SpacePoints[K];
  /** Point of any (randomised) classifier, computed exactly on the pool. */
  realise(classifier: Classifier): SpacePoints[K];
  /** A feasible point maximising `<direction, point>`, with the plug-in achieving it. */
  lmo(direction: ArrayLike<number>): LmoResult<SpacePoints[K]>;
  /** Point of the constant classifier "always j" (a vertex). */
  vertex(j: number): SpacePoints[K];
  /**
   * Upper bound on `t` such that `o + sign * t * e_axis` can be feasible, from the box
   * constraints alone (B.5); the bisection of Algorithm 3 starts from `[0, bracket]`.
   */
  bracket(axis: number, sign: 1 | -1): number;
  /** Class-pair (row, column) of a coordinate; diagonal spaces give (i, i). */
  pair(axis: number): [number, number];
}

/**
 * Create the space `kind` over `pool`.
 *
 * @example
 * createSpace("diag-rates", pool).centre; // [1/k, ..., 1/k]
 */
export function createSpace<K extends SpaceKind>(kind: K, pool: MulticlassPool): Space<K> {
  const { k, priors } = pool;
  const dim = spaceDimension(kind, k);
  const diagonal = isDiagonalSpace(kind);
  const rates = isRateSpace(kind);
  // Rows of a zero-prior class are identically 0 on the pool; their "rates" are reported as
  // 0 so that the sphere code can diagnose the class instead of dividing by zero.
  const rowScale = Float64Array.from(priors, (z) => (rates ? (z > 0 ? 1 / z : 0) : 1));
  const point = (confusion: ConfusionMatrix): SpacePoints[K] => {
    if (confusion.length !== k * k) throw new RangeError(`expected a ${k}x${k} confusion matrix`);
    const out = new Float64Array(dim);
    if (diagonal) {
      for (let i = 0; i < k; i++) out[i] = confusion[i * k + i] * rowScale[i];
    } else {
      let t = 0;
      for (let i = 0; i < k; i++) {
        for (let j = 0; j < k; j++) if (j !== i) out[t++] = confusion[i * k + j] * rowScale[i];
      }
    }
    return out as SpacePoints[K];
  };
  const centre = new Float64Array(dim);
  for (let a = 0; a < dim; a++) {
    const i = diagonal ? a : Math.floor(a / (k - 1));
    centre[a] = rates ? (priors[i] > 0 ? 1 / k : 0) : priors[i] / k;
  }
  const pair = (axis: number): [number, number] => {
    if (!Number.isInteger(axis) || axis < 0 || axis >= dim) {
      throw new RangeError(`axis ${axis} not in 0..${dim - 1}`);
    }
    if (diagonal) return [axis, axis];
    const i = Math.floor(axis / (k - 1));
    const r = axis - i * (k - 1);
    return [i, r < i ? r : r + 1];
  };
  return Object.freeze({
    kind,
    pool,
    k,
    dim,
    centre: centre as SpacePoints[K],
    point,
    realise: (classifier: Classifier) => point(expectedConfusion(pool, classifier)),
    lmo: (direction: ArrayLike<number>) => {
      const classifier = pluginClassifier(kind, direction, priors);
      return { point: point(pluginConfusion(pool, classifier)), classifier };
    },
    vertex: (j: number) => point(pluginConfusion(pool, constantClassifier(k, j))),
    bracket: (axis: number, sign: 1 | -1) => {
      const [i] = pair(axis);
      const unit = rates ? (priors[i] > 0 ? 1 : 0) : priors[i];
      // Off-diagonal: the diagonal entry absorbs the move, so both ways stop at unit/k.
      // Diagonal: up to the whole row (unit), down to 0.
      if (!diagonal || sign < 0) return unit / k;
      return unit * (1 - 1 / k);
    },
    pair,
  });
}
