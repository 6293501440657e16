import { leastSquares } from "../../geometry/multiclass/linsolve.ts";
import type { Rng } from "../../math/rng.ts";
import type { Ask } from "../../search/question.ts";
import type { RatePoint } from "./lpme.ts";
import { shifted } from "./metric.ts";
import { elicitQpme, type QpmeOptions } from "./qpme.ts";

/**
 * A cubic metric of rates (UAI 2022, Section 8):
 * `phi(r) = sum_i a_i r_i + 1/2 sum_ij B_ij r_i r_j + 1/6 sum_ijl C_ijl r_i r_j r_l`, with B and
 * C symmetric and `||a||^2 + ||B||_F^2 + ||C||_F^2 = 1`.
 */
export interface CubicMetric {
  readonly a: number[];
  readonly B: number[][];
  readonly C: number[][][];
}

/**
 * Value of a cubic metric.
 * @example evaluateCubic({ a: [1], B: [[0]], C: [[[6]]] }, [0.5]) // 0.5 + 0.125
 */
export function evaluateCubic(m: CubicMetric, r: ArrayLike<number>): number {
  const k = m.a.length;
  let v = 0;
  for (let i = 0; i < k; i++) {
    v += m.a[i]! * r[i]!;
    for (let j = 0; j < k; j++) {
      v += 0.5 * m.B[i]![j]! * r[i]! * r[j]!;
      for (let l = 0; l < k; l++) v += (m.C[i]![j]![l]! * r[i]! * r[j]! * r[l]!) / 6;
    }
  }
  return v;
}

/**
 * Scale to `||a||^2 + ||B||_F^2 + ||C||_F^2 = 1`.
 * @example normalizeCubic({ a: [3, 4], B: zeros, C: zeros3 }).a // [0.6, 0.8] (B and C all zero)
 */
export function normalizeCubic(m: CubicMetric): CubicMetric {
  let s = 0;
  for (const x of m.a) s += x * x;
  for (const row of m.B) for (const x of row) s += x * x;
  for (const face of m.C) for (const row of face) for (const x of row) s += x * x;
  const n = Math.sqrt(s);
  if (!(n > 0)) throw new RangeError("a cubic metric needs a non-zero coefficient");
  return {
    a: m.a.map((x) => x / n),
    B: m.B.map((row) => row.map((x) => x / n)),
    C: m.C.map((face) => face.map((row) => row.map((x) => x / n))),
  };
}

/**
 * Errors of an estimate: L2 for a, Frobenius for B and C (both metrics normalised).
 * @example const { a, B, C } = cubicError(truth, estimate);
 */
export function cubicError(
  truth: CubicMetric,
  est: CubicMetric,
): { a: number; B: number; C: number } {
  const t = normalizeCubic(truth);
  const e = normalizeCubic(est);
  let a = 0;
  let B = 0;
  let C = 0;
  t.a.forEach((x, i) => {
    a += (x - e.a[i]!) ** 2;
    t.B[i]!.forEach((y, j) => {
      B += (y - e.B[i]![j]!) ** 2;
      t.C[i]![j]!.forEach((z, l) => {
        C += (z - e.C[i]![j]![l]!) ** 2;
      });
    });
  });
  return { a: Math.sqrt(a), B: Math.sqrt(B), C: Math.sqrt(C) };
}

/** A local quadratic fit `(a_l, B_l)` known up to a positive scale, centred at `centre`. */
export interface LocalQuadratic {
  readonly centre: readonly number[];
  /** Gradient direction at the centre (`a_l + B_l centre`), any positive scale. */
  readonly gradient: readonly number[];
  /** Hessian at the centre, same scale as `gradient`. */
  readonly hessian: readonly (readonly number[])[];
}

/**
 * Reconstruct a cubic metric from local quadratic fits at `o` and at `z_l = o + delta e_l`
 * (l = 0..k-1), each known only up to its own positive scale s_l (s_o = 1). A cubic's Hessian
 * is linear and its gradient quadratic in the point, so with unknowns (s_1..s_k, the distinct
 * entries of the symmetric tensor C) both
 *   `s_l H_l - delta C[:, :, l] = H_o`   and   `s_l g_l - delta^2/2 C[:, l, l] = g_o + delta H_o e_l`
 * are linear; they are solved jointly by least squares (the gradient equations pin the scales
 * well, the Hessian equations give C). Then `B = H_o - C o` and `a = g_o - B o - 1/2 C[o, o]`.
 * @example reconstructCubic(atO, atZ, 0.1) // exact when the fits are exact
 */
export function reconstructCubic(
  atO: LocalQuadratic,
  atZ: readonly LocalQuadratic[],
  delta: number,
): CubicMetric {
  const k = atO.gradient.length;
  // Index of each unordered triple i <= j <= l among the unknowns (after the k scales).
  const key = (i: number, j: number, l: number) => [i, j, l].sort((x, y) => x - y).join(",");
  const index = new Map<string, number>();
  for (let i = 0; i < k; i++)
    for (let j = i; j < k; j++) for (let l = j; l < k; l++) index.set(key(i, j, l), k + index.size);
  const n = k + index.size;
  const rows: number[][] = [];
  const rhs: number[] = [];
  for (let l = 0; l < k; l++) {
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        const row = new Array<number>(n).fill(0);
        row[l] = atZ[l]!.hessian[i]![j]!;
        row[index.get(key(i, j, l))!]! -= delta;
        rows.push(row);
        rhs.push(atO.hessian[i]![j]!);
      }
      const row = new Array<number>(n).fill(0);
      row[l] = atZ[l]!.gradient[i]!;
      row[index.get(key(i, l, l))!]! -= (delta * delta) / 2;
      rows.push(row);
      rhs.push(atO.gradient[i]! + delta * atO.hessian[i]![l]!);
    }
  }
  const columns = Array.from({ length: n }, (_, c) => Float64Array.from(rows, (r) => r[c]!));
  const x = leastSquares(columns, Float64Array.from(rhs)).x;
  const C = Array.from({ length: k }, (_, i) =>
    Array.from({ length: k }, (_, j) =>
      Array.from({ length: k }, (_, l) => x[index.get(key(i, j, l))!]!),
    ),
  );
  const o = atO.centre;
  const Co = (i: number, j: number) => C[i]![j]!.reduce((s, c, l) => s + c * o[l]!, 0);
  const B = Array.from({ length: k }, (_, i) =>
    Array.from({ length: k }, (_, j) => atO.hessian[i]![j]! - Co(i, j)),
  );
  const a = Array.from({ length: k }, (_, i) => {
    let v = atO.gradient[i]!;
    for (let j = 0; j < k; j++) v -= B[i]![j]! * o[j]! + 0.5 * Co(i, j) * o[j]!;
    return v;
  });
  return normalizeCubic({ a, B, C });
}

/** Options of cubic elicitation. */
export interface CubicOptions extends Omit<QpmeOptions, "centre" | "rho" | "varrho"> {
  /** Centre o (default 1/k in every coordinate). */
  readonly centre?: readonly number[];
  /** Distance of the basis points z_l from o (default 0.25). */
  readonly spread?: number;
  /** Radius of each local QPME ball (default 0.05) and of its small LPME balls (default radius / 200). */
  readonly radius?: number;
  readonly varrho?: number;
}

/**
 * Cubic metric elicitation (UAI 2022, Section 8): k + 1 QPME runs on small balls around o and
 * around `z_l = o + spread e_l`, each giving the local quadratic approximation (the metric's
 * gradient and Hessian there, up to scale), then `reconstructCubic`.
 * @example elicitCubic(oracle.ask, 2, { tolerance: 0.01, strategy: STRATEGIES.lazy }).metric
 */
export function elicitCubic(
  ask: Ask<RatePoint>,
  k: number,
  o: CubicOptions,
): { metric: CubicMetric; questions: number; warnings: string[] } {
  const centre = o.centre ? o.centre.slice() : new Array<number>(k).fill(1 / k);
  const spread = o.spread ?? 0.25;
  const radius = o.radius ?? 0.05;
  const qpme = { ...o, rho: radius, varrho: o.varrho ?? radius / 200 };
  let questions = 0;
  const warnings: string[] = [];
  const local = (c: number[]): LocalQuadratic => {
    const r = elicitQpme(ask, k, { ...qpme, centre: c });
    questions += r.questions;
    warnings.push(...r.warnings);
    const gradient = r.metric.a.map(
      (ai, i) => ai + r.metric.B[i]!.reduce((s, b, j) => s + b * c[j]!, 0),
    );
    return { centre: c, gradient, hessian: r.metric.B };
  };
  const atO = local(centre);
  const atZ = Array.from({ length: k }, (_, l) => local(shifted(centre, l, spread)));
  return { metric: reconstructCubic(atO, atZ, spread), questions, warnings };
}

/**
 * A random cubic metric for simulations (our choice; the paper gives no sampler): a ~ U(0.5,
 * 1.5)^k, B with a negative diagonal U(-1.5, -0.5) and small symmetric off-diagonal entries,
 * and a symmetric C with entries U(-c/2, c/2), jointly normalised.
 * @example randomCubicMetric(2, createRng(1)).C.length // 2
 */
export function randomCubicMetric(k: number, rng: Rng, cScale = 0.3): CubicMetric {
  const a = Array.from({ length: k }, () => 0.5 + rng.next());
  const B = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let i = 0; i < k; i++) {
    B[i]![i] = -(0.5 + rng.next());
    for (let j = 0; j < i; j++) B[i]![j] = B[j]![i] = 0.2 * (rng.next() - 0.5);
  }
  const C = Array.from({ length: k }, () =>
    Array.from({ length: k }, () => new Array<number>(k).fill(0)),
  );
  for (let i = 0; i < k; i++)
    for (let j = i; j < k; j++)
      for (let l = j; l < k; l++) {
        const v = cScale * (rng.next() - 0.5);
        for (const [x, y, z] of [
          [i, j, l],
          [i, l, j],
          [j, i, l],
          [j, l, i],
          [l, i, j],
          [l, j, i],
        ] as const)
          C[x]![y]![z] = v;
      }
  return normalizeCubic({ a, B, C });
}
