/**
 * Shared algebra of the multiclass linear-fractional families (NeurIPS 2019 appendix E.1-E.2):
 * the metric `psi(x) = <a, x> / (<b, x> + b0)` over diagonal confusions (DLFPM, Assumption 3)
 * or off-diagonal confusions (LFPM, Assumption 4), Propositions 6 and 8 (the metric tangent to
 * a supporting hyperplane given `a`), the ratio statistics of Algorithms 5 and 7, and the
 * one-dimensional grid search those algorithms run.
 *
 * Identifiability (documented, as for the binary case): two supporting hyperplanes fix the
 * direction of `a` and the metric's level sets, i.e. the metric up to the monotone Möbius
 * family `psi / ((1 - lambda) + lambda psi)` (DLFPM; `psi / ((1 + lambda) + lambda psi)` for
 * LFPM). With `sum a = 1` (resp. -1) and both slopes normalised to the same sum, the two
 * solutions of Proposition 6 coincide exactly at the true direction, and that common solution
 * is the member of the family with `sum b = 0`. The ratio elicited / true therefore has mean
 * `alpha != 1` and a small spread `sigma` even for exact answers (the appendix's Tables 8-10).
 */
import { mean, std } from "../../math/stats.ts";

/** A linear-fractional metric `<a, x> / (<b, x> + b0)` in the appendix's conventions. */
export interface FractionalMetric {
  readonly a: number[];
  readonly b: number[];
  readonly b0: number;
}

/**
 * Which family: `dlfpm` (diagonal confusions, Assumption 3: `a >= 0`, `a >= b`, `sum a = 1`,
 * `b0 = sum (a - b) zeta`) or `lfpm` (off-diagonal confusions, Assumption 4: `a <= 0`,
 * `a <= -b`, `sum a = -1`, `b0 = sum -(a + b) zeta`).
 */
export type FractionalFamily = "dlfpm" | "lfpm";

/** A supporting hyperplane `<slope, x> = <slope, point>` with the slope along which the metric grows. */
export interface FractionalPlane {
  readonly slope: readonly number[];
  readonly point: ArrayLike<number>;
}

/**
 * Value of a linear-fractional metric at a point.
 * @example evaluateFractionalMetric({ a: [0.5, 0.5], b: [0, 0], b0: 1 }, [0.2, 0.4]) // 0.3
 */
export function evaluateFractionalMetric(m: FractionalMetric, x: ArrayLike<number>): number {
  let num = 0;
  let den = m.b0;
  for (let i = 0; i < m.a.length; i++) {
    num += m.a[i]! * x[i]!;
    den += m.b[i]! * x[i]!;
  }
  return num / den;
}

/**
 * The `b0` that Assumption 3 (`dlfpm`: `sum (a - b) zeta`) or Assumption 4 (`lfpm`:
 * `sum -(a + b) zeta`) implies.
 * @example impliedB0("dlfpm", [0.5, 0.5], [0, 0], [0.5, 0.5]) // 0.5
 */
export function impliedB0(
  family: FractionalFamily,
  a: readonly number[],
  b: readonly number[],
  zeta: ArrayLike<number>,
): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    s += (family === "dlfpm" ? a[i]! - b[i]! : -(a[i]! + b[i]!)) * zeta[i]!;
  }
  return s;
}

/**
 * Violated conditions of Assumption 3 (`dlfpm`) or 4 (`lfpm`); empty when it holds.
 * @example fractionalAssumptionViolations("dlfpm", { a: [0.5, 0.5], b: [0, 0], b0: 0.5 }, [0.5, 0.5]) // []
 */
export function fractionalAssumptionViolations(
  family: FractionalFamily,
  m: FractionalMetric,
  zeta: ArrayLike<number>,
  tol = 1e-6,
): string[] {
  const out: string[] = [];
  const sign = family === "dlfpm" ? 1 : -1;
  m.a.forEach((ai, i) => {
    if (sign * ai < -tol) out.push(`a[${i}] must be ${family === "dlfpm" ? ">=" : "<="} 0`);
    const bi = m.b[i]!;
    if (family === "dlfpm" ? bi > ai + tol : ai > -bi + tol) {
      out.push(
        family === "dlfpm" ? `b[${i}] must not exceed a[${i}]` : `a[${i}] must be <= -b[${i}]`,
      );
    }
  });
  const sum = m.a.reduce((s, x) => s + x, 0);
  if (Math.abs(sum - sign) > tol) out.push(`sum a must equal ${sign}`);
  const b0 = impliedB0(family, m.a, m.b, zeta);
  if (Math.abs(m.b0 - b0) > tol) out.push(`b0 must equal ${b0.toPrecision(6)}`);
  return out;
}

/**
 * Propositions 6 (`dlfpm`) and 8 (`lfpm`): the metric with numerator `a` whose level set
 * through `plane.point` is tangent to the plane, i.e. the solution of
 * `a - tau b = s`, `tau b0 = <s, x*>` with `b0` from the assumption:
 * `b = (a - s) L1 / L2`, `b0 = <s, x*> L1 / L2`, where `L1 = sum a zeta` (`-sum a zeta` for
 * LFPM) and `L2 = <s, x*> + sum (a - s) zeta`. Returns null when `L2` vanishes.
 * @example solveFractionalSystem("dlfpm", [0.5, 0.5], { slope: [0.5, 0.5], point: [0.3, 0.3] }, [0.5, 0.5])
 */
export function solveFractionalSystem(
  family: FractionalFamily,
  a: readonly number[],
  plane: FractionalPlane,
  zeta: ArrayLike<number>,
): FractionalMetric | null {
  const s = plane.slope;
  let l1 = 0;
  let sx = 0;
  let l2 = 0;
  for (let i = 0; i < a.length; i++) {
    l1 += a[i]! * zeta[i]!;
    sx += s[i]! * plane.point[i]!;
    l2 += (a[i]! - s[i]!) * zeta[i]!;
  }
  if (family === "lfpm") l1 = -l1;
  l2 += sx;
  if (!(Math.abs(l2) > 1e-15) || !Number.isFinite(l2)) return null;
  const f = l1 / l2;
  return { a: a.slice(), b: a.map((ai, i) => (ai - s[i]!) * f), b0: sx * f };
}

/** Mean and standard deviation of a ratio of two metrics (the appendix's alpha and sigma). */
export interface RatioStats {
  readonly alpha: number;
  readonly sigma: number;
  /** Number of points where both values were finite and the denominator not negligible. */
  readonly n: number;
}

/**
 * Ratios `num(x) / den(x)` over the points where both are finite and `|den(x)| > 1e-12`,
 * with their mean (alpha) and population standard deviation (sigma).
 * @example ratioStats(elicited, truth, points).alpha
 */
export function ratioStats(
  num: FractionalMetric,
  den: FractionalMetric,
  points: readonly ArrayLike<number>[],
): RatioStats {
  const r: number[] = [];
  for (const x of points) {
    const u = evaluateFractionalMetric(num, x);
    const v = evaluateFractionalMetric(den, x);
    if (Number.isFinite(u) && Number.isFinite(v) && Math.abs(v) > 1e-12) r.push(u / v);
  }
  return { alpha: mean(r), sigma: std(r), n: r.length };
}

/**
 * Scale-free spread of a ratio: `std / |mean|`. Algorithms 5 and 7 compare plain standard
 * deviations; the two systems' solutions carry different constant factors (`L1 / L2`), so we
 * rank candidates by the coefficient of variation, which is zero exactly when the two
 * solutions are constant multiples of each other (the algorithms' stated aim).
 * @example ratioSpread(num, den, points) // 0 when num / den is the same at every point
 */
export function ratioSpread(
  num: FractionalMetric,
  den: FractionalMetric,
  points: readonly ArrayLike<number>[],
): number {
  const s = ratioStats(num, den, points);
  if (s.n < 2) return Number.NaN;
  return s.sigma / Math.abs(s.alpha);
}

/** Result of one grid search for a pairwise share. */
export interface PairGridResult {
  /** The share `t = a_j / (a_p + a_j)` with the smallest spread. */
  readonly share: number;
  readonly spread: number;
  /** Spread per grid value, for plots. */
  readonly curve: readonly { readonly share: number; readonly spread: number }[];
}

/**
 * One round of Algorithm 5 / 7: for `t = 0, delta, ..., 1` build a candidate numerator
 * (`candidate(t)`), solve Proposition 6 / 8 against the upper and the lower plane, and keep the
 * `t` at which the two solutions are closest to constant multiples on `points`.
 * @example pairGrid("dlfpm", (t) => [1 - t, t], upper, lower, zeta, points, 0.01).share
 */
export function pairGrid(
  family: FractionalFamily,
  candidate: (t: number) => number[],
  upper: FractionalPlane,
  lower: FractionalPlane,
  zeta: ArrayLike<number>,
  points: readonly ArrayLike<number>[],
  delta: number,
): PairGridResult {
  const steps = Math.round(1 / delta);
  const curve: { share: number; spread: number }[] = [];
  let best: { share: number; spread: number } | null = null;
  for (let s = 0; s <= steps; s++) {
    const t = Math.min(1, s * delta);
    const a = candidate(t);
    const up = solveFractionalSystem(family, a, upper, zeta);
    const low = solveFractionalSystem(family, a, lower, zeta);
    if (!up || !low) continue;
    const spread = ratioSpread(up, low, points);
    if (!Number.isFinite(spread)) continue;
    curve.push({ share: t, spread });
    if (best === null || spread < best.spread) best = { share: t, spread };
  }
  if (best === null) throw new RangeError("the grid search found no finite solution");
  return { ...best, curve };
}

/**
 * Closed form of the consistency condition the grid searches approximate: the solutions of
 * Proposition 6 / 8 for the upper and the lower plane are constant multiples of each other iff
 * `(1 - kappa) a = s_low - kappa s_up` with `kappa = <s_low, x_low> / <s_up, x_up>`. With both
 * slopes normalised to the same sum, the result has that sum too. Returns null when
 * `kappa = 1` (the planes carry no information about `a`).
 * @example consistentNumerator(upper, lower)
 */
export function consistentNumerator(
  upper: FractionalPlane,
  lower: FractionalPlane,
): number[] | null {
  let cu = 0;
  let cl = 0;
  for (let i = 0; i < upper.slope.length; i++) {
    cu += upper.slope[i]! * upper.point[i]!;
    cl += lower.slope[i]! * lower.point[i]!;
  }
  const kappa = cl / cu;
  if (!Number.isFinite(kappa) || Math.abs(1 - kappa) < 1e-12) return null;
  return upper.slope.map((su, i) => (lower.slope[i]! - kappa * su) / (1 - kappa));
}

/**
 * The member of a metric's Möbius family (module comment) with `sum b = 0`:
 * `b' = (b - (B / A) a) / (1 - B)`, `b0' = b0 / (1 - B)` with `A = sum a`, `B = sum b`. It
 * ranks every pair of points as the metric does, satisfies the same assumption, and is what
 * elicitation returns for exact answers; comparing it with the metric gives the best alpha and
 * sigma any elicitation in the appendix's normalisation can reach.
 * @example sumZeroRepresentative({ a: [0.5, 0.5], b: [0.2, 0], b0: 0.4 })
 */
export function sumZeroRepresentative(m: FractionalMetric): FractionalMetric {
  const A = m.a.reduce((s, x) => s + x, 0);
  const B = m.b.reduce((s, x) => s + x, 0);
  return {
    a: m.a.slice(),
    b: m.b.map((bi, i) => (bi - (B / A) * m.a[i]!) / (1 - B)),
    b0: m.b0 / (1 - B),
  };
}
