/**
 * Algorithm 3 (ALGORITHMS.md B.5): a ball around the centre `o` inside the feasible set.
 * For every coordinate j and both directions, find the largest `l_j^±` with `o ± l_j^± e_j`
 * feasible — by default as the exact optimum of that extent's linear program, solved by
 * column generation with the plug-in oracle as pricing (`axisExtent`, extent.ts: a certified
 * gap below `tolerance * bracket`, far fewer oracle calls than bisection); as reference (and
 * fallback when an LP hits its caps), by bisection with the min-norm-point feasibility test
 * on the box-constraint brackets. Either way each `l_j^±` is realised by a mixture of
 * plug-ins. The cross-polytope `conv{o ± l_j e_j}`, `l_j = min(l_j^+, l_j^-)`, then contains the ball of
 * radius `r = 1 / sqrt(sum_j 1 / l_j^2)`, and `rho = margin * r` is the radius to query on.
 *
 * Groups (fairness): pass one space per group; each `l_j^±` is the minimum over groups, so
 * the ball lies in every group's set, and each group gets its own classifiers for the axis
 * points. The groups must share the centre (true for rate spaces; confusion centres depend on
 * each group's priors).
 *
 * @example
 * const sphere = findSphere(createSpace("offdiag-confusion", pool));
 * sphere.radius; sphere.rho;       // in-radius of the cross-polytope, and 0.95 of it
 * sphere.axes[0].plusClassifiers;  // per group, realising o + l_0^+ e_0
 */
import type { Classifier } from "./classifier.ts";
import { constantClassifier, mixtureClassifier, uniformClassifier } from "./classifier.ts";
import { axisExtent, ColumnPool, type ExtentOptions } from "./extent.ts";
import type { ActivePoint, FeasibilityOptions } from "./feasibility.ts";
import { minNormPoint } from "./feasibility.ts";
import { offDiagIndex } from "./indexing.ts";
import { relabelClassifier } from "./relabel.ts";
import type { LmoResult, Space } from "./space.ts";
import { isDiagonalSpace, type SpaceKind } from "./space-kind.ts";

/** Options for `findSphere`. */
export interface SphereOptions {
  /** rho = margin * radius, so queried points keep a distance from the boundary. Default 0.95. */
  readonly margin?: number;
  /**
   * How each extent is found: `"lp"` (default) solves the extent's linear program exactly by
   * column generation (`axisExtent`); `"bisection"` is the reference path, bisection with
   * the min-norm-point feasibility test. An LP that hits its caps falls back to bisection.
   */
  readonly method?: "lp" | "bisection";
  /**
   * Accuracy as a fraction of each axis bracket: bisection stops when the bracket is below
   * it, the LP stops when its certified gap `upper - length` is. Default 1e-6.
   */
  readonly tolerance?: number;
  /**
   * Off-diagonal spaces only: derive the 2(k-1) axis points of each row from one search by
   * relabelling predictions (exact, see `relabelClassifier`). Default true; false runs every
   * axis and direction separately.
   */
  readonly symmetry?: boolean;
  /** Caps and smoothing of the extent LPs (`method: "lp"`). */
  readonly lp?: Pick<
    ExtentOptions,
    "maxOracleCalls" | "maxPivots" | "smoothing" | "oracleCost" | "poolPivotsPerCall"
  >;
  /** Passed to every feasibility test. */
  readonly feasibility?: Omit<FeasibilityOptions, "start">;
}

/** Extents and realising classifiers along one coordinate axis. */
export interface SphereAxis {
  /** Coordinate index j. */
  readonly axis: number;
  /** Class pair (true, predicted) of the coordinate; (i, i) in diagonal spaces. */
  readonly pair: readonly [number, number];
  /** `l_j^+`: largest feasible step along +e_j (minimum over groups). */
  readonly plus: number;
  /** `l_j^-`: largest feasible step along -e_j (minimum over groups). */
  readonly minus: number;
  /** `min(plus, minus)`. */
  readonly extent: number;
  /** Per-group `l_j^+` before taking the minimum. */
  readonly plusByGroup: readonly number[];
  /** Per-group `l_j^-` before taking the minimum. */
  readonly minusByGroup: readonly number[];
  /** Per group, a classifier whose point on that group's pool is `o + plus e_j`. */
  readonly plusClassifiers: readonly Classifier[];
  /** Per group, a classifier whose point on that group's pool is `o - minus e_j`. */
  readonly minusClassifiers: readonly Classifier[];
}

/** Result of Algorithm 3. */
export interface Sphere<K extends SpaceKind = SpaceKind> {
  readonly kind: K;
  readonly k: number;
  readonly dim: number;
  /** Number of groups (pools). */
  readonly groups: number;
  /** The centre `o`. */
  readonly centre: Float64Array;
  /** In-radius of the cross-polytope `conv{o ± l_j e_j}`. */
  readonly radius: number;
  /** `margin * radius`: the radius procedures should query on. */
  readonly rho: number;
  readonly margin: number;
  /** One entry per coordinate (empty when a class has zero prior mass: nothing was searched). */
  readonly axes: readonly SphereAxis[];
  /** Why the radius is 0, or null when it is positive. */
  readonly reason: string | null;
  /**
   * Work done: feasibility tests (bisection), oracle calls (all), tests stopped by the
   * iteration cap, extent LPs solved, and LPs that hit their caps and fell back to bisection.
   */
  readonly stats: {
    feasibilityChecks: number;
    lmoCalls: number;
    iterationCapHits: number;
    linearPrograms: number;
    fallbacks: number;
  };
}

interface Extent {
  length: number;
  classifier: Classifier;
}

/**
 * Run Algorithm 3 on one space or on one space per group; see the module comment.
 *
 * @example
 * findSphere([createSpace("diag-rates", poolA), createSpace("diag-rates", poolB)]).radius;
 */
export function findSphere<K extends SpaceKind>(
  spaces: Space<K> | readonly Space<K>[],
  options: SphereOptions = {},
): Sphere<K> {
  const list: readonly Space<K>[] = Array.isArray(spaces) ? spaces : [spaces as Space<K>];
  if (list.length === 0) throw new RangeError("findSphere needs at least one space");
  const { kind, k, dim } = list[0];
  const margin = options.margin ?? 0.95;
  if (!(margin > 0 && margin <= 1)) throw new RangeError(`margin ${margin} must lie in (0, 1]`);
  for (const [g, s] of list.entries()) {
    if (s.kind !== kind || s.k !== k) throw new RangeError(`group ${g} is a different space`);
  }
  const stats = {
    feasibilityChecks: 0,
    lmoCalls: 0,
    iterationCapHits: 0,
    linearPrograms: 0,
    fallbacks: 0,
  };
  const empty = zeroPrior(list);
  if (empty !== null) {
    const centre = Float64Array.from(list[0].centre);
    const base = { kind, k, dim, groups: list.length, centre, radius: 0, rho: 0, margin };
    return Object.freeze({ ...base, axes: Object.freeze([]), reason: empty, stats });
  }
  const centre = Float64Array.from(list[0].centre);
  for (const [g, s] of list.entries()) {
    for (let a = 0; a < dim; a++) {
      if (Math.abs(s.centre[a] - centre[a]) > 1e-12) {
        throw new RangeError(
          `group ${g} has a different centre o (confusion centres depend on each group's priors); use a rate space for groups`,
        );
      }
    }
  }
  const method = options.method ?? "lp";
  const relTol = options.tolerance ?? 1e-6;
  const uniform = uniformClassifier(k);

  // Column generation: one column pool per space (shared by its extents), started from the
  // constant classifiers, whose uniform mixture is the centre.
  const lpState = new Map<Space<K>, { pool: ColumnPool; start: ActivePoint[] }>();
  const lpExtent = (space: Space<K>, axis: number, sign: 1 | -1): Extent | null => {
    let state = lpState.get(space);
    if (state === undefined) {
      const start = Array.from({ length: k }, (_, j) => ({
        point: space.vertex(j),
        classifier: constantClassifier(k, j),
        weight: 1 / k,
      }));
      state = { pool: new ColumnPool(centre), start };
      lpState.set(space, state);
    }
    // Work balance: an oracle call costs ~N * (k or k^2); a pivot ~(dim + 1) * (2 (dim + 1)
    // + scanned columns). Scan at most an eighth of an oracle call per pricing step, and
    // allow as many pool pivots between oracle calls as a quarter of a call pays for.
    const m = dim + 1;
    const oracleWork = space.pool.n * (isDiagonalSpace(kind) ? k : k * k);
    const scan = Math.max(m, Math.floor(oracleWork / (8 * m)));
    const scanned = Math.min(scan, state.pool.size + 4 * m);
    const res = axisExtent(centre, axis, sign, space.lmo, {
      oracleCost: scan,
      poolPivotsPerCall: Math.max(1, Math.floor(oracleWork / (4 * m * (2 * m + scanned)))),
      ...options.lp,
      start: state.start,
      pool: state.pool,
      tolerance: relTol * space.bracket(axis, sign),
    });
    stats.linearPrograms++;
    stats.lmoCalls += res.oracleCalls;
    if (!res.converged) return null;
    return { length: res.length, classifier: res.length > 0 ? res.mixture : uniform };
  };

  /** Largest feasible step from o along sign * e_axis in one space (LP, else bisection). */
  const extent = (space: Space<K>, axis: number, sign: 1 | -1): Extent => {
    if (method === "lp") {
      const found = lpExtent(space, axis, sign);
      if (found !== null) return found;
      stats.fallbacks++;
    }
    return bisect(space, axis, sign);
  };

  /**
   * The reference path: largest feasible step by bisection on [0, bracket],
   * accelerated by the infeasibility certificates: a certificate at step t gives a
   * supporting hyperplane, and where the ray meets it is an upper bound that is exact once
   * the hyperplane supports the face the ray leaves through. So the next probe is that cut
   * point; plain halving takes over whenever two probes fail to halve the interval.
   */
  const bisect = (space: Space<K>, axis: number, sign: 1 | -1): Extent => {
    let lo = 0;
    let hi = space.bracket(axis, sign);
    let best: Extent = { length: 0, classifier: uniform };
    const stop = relTol * hi;
    let warm: readonly LmoResult[] = [];
    let hiTested = false;
    // Set when the last probe missed the set by much less than the tolerance but gave no
    // usable cut (rounding): a probe just below `hi` then usually ends the search at once.
    let grazing = false;
    let checkWidth = hi;
    let probes = 0;
    while (hi - lo > stop) {
      let t = !hiTested
        ? hi
        : grazing
          ? Math.max(0.5 * (lo + hi), hi - 0.5 * stop)
          : 0.5 * (lo + hi);
      if (++probes > 2) {
        if (hi - lo > 0.5 * checkWidth) t = 0.5 * (lo + hi);
        checkWidth = hi - lo;
        probes = 1;
      }
      const target = Float64Array.from(centre);
      target[axis] += sign * t;
      const res = minNormPoint(target, space.lmo, { ...options.feasibility, start: warm });
      stats.feasibilityChecks++;
      stats.lmoCalls += res.lmoCalls;
      if (!res.converged) stats.iterationCapHits++;
      warm = res.active;
      if (res.feasible) {
        lo = t;
        best = { length: t, classifier: res.mixture };
        continue;
      }
      // Feasible o + u s e_a must satisfy (u - t) s x_a >= ||x||^2 - gap.
      hi = t;
      hiTested = true;
      grazing = res.distance <= 0.1 * stop;
      const slope = -sign * res.normal[axis];
      const margin2 = res.distance * res.distance - res.gap;
      if (res.converged && slope > 0 && margin2 > 0) {
        const cut = Math.max(lo, t - margin2 / slope);
        if (cut < hi) {
          hi = cut;
          hiTested = false;
        }
      }
    }
    return best;
  };

  // A group whose own extent is longer reaches the common one by mixing its axis classifier
  // with the uniform classifier (o is feasible in every group).
  const shrink = (e: Extent, length: number): Classifier => {
    if (length <= 0) return uniform;
    if (length === e.length) return e.classifier;
    const t = length / e.length;
    return mixtureClassifier([
      { classifier: e.classifier, weight: t },
      { classifier: uniform, weight: 1 - t },
    ]);
  };
  const makeAxis = (
    axis: number,
    plusRuns: Extent[],
    minusRuns: Extent[],
    relabel?: {
      plus: number[];
      minus: number[];
    },
  ): SphereAxis => {
    const plus = Math.min(...plusRuns.map((e) => e.length));
    const minus = Math.min(...minusRuns.map((e) => e.length));
    const plusClassifiers = plusRuns.map((e) => shrink(e, plus));
    const minusClassifiers = minusRuns.map((e) => shrink(e, minus));
    return Object.freeze({
      axis,
      pair: Object.freeze(list[0].pair(axis)),
      plus,
      minus,
      extent: Math.min(plus, minus),
      plusByGroup: Object.freeze(plusRuns.map((e) => e.length)),
      minusByGroup: Object.freeze(minusRuns.map((e) => e.length)),
      plusClassifiers: Object.freeze(
        relabel ? plusClassifiers.map((c) => relabelClassifier(c, relabel.plus)) : plusClassifiers,
      ),
      minusClassifiers: Object.freeze(
        relabel
          ? minusClassifiers.map((c) => relabelClassifier(c, relabel.minus))
          : minusClassifiers,
      ),
    });
  };

  const axes: SphereAxis[] = [];
  if ((options.symmetry ?? true) && !isDiagonalSpace(kind)) {
    // Off-diagonal spaces: permuting predicted labels maps the feasible set to itself and
    // fixes o (constant within rows), and carries o + t e_(i,j0) to o + t e_(i,j) (swap j0, j)
    // and on to o - t e_(i,j) (then swap i, j). One search per row serves all 2(k-1) axis
    // points of that row, exactly.
    const swap = (p: number[], a: number, b: number) =>
      p.map((v) => (v === a ? b : v === b ? a : v));
    for (let i = 0; i < k; i++) {
      const j0 = i === 0 ? 1 : 0;
      const runs = list.map((s) => extent(s, offDiagIndex(i, j0, k), 1));
      for (let j = 0; j < k; j++) {
        if (j === i) continue;
        const identity = Array.from({ length: k }, (_, c) => c);
        const plus = swap(identity, j0, j);
        const minus = swap(plus, i, j);
        axes.push(makeAxis(offDiagIndex(i, j, k), runs, runs, { plus, minus }));
      }
    }
  } else {
    for (let axis = 0; axis < dim; axis++) {
      const plusRuns = list.map((s) => extent(s, axis, 1));
      const minusRuns = list.map((s) => extent(s, axis, -1));
      axes.push(makeAxis(axis, plusRuns, minusRuns));
    }
  }

  let reason: string | null = null;
  let inverseSquares = 0;
  for (const a of axes) inverseSquares += a.extent > 0 ? 1 / (a.extent * a.extent) : Infinity;
  const radius = Number.isFinite(inverseSquares) ? 1 / Math.sqrt(inverseSquares) : 0;
  if (radius === 0) reason = explainZero(list, axes);
  return Object.freeze({
    kind,
    k,
    dim,
    groups: list.length,
    centre,
    radius,
    rho: margin * radius,
    margin,
    axes: Object.freeze(axes),
    reason,
    stats,
  });
}

/** The reason when some group has a class of zero prior mass, else null. */
function zeroPrior(list: readonly Space[]): string | null {
  for (const [g, s] of list.entries()) {
    const i = s.pool.priors.findIndex((z) => !(z > 0));
    if (i >= 0) {
      const where = list.length > 1 ? ` in group ${g}` : "";
      return `class ${i} has zero prior mass${where}: every statistic of that class is fixed, so no ball around the centre fits in the feasible set`;
    }
  }
  return null;
}

/** A one-line explanation of a zero radius: the first flat axis and direction. */
function explainZero(list: readonly Space[], axes: readonly SphereAxis[]): string {
  const a = axes.find((x) => x.extent === 0) as SphereAxis;
  const side = a.plus === 0 ? "+" : "-";
  const g = (side === "+" ? a.plusByGroup : a.minusByGroup).indexOf(0);
  const where = list.length > 1 ? ` in group ${g}` : "";
  const [i, j] = a.pair;
  return `the feasible set is flat along coordinate ${a.axis} (true class ${i}, predicted ${j}) in the ${side} direction${where}: the class probabilities cannot move it from the centre (e.g. eta does not separate these classes)`;
}
