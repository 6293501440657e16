import { randomSpd } from "../../math/random-spd.ts";
import type { Rng } from "../../math/rng.ts";
import { norm2 } from "../../math/vector.ts";

/**
 * A quadratic performance metric of k predictive rates (UAI 2022, Definition 3), a utility:
 * `phi(r) = <a, r> + 1/2 r^T B r`, with `B` symmetric (negative semidefinite in the paper)
 * and the joint normalisation `||a||_2^2 + ||B||_F^2 = 1` (the metric is scale invariant, so
 * only the direction of `(a, B)` is identifiable from comparisons).
 */
export interface QuadraticMetric {
  readonly a: number[];
  readonly B: number[][];
}

/**
 * Value of the metric at rates `r`.
 * @example evaluateQuadratic({ a: [1, 0], B: [[-1, 0], [0, 0]] }, [0.5, 0.5]) // 0.375
 */
export function evaluateQuadratic(m: QuadraticMetric, r: ArrayLike<number>): number {
  const k = m.a.length;
  let v = 0;
  for (let i = 0; i < k; i++) {
    let bi = 0;
    const row = m.B[i]!;
    for (let j = 0; j < k; j++) bi += row[j]! * r[j]!;
    v += r[i]! * (m.a[i]! + 0.5 * bi);
  }
  return v;
}

/**
 * Gradient `a + B r` of the metric at `r` (B symmetric).
 * @example quadraticGradient({ a: [1, 0], B: [[-1, 0], [0, 0]] }, [0.5, 0.5]) // [0.5, 0]
 */
export function quadraticGradient(m: QuadraticMetric, r: ArrayLike<number>): number[] {
  return m.a.map((ai, i) => {
    let s = ai;
    const row = m.B[i]!;
    for (let j = 0; j < row.length; j++) s += row[j]! * r[j]!;
    return s;
  });
}

/**
 * `sqrt(||a||^2 + ||B||_F^2)`.
 * @example quadraticNorm({ a: [0.6, 0.8], B: [[0, 0], [0, 0]] }) // 1
 */
export function quadraticNorm(m: QuadraticMetric): number {
  let s = 0;
  for (const x of m.a) s += x * x;
  for (const row of m.B) for (const x of row) s += x * x;
  return Math.sqrt(s);
}

/**
 * Scale to `||a||^2 + ||B||_F^2 = 1` (positive factor: preferences are unchanged).
 * @example normalizeQuadratic({ a: [3, 0], B: [[0, 0], [0, -4]] }).a // [0.6, 0]
 */
export function normalizeQuadratic(m: QuadraticMetric): QuadraticMetric {
  const n = quadraticNorm(m);
  if (!(n > 0)) throw new RangeError("cannot normalise the zero metric");
  return { a: m.a.map((x) => x / n), B: m.B.map((row) => row.map((x) => x / n)) };
}

/** Errors of an estimate: `||a - a_hat||_2` and `||B - B_hat||_F`. */
export interface QuadraticError {
  readonly a: number;
  readonly B: number;
}

/**
 * L2 error of the linear part and Frobenius error of the quadratic part.
 * @example quadraticError(truth, truth) // { a: 0, B: 0 }
 */
export function quadraticError(truth: QuadraticMetric, estimate: QuadraticMetric): QuadraticError {
  let sa = 0;
  for (let i = 0; i < truth.a.length; i++) sa += (truth.a[i]! - estimate.a[i]!) ** 2;
  let sb = 0;
  for (let i = 0; i < truth.B.length; i++) {
    for (let j = 0; j < truth.B.length; j++) sb += (truth.B[i]![j]! - estimate.B[i]![j]!) ** 2;
  }
  return { a: Math.sqrt(sa), B: Math.sqrt(sb) };
}

/**
 * Check shape, symmetry and finiteness; throws a RangeError describing the first problem.
 * @example validateQuadratic({ a: [1, 0], B: [[0, 1], [0, 0]] }) // throws RangeError "B must be symmetric (B[0][1] != B[1][0])"
 */
export function validateQuadratic(m: QuadraticMetric, k?: number): void {
  const n = m.a.length;
  if (k !== undefined && n !== k) throw new RangeError(`a must have ${k} entries, got ${n}`);
  if (m.B.length !== n) throw new RangeError(`B must be ${n} x ${n}`);
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(m.a[i]!)) throw new RangeError(`a[${i}] is not a finite number`);
    if (m.B[i]!.length !== n) throw new RangeError(`B must be ${n} x ${n}`);
    for (let j = 0; j < n; j++) {
      const x = m.B[i]![j]!;
      if (!Number.isFinite(x)) throw new RangeError(`B[${i}][${j}] is not a finite number`);
      if (Math.abs(x - m.B[j]![i]!) > 1e-9 * Math.max(1, Math.abs(x))) {
        throw new RangeError(`B must be symmetric (B[${i}][${j}] != B[${j}][${i}])`);
      }
    }
  }
}

/** The points where QPME measures gradients (Algorithm 1), for a given pivot. */
export interface QpmeGeometry {
  /** Centre `o` of the query ball. */
  readonly centre: readonly number[];
  /** Radius `rho` of the query ball. */
  readonly rho: number;
  /** Radius `varrho` of the small balls (< rho). */
  readonly varrho: number;
}

/**
 * `o + t alpha_j`.
 * @example shifted([0.5, 0.5], 0, 0.1) // [0.6, 0.5]
 */
export function shifted(centre: readonly number[], j: number, t: number): number[] {
  const z = centre.slice();
  z[j] = z[j]! + t;
  return z;
}

/**
 * How well the regularity assumption (UAI 2022 Assumption 4; ALGORITHMS.md E.1) holds for a
 * metric: for each candidate pivot p, the smallest `|f_p|` over the unit gradients at `o`, at
 * every `z_j = o + (rho - varrho) alpha_j` and at `o - (rho - varrho) alpha_p`; returns the
 * best pivot and its value. QPME's ratios divide by these coordinates.
 * @example const { pivot, min } = regularity(truth, geometry); // min near 0: QPME's ratios are fragile
 */
export function regularity(m: QuadraticMetric, g: QpmeGeometry): { pivot: number; min: number } {
  const k = m.a.length;
  const delta = g.rho - g.varrho;
  const unit = (r: readonly number[]): number[] => {
    const v = quadraticGradient(m, r);
    const n = norm2(v);
    return v.map((x) => (n > 0 ? x / n : 0));
  };
  const grads = [unit(g.centre as number[])];
  for (let j = 0; j < k; j++) grads.push(unit(shifted(g.centre as number[], j, delta)));
  let best = { pivot: 0, min: -1 };
  for (let p = 0; p < k; p++) {
    let mn = Math.abs(unit(shifted(g.centre as number[], p, -delta))[p]!);
    for (const f of grads) mn = Math.min(mn, Math.abs(f[p]!));
    if (mn > best.min) best = { pivot: p, min: mn };
  }
  return best;
}

/**
 * How random truths are drawn.
 *
 * - `paper` (UAI 2022 Section 6 and Appendix H.1; documented choice, the paper does not give
 *   its sampler): `a ~ U(0, 1)^k` (rates are "good", so weights are non-negative), `B`
 *   negative definite `-U diag(1 + U(0,1)) U^T` with `U` a Haar-random orthogonal matrix (the
 *   negation of the authors' `make_spd_matrix` draw, as Definition 3 asks for NSD), the split
 *   `||a||^2 ~ U(0.3, 0.7)` and `||B||_F^2 = 1 - ||a||^2` of the authors' code, and rejection
 *   until the regularity assumption holds with constant `minGradient` (paper: 1e-2; see
 *   `regularity`).
 * - `code` (koyejolab/qme `create_a_B`, ALGORITHMS.md D): the same `a` and split, `B`
 *   *positive* definite, and the code's "well formed" check: the first coordinate of every
 *   unit gradient at `o`, `o - (rho - varrho) e_1`, `o + (rho - varrho) e_j` at least
 *   `minGradient` in absolute value (code: 0.1), and `|F-_2 - F_2| >= minGradient` for the
 *   first two coordinates.
 */
export interface RandomQuadraticOptions extends QpmeGeometry {
  readonly sampling?: "paper" | "code";
  /** Regularity constant for the rejection step; 0 disables it. */
  readonly minGradient?: number;
}

function codeWellFormed(m: QuadraticMetric, g: QpmeGeometry, minGradient: number): boolean {
  const k = m.a.length;
  const delta = g.rho - g.varrho;
  const unit = (r: readonly number[]): number[] => {
    const v = quadraticGradient(m, r);
    const n = norm2(v);
    return v.map((x) => x / n);
  };
  const f0 = unit(g.centre);
  const fm = unit(shifted(g.centre as number[], 0, -delta));
  const fz = Array.from({ length: k }, (_, j) => unit(shifted(g.centre as number[], j, delta)));
  for (const f of [f0, fm, ...fz]) if (!(Math.abs(f[0]!) >= minGradient)) return false;
  return Math.abs(fm[1]! / fm[0]! - fz[0]![1]! / fz[0]![0]!) >= minGradient;
}

/**
 * Draw a random normalised quadratic metric (see `RandomQuadraticOptions` for the two
 * samplers). Gives up after 10 000 rejections.
 * @example randomQuadraticMetric(3, createRng(1), { centre: [1/3, 1/3, 1/3], rho: 0.2, varrho: 1e-3 })
 */
export function randomQuadraticMetric(
  k: number,
  rng: Rng,
  o: RandomQuadraticOptions,
): QuadraticMetric {
  const sampling = o.sampling ?? "paper";
  const minGradient = o.minGradient ?? (sampling === "paper" ? 1e-2 : 0.1);
  for (let attempt = 0; attempt < 10_000; attempt++) {
    const a = Array.from({ length: k }, () => rng.next());
    const sign = sampling === "paper" ? -1 : 1;
    const B = randomSpd(k, rng).map((row) => row.map((x) => sign * x));
    const share = rng.uniform(0.3, 0.7);
    const na = norm2(a);
    const nb = Math.sqrt(B.flat().reduce((s, x) => s + x * x, 0));
    const m: QuadraticMetric = {
      a: a.map((x) => (x * Math.sqrt(share)) / na),
      B: B.map((row) => row.map((x) => (x * Math.sqrt(1 - share)) / nb)),
    };
    if (minGradient <= 0) return m;
    const ok =
      sampling === "paper"
        ? regularity(m, o).min >= minGradient
        : codeWellFormed(m, o, minGradient);
    if (ok) return m;
  }
  throw new RangeError("could not draw a metric satisfying the regularity assumption");
}
