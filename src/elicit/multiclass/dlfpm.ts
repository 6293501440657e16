import type { DiagConfusion } from "../../geometry/multiclass/brands.ts";
import type { PluginClassifier } from "../../geometry/multiclass/classifier.ts";
import { leastSquares } from "../../geometry/multiclass/linsolve.ts";
import { pluginClassifier, pluginConfusion } from "../../geometry/multiclass/plugin.ts";
import type { MulticlassPool } from "../../geometry/multiclass/pool.ts";
import { restrictedBayesOptimal } from "../../geometry/multiclass/rbo.ts";
import { normalizeL1 } from "../../math/vector.ts";
import type { Ask } from "../../search/question.ts";
import type { Strategy } from "../../search/strategy.ts";
import { type ShrinkStep, searchUnimodal } from "../../search/unimodal-search.ts";
import {
  consistentNumerator,
  type FractionalMetric,
  type FractionalPlane,
  pairGrid,
  ratioSpread,
  solveFractionalSystem,
} from "./fractional-grid.ts";
import { countingIdentical, type UnresolvedPair } from "./identical.ts";
import type { MulticlassPoint } from "./point.ts";

/** Options of DLFPM elicitation. */
export interface DlfpmOptions {
  /** Tolerance of every boundary search on m in [0, 1] (paper: 0.01). */
  readonly tolerance: number;
  readonly strategy: Strategy;
  /**
   * How the ratios `a_j / a_0` are found from the two planes of each pair: `grid` (Algorithm 5,
   * the paper) or `closed-form` (the exact solution of the condition the grid approximates,
   * `consistentNumerator`). Neither asks questions.
   */
  readonly method?: "grid" | "closed-form";
  /** Algorithm 5's n': boundary points per pair (paper: 1000). */
  readonly samples?: number;
  /** Algorithm 5's delta (paper: 0.01). */
  readonly gridStep?: number;
  /**
   * How `b` and `b0` are found once `a` is known: `pairwise` (default) solves the restricted
   * upper planes of all pairs jointly (exact, see `pairwiseDenominator`); `global-plane` is
   * the appendix's literal recipe, Proposition 6 with the slope assembled from the pairwise
   * searches and its Bayes optimal point. The latter treats the restricted maxima as if they
   * were the global one and is biased when `b` is far from 0 (Table 8, row 3).
   */
  readonly denominator?: "pairwise" | "global-plane";
  /**
   * `first`: class 0 is the pivot (Algorithm 5 as printed; the paper's question counts).
   * `select`: first the pivot-selection pass of DLPM (ALGORITHMS.md A.4) on the upper
   * boundaries, `(k - 1)` more searches, so the pivot carries a large weight; with a small
   * pivot weight the restricted optima sit at corners of `D_{p,j}` (see `isCornerPlane`).
   */
  readonly pivot?: "first" | "select";
  readonly onShrink?: (step: ShrinkStep) => void;
}

/** What one pair (0, j) contributed. */
export interface DlfpmPair {
  readonly pair: readonly [number, number];
  /** Maximiser on the upper boundary of D_{0,j} (Algorithm 1) and minimiser on the lower (Algorithm 4). */
  readonly mUpper: number;
  readonly mLower: number;
  /** Restricted supporting planes at those points. */
  readonly upper: FractionalPlane;
  readonly lower: FractionalPlane;
  /** `a_j / (a_0 + a_j)` found by Algorithm 5 (or the closed form) and its ratio spread. */
  readonly share: number;
  readonly spread: number;
}

/** Result of DLFPM elicitation. */
export interface DlfpmElicitation {
  /** Elicited `{a, b, b0}` (Assumption 3: `sum a = 1`, `b0 = sum (a - b) zeta`). */
  readonly metric: FractionalMetric;
  /** The solution of system (14) with the same `a` (lower plane); equals `metric` up to scale ideally. */
  readonly lowerMetric: FractionalMetric | null;
  /** Global planes: slope from the pairwise searches, point = (inverse) Bayes optimal for it. */
  readonly upper: FractionalPlane;
  readonly lower: FractionalPlane;
  readonly pairs: readonly DlfpmPair[];
  readonly pivot: number;
  /** The diagonal confusions Algorithm 5 compared the metrics on (n' per pair, on dD+_{0,j}). */
  readonly samples: readonly DiagConfusion[];
  /** Bayes optimal classifier for the upper slope (the elicited metric's approximate maximiser). */
  readonly classifier: PluginClassifier;
  readonly questions: number;
  readonly upperQuestions: number;
  readonly lowerQuestions: number;
  /**
   * The pairs whose two searches (upper and lower boundary) compared identical systems
   * (`UnresolvedPair`): on a finite pool's flat boundary the answers do not place that pair's
   * lines to the tolerance. Empty on a continuous population.
   */
  readonly unresolved: UnresolvedPair[];
}

/**
 * The restricted inverse-Bayes classifier of the pair (k1, k2) (the appendix's `nu-(m)`):
 * restricted to {k1, k2}, it minimises `m d_k1 + (1 - m) d_k2`, i.e. it is the plug-in for the
 * weights `-m` at k1 and `-(1 - m)` at k2. As m runs over [0, 1] its diagonal confusion
 * traces the lower boundary of `D_{k1,k2}` from `zeta_k1 e_k1` (m = 0) to `zeta_k2 e_k2`
 * (m = 1); both ends are exactly those vertices.
 * @example restrictedInverseBayes(pool, 0, 1, 0.5).point
 */
export function restrictedInverseBayes(
  pool: MulticlassPool,
  k1: number,
  k2: number,
  m: number,
): { point: DiagConfusion; classifier: PluginClassifier } {
  const k = pool.k;
  if (!(m >= 0 && m <= 1)) throw new RangeError(`m = ${m} must lie in [0, 1]`);
  if (k1 === k2) throw new RangeError("a restricted classifier needs two different classes");
  const w = new Array<number>(k).fill(0);
  w[k1] = -m;
  w[k2] = -(1 - m);
  // At m = 1 the literal rule still picks k1 where eta_k1(x) = 0; make the end the vertex.
  const classifier = pluginClassifier("diag-confusion", w, pool.priors, m === 1 ? [k2] : [k1, k2]);
  return { point: diagonalOf(pool, classifier), classifier };
}

function diagonalOf(pool: MulticlassPool, classifier: PluginClassifier): DiagConfusion {
  const C = pluginConfusion(pool, classifier);
  const k = pool.k;
  const d = new Float64Array(k);
  for (let i = 0; i < k; i++) d[i] = C[i * k + i]!;
  return d as DiagConfusion;
}

function pairWeights(k: number, p: number, j: number, atP: number, atJ: number): number[] {
  const w = new Array<number>(k).fill(0);
  w[p] = atP;
  w[j] = atJ;
  return w;
}

/**
 * `n` points evenly spread (midpoints) over the upper boundary `dD+_{p,j}`: the RBO diagonal
 * confusions of `nu(m)` (Algorithm 5's samples, as F.3 describes them).
 * @example upperBoundarySamples(pool, 0, 1, 1000).length // 1000
 */
export function upperBoundarySamples(
  pool: MulticlassPool,
  p: number,
  j: number,
  n: number,
): DiagConfusion[] {
  return Array.from(
    { length: n },
    (_, i) => restrictedBayesOptimal(pool, p, j, (i + 0.5) / n).point,
  );
}

/**
 * Whether a restricted plane touches `D_{p,j}` at one of its vertices `zeta e_p`, `zeta e_j`.
 * On a population with bounded likelihood ratios (such as the reproduction's) the restricted
 * sets have corners there, and the search then returns some normal of the corner's cone, not
 * the metric's gradient; such planes carry no tangency information.
 * @example if (isCornerPlane(plane, p, j)) continue; // a corner's plane says nothing about the gradient
 */
export function isCornerPlane(plane: FractionalPlane, p: number, j: number): boolean {
  return !(plane.point[p]! > 1e-12) || !(plane.point[j]! > 1e-12);
}

/**
 * `b` and `b0` from `a` and the restricted planes of the pairs (p, j). A plane of `D_{p,j}`
 * tangent at `x` with slope `s` says `a - tau b = alpha s`, `tau b0 = alpha <s, x>` on the two
 * coordinates, i.e. `b_i / b0 = (u a_i - s_i) / <s, x>` with one unknown `u = 1 / alpha`;
 * eliminating `u` leaves one linear equation in `beta = b / b0`:
 * `a_p beta_j - a_j beta_p = (s_p a_j - s_j a_p) / <s, x>`. All planes that do not sit at a
 * corner (`isCornerPlane`; both the upper and the lower ones) are solved jointly by least
 * squares. `beta + t a` solves the same equations for every t — the Möbius family of
 * equivalent metrics (module comment of fractional-grid.ts); we take the member with
 * `sum b = 0`, which is what Proposition 6 returns for the exact global plane with
 * `sum a = sum s = 1`, and `b0` from Assumption 3. A pair whose planes are all corners falls
 * back on its upper plane. Returns null when `b0` is not finite.
 * @example pairwiseDenominator(a, 0, result.pairs, pool.priors)
 */
export function pairwiseDenominator(
  a: readonly number[],
  p: number,
  pairs: readonly Pick<DlfpmPair, "pair" | "upper" | "lower">[],
  zeta: ArrayLike<number>,
): FractionalMetric | null {
  const k = a.length;
  const rows: number[][] = [];
  const rhs: number[] = [];
  for (const { pair, upper, lower } of pairs) {
    const j = pair[1];
    let planes = [upper, lower].filter((pl) => !isCornerPlane(pl, p, j));
    if (planes.length === 0) planes = [upper];
    for (const pl of planes) {
      let c = 0;
      for (let i = 0; i < k; i++) c += pl.slope[i]! * pl.point[i]!;
      const row = new Array<number>(k).fill(0);
      row[j] = a[p]!;
      row[p] = -a[j]!;
      rows.push(row);
      rhs.push((pl.slope[p]! * a[j]! - pl.slope[j]! * a[p]!) / c);
    }
  }
  // sum beta = 0 picks the member of the family.
  rows.push(new Array<number>(k).fill(1));
  rhs.push(0);
  const columns = Array.from({ length: k }, (_, i) => rows.map((r) => r[i]!));
  const { x: beta, dependent } = leastSquares(columns, rhs);
  if (dependent >= 0) return null;
  let az = 0;
  let bz = 0;
  for (let i = 0; i < k; i++) {
    az += a[i]! * zeta[i]!;
    bz += beta[i]! * zeta[i]!;
  }
  const b0 = az / (1 + bz);
  if (!Number.isFinite(b0)) return null;
  return { a: a.slice(), b: Array.from(beta, (x) => x * b0), b0 };
}

/**
 * DLFPM elicitation (NeurIPS 2019 appendix E.1): for every pair (0, j), Algorithm 1 finds the
 * most preferred point on the upper boundary of `D_{0,j}` (restricted Bayes optimal
 * classifiers) and Algorithm 4 the least preferred point on the lower boundary (restricted
 * inverse-Bayes classifiers), each giving a supporting line; Algorithm 5 then picks, per pair,
 * the share `a_j / (a_0 + a_j)` at which Proposition 6's solutions for the two lines are
 * constant multiples of each other on n' points of `dD+_{0,j}`; finally Proposition 6 with the
 * global upper plane (slope from the pairwise searches, point = its Bayes optimal confusion)
 * gives `b` and `b0` (by default from the pairs' planes jointly, `pairwiseDenominator`, since the
 * pairwise slopes are not the global plane's). Assumes Assumption 3 (bounded, increasing in every `d_i`).
 *
 * Questions: the two searches per pair, i.e. `2 * 4 (k - 1) ceil(log2(1/eps))` in `paper`
 * strategy (112 for k = 3, 168 for k = 4 at eps = 0.01).
 * @example elicitDlfpm(oracle.ask, pool, { tolerance: 0.01, strategy: STRATEGIES.paper }).metric
 */
export function elicitDlfpm(
  ask: Ask<MulticlassPoint>,
  pool: MulticlassPool,
  o: DlfpmOptions,
): DlfpmElicitation {
  const k = pool.k;
  if (k < 3) throw new RangeError("DLFPM elicitation needs at least three classes");
  const clip = (m: number) => Math.min(1 - o.tolerance / 2, Math.max(o.tolerance / 2, m));
  let upperQuestions = 0;
  let lowerQuestions = 0;
  let p = 0;
  if (o.pivot === "select") {
    for (let t = 1; t < k; t++) {
      const r = searchUnimodal(ask, {
        lo: 0,
        hi: 1,
        tolerance: o.tolerance,
        strategy: o.strategy,
        sense: "max",
        stage: "dlfpm-pivot",
        pointAt: (m) => restrictedBayesOptimal(pool, p, t, m),
        onShrink: o.onShrink,
      });
      upperQuestions += r.questions;
      if (r.estimate < 0.5) p = t;
    }
  }
  const pivot = p;
  const found: { j: number; mUpper: number; mLower: number; same: number }[] = [];
  for (let j = 0; j < k; j++) {
    if (j === pivot) continue;
    const counted = countingIdentical(ask);
    const up = searchUnimodal(counted.ask, {
      lo: 0,
      hi: 1,
      tolerance: o.tolerance,
      strategy: o.strategy,
      sense: "max",
      stage: "dlfpm-upper",
      pointAt: (m) => restrictedBayesOptimal(pool, pivot, j, m),
      onShrink: o.onShrink,
    });
    upperQuestions += up.questions;
    found.push({ j, mUpper: clip(up.estimate), mLower: Number.NaN, same: counted.count() });
  }
  for (const f of found) {
    const counted = countingIdentical(ask);
    const low = searchUnimodal(counted.ask, {
      lo: 0,
      hi: 1,
      tolerance: o.tolerance,
      strategy: o.strategy,
      sense: "min",
      stage: "dlfpm-lower",
      pointAt: (m) => restrictedInverseBayes(pool, pivot, f.j, m),
      onShrink: o.onShrink,
    });
    lowerQuestions += low.questions;
    f.mLower = clip(low.estimate);
    f.same += counted.count();
  }
  const unresolved = found
    .filter((f) => f.same > 0)
    .map((f) => ({ pair: [pivot, f.j] as const, same: f.same }));

  const n = o.samples ?? 1000;
  const delta = o.gridStep ?? 0.01;
  const samples: DiagConfusion[] = [];
  const pairs: DlfpmPair[] = found.map(({ j, mUpper, mLower }) => {
    const upper: FractionalPlane = {
      slope: pairWeights(k, p, j, mUpper, 1 - mUpper),
      point: restrictedBayesOptimal(pool, p, j, mUpper).point,
    };
    const lower: FractionalPlane = {
      slope: pairWeights(k, p, j, mLower, 1 - mLower),
      point: restrictedInverseBayes(pool, p, j, mLower).point,
    };
    const points = upperBoundarySamples(pool, p, j, n);
    samples.push(...points);
    const candidate = (t: number) => pairWeights(k, p, j, 1 - t, t);
    let share: number | null = null;
    if (o.method === "closed-form") {
      const a = consistentNumerator(upper, lower);
      if (a && a[p]! > 0 && a[j]! >= 0) share = a[j]! / (a[p]! + a[j]!);
    }
    if (share === null)
      share = pairGrid("dlfpm", candidate, upper, lower, pool.priors, points, delta).share;
    // Keep the pivot's weight positive so the ratio a_j / a_0 stays finite.
    share = Math.min(share, 1 - delta / 2);
    const up = solveFractionalSystem("dlfpm", candidate(share), upper, pool.priors);
    const low = solveFractionalSystem("dlfpm", candidate(share), lower, pool.priors);
    const spread = up && low ? ratioSpread(up, low, points) : Number.NaN;
    return { pair: [p, j] as const, mUpper, mLower, upper, lower, share, spread };
  });

  const ratioWeights = (ms: number[]) => {
    const w = new Array<number>(k).fill(0);
    w[p] = 1;
    found.forEach((f, i) => {
      w[f.j] = (1 - ms[i]!) / ms[i]!;
    });
    return normalizeL1(w);
  };
  const a = new Array<number>(k).fill(0);
  a[p] = 1;
  for (const pr of pairs) a[pr.pair[1]] = pr.share / (1 - pr.share);
  const aHat = normalizeL1(a);

  const sUp = ratioWeights(found.map((f) => f.mUpper));
  const classifier = pluginClassifier("diag-confusion", sUp, pool.priors);
  const upper: FractionalPlane = { slope: sUp, point: diagonalOf(pool, classifier) };
  const sLow = ratioWeights(found.map((f) => f.mLower));
  const lower: FractionalPlane = {
    slope: sLow,
    point: diagonalOf(
      pool,
      pluginClassifier(
        "diag-confusion",
        sLow.map((x) => -x),
        pool.priors,
      ),
    ),
  };
  const metric =
    o.denominator === "global-plane"
      ? solveFractionalSystem("dlfpm", aHat, upper, pool.priors)
      : pairwiseDenominator(aHat, p, pairs, pool.priors);
  if (!metric) throw new RangeError("Proposition 6 has no solution for the elicited slope");
  return {
    metric,
    lowerMetric: solveFractionalSystem("dlfpm", aHat, lower, pool.priors),
    upper,
    lower,
    pairs,
    pivot,
    samples,
    classifier,
    questions: upperQuestions + lowerQuestions,
    upperQuestions,
    lowerQuestions,
    unresolved,
  };
}
