/**
 * Exact feasibility of a target point by Wolfe's min-norm-point algorithm over the feasible
 * set `conv{plug-in points}`, reached only through a linear maximisation oracle
 * (ALGORITHMS.md B.4). The result is either a mixture of at most `dim + 1` plug-ins whose
 * point is the target (to `tolerance`), or the nearest point's offset `normal = p - target`,
 * which certifies infeasibility: every feasible `c` satisfies
 * `<normal, c> >= <normal, target> + ||normal||^2 - gap`, with `gap < ||normal||^2` reported.
 *
 * Numerics: tolerances are relative to the scale of the points; the affine minimiser comes
 * from a QR factorisation of the lifted corral that is updated as points enter (one
 * Gram–Schmidt step) and leave (Givens rotations), never recomputed (`AffineQR`); a new
 * oracle point that is numerically in the affine hull of the current ones ends the search
 * (it cannot improve the distance), so near-degenerate systems terminate; iterations are
 * capped and the cap is reported.
 *
 * @example
 * const space = createSpace("offdiag-confusion", pool);
 * const res = minNormPoint(target, space.lmo);
 * if (res.feasible) space.realise(res.mixture); // = target (to ~1e-12)
 * else res.normal;                              // separating direction
 */
import type { Classifier, MixtureClassifier } from "./classifier.ts";
import { mixtureClassifier } from "./classifier.ts";
import { AffineQR } from "./linsolve.ts";
import type { LmoResult } from "./space.ts";

/** A linear maximisation oracle: a feasible point maximising `<direction, point>`. */
export type Lmo = (direction: Float64Array) => LmoResult;

/** Options for `minNormPoint`. */
export interface FeasibilityOptions {
  /** Distance to the set, relative to the scale of the points, that counts as 0. Default 1e-12. */
  readonly tolerance?: number;
  /** Stop when the duality gap is at most this fraction of `||x||^2`. Default 1e-9. */
  readonly gapTolerance?: number;
  /** Cap on oracle calls (major iterations). Default 5000. */
  readonly maxIterations?: number;
  /** Known feasible points to start from (e.g. the previous answer's active set). */
  readonly start?: readonly LmoResult[];
}

/** A component of the final convex combination. */
export interface ActivePoint extends LmoResult {
  readonly weight: number;
}

interface FeasibilityCommon {
  /** Distance from the target to the nearest point found (0 up to tolerance when feasible). */
  readonly distance: number;
  /** The nearest feasible point found (equal to the target, up to tolerance, when feasible). */
  readonly point: Float64Array;
  /** A classifier realising `point`: at most `dim + 1` plug-ins. */
  readonly mixture: MixtureClassifier;
  /** The plug-in points and weights behind `mixture` (useful as a warm start). */
  readonly active: readonly ActivePoint[];
  /** Oracle calls made. */
  readonly lmoCalls: number;
  /** False when the iteration cap stopped the search before a stopping rule held. */
  readonly converged: boolean;
}

/** The target is feasible; `mixture` realises it. */
export interface FeasibleResult extends FeasibilityCommon {
  readonly feasible: true;
}

/** The target is not feasible; `normal` separates it from the set. */
export interface InfeasibleResult extends FeasibilityCommon {
  readonly feasible: false;
  /** `point - target`: `<normal, c> >= <normal, target> + ||normal||^2 - gap` for feasible c. */
  readonly normal: Float64Array;
  /** Slack of the certificate; it proves infeasibility when `gap < ||normal||^2`. */
  readonly gap: number;
}

/** Outcome of `minNormPoint`; narrow on `feasible`. */
export type FeasibilityResult = FeasibleResult | InfeasibleResult;

const EPS = 2.220446049250313e-16;

function dotv(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/**
 * Find the point of the feasible set nearest to `target` (Wolfe's min-norm point) and decide
 * feasibility; see the module comment.
 *
 * @example
 * minNormPoint(space.centre, space.lmo).feasible; // true: the uniform classifier's point
 */
export function minNormPoint(
  target: ArrayLike<number>,
  lmo: Lmo,
  options: FeasibilityOptions = {},
): FeasibilityResult {
  const dim = target.length;
  const c0 = Float64Array.from(target);
  const relTol = options.tolerance ?? 1e-12;
  const gapTol = options.gapTolerance ?? 1e-9;
  const maxIterations = options.maxIterations ?? 5000;

  // Corral: oracle results, their offsets s_i = v_i - c0, and convex weights.
  let corral: LmoResult[] = [];
  let offsets: Float64Array[] = [];
  let lam: number[] = [];
  let lmoCalls = 0;
  let maxNorm = Math.sqrt(dotv(c0, c0));
  // QR of the lifted corral [scale; s_i], updated as points enter and leave.
  let qr: AffineQR | null = null;
  const lift = (s: Float64Array): boolean => {
    if (qr === null) qr = new AffineQR(dim, maxNorm > 0 ? maxNorm : Math.sqrt(dotv(s, s)) || 1);
    return qr.add(s);
  };

  const offsetOf = (r: LmoResult): Float64Array => {
    if (r.point.length !== dim)
      throw new RangeError(`oracle returned ${r.point.length} != ${dim} entries`);
    maxNorm = Math.max(maxNorm, Math.sqrt(dotv(r.point, r.point)));
    return r.point.map((v, i) => v - c0[i]);
  };
  const keep = (mask: (i: number) => boolean) => {
    for (let i = lam.length - 1; i >= 0; i--) if (!mask(i)) qr?.remove(i);
    const idx = lam.map((_, i) => i).filter(mask);
    corral = idx.map((i) => corral[i]);
    offsets = idx.map((i) => offsets[i]);
    lam = idx.map((i) => lam[i]);
    const total = lam.reduce((a, b) => a + b, 0);
    lam = lam.map((l) => l / total);
  };
  /**
   * Wolfe's minor cycle: move the weights towards the affine minimiser of the corral,
   * dropping points whose weight reaches 0. Returns false if the newest point would leave
   * at once (or the system is too ill-conditioned to solve): the search has stalled.
   */
  const minorCycle = (newestPoint: LmoResult | null): boolean => {
    for (;;) {
      const newest = newestPoint === null ? -1 : corral.indexOf(newestPoint);
      const alpha = (qr as AffineQR).affineMinimiser();
      if (!alpha.every(Number.isFinite)) {
        if (newest >= 0) keep((i) => i !== newest);
        return false;
      }
      if (alpha.every((a) => a > 0)) {
        lam = alpha;
        return true;
      }
      let theta = 1;
      let leaving = -1;
      for (let i = 0; i < alpha.length; i++) {
        if (alpha[i] <= 0) {
          const t = lam[i] / (lam[i] - alpha[i]);
          if (leaving < 0 || t < theta) {
            theta = t;
            leaving = i;
          }
        }
      }
      if (leaving === newest && lam[newest] === 0) {
        keep((i) => i !== newest);
        return false;
      }
      lam = lam.map((l, i) => (1 - theta) * l + theta * alpha[i]);
      lam[leaving] = 0;
      keep((i) => lam[i] > 0);
    }
  };

  // Start: the given warm points (affinely independent ones, equal weights), else one oracle
  // call towards the target.
  for (const r of options.start ?? []) {
    const s = offsetOf(r);
    if (!lift(s)) continue;
    corral.push(r);
    offsets.push(s);
    if (offsets.length > dim) break;
  }
  if (corral.length === 0) {
    const r = lmo(c0);
    lmoCalls++;
    const s = offsetOf(r);
    lift(s);
    corral.push(r);
    offsets.push(s);
  }
  lam = corral.map(() => 1 / corral.length);
  if (corral.length > 1) minorCycle(null);

  // Whether `gap` was measured at the current weights (the certificate needs that pairing).
  let gapFresh = false;
  const finish = (converged: boolean, gap: number): FeasibilityResult => {
    const x = new Float64Array(dim);
    const point = new Float64Array(dim);
    lam.forEach((l, t) => {
      for (let i = 0; i < dim; i++) {
        x[i] += l * offsets[t][i];
        point[i] += l * corral[t].point[i];
      }
    });
    const distance = Math.sqrt(dotv(x, x));
    if (distance > relTol * maxNorm && !gapFresh) {
      const r = lmo(x.map((v) => -v));
      lmoCalls++;
      gap = distance * distance - dotv(x, offsetOf(r));
    }
    const active = corral.map((r, t) => ({
      point: r.point,
      classifier: r.classifier,
      weight: lam[t],
    }));
    const mixture = mixtureClassifier(
      active.map((a) => ({ classifier: a.classifier as Classifier, weight: a.weight })),
    );
    const common = { distance, point, mixture, active, lmoCalls, converged };
    if (distance <= relTol * maxNorm) return { feasible: true, ...common };
    return { feasible: false, normal: x, gap, ...common };
  };

  let gap = Number.POSITIVE_INFINITY;
  for (let iteration = 0; ; iteration++) {
    const x = new Float64Array(dim);
    lam.forEach((l, t) => {
      for (let i = 0; i < dim; i++) x[i] += l * offsets[t][i];
    });
    const xx = dotv(x, x);
    if (Math.sqrt(xx) <= relTol * maxNorm) return finish(true, 0);
    if (iteration >= maxIterations) return finish(false, gap);
    const answer = lmo(x.map((v) => -v));
    lmoCalls++;
    // A fresh wrapper, so identity tracks this call even if the oracle reuses objects.
    const r: LmoResult = { point: answer.point, classifier: answer.classifier };
    const s = offsetOf(r);
    gap = xx - dotv(x, s);
    gapFresh = true;
    // Stop when the gap is small relative to ||x||^2 (the certificate then holds with
    // margin), or below the rounding level of the inner products.
    const floor = 16 * EPS * Math.sqrt(xx) * maxNorm;
    if (gap <= Math.max(gapTol * xx, floor)) return finish(true, gap);
    // A point in the affine hull of the corral cannot improve the distance: stalled.
    if (!lift(s)) return finish(true, gap);
    corral.push(r);
    offsets.push(s);
    lam.push(0);
    gapFresh = false;
    if (!minorCycle(r)) return finish(true, gap);
  }
}
