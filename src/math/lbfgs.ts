/**
 * Limited-memory BFGS for smooth unconstrained minimisation on Float64Array parameters.
 *
 * @example
 * // Minimise (x0 - 1)² + 10 (x1 + 2)².
 * const result = minimizeLbfgs((x, g) => {
 *   g[0] = 2 * (x[0]! - 1);
 *   g[1] = 20 * (x[1]! + 2);
 *   return (x[0]! - 1) ** 2 + 10 * (x[1]! + 2) ** 2;
 * }, [0, 0]);
 * result.x; // ≈ [1, -2]
 */
import { dot, normInf } from "./vector.ts";

/** Value at `x`; writes the gradient into `grad` (same length as `x`, may hold garbage). */
export type Objective = (x: Float64Array, grad: Float64Array) => number;

export interface LbfgsOptions {
  /** Most iterations (line searches) to run; default 500. */
  maxIter?: number;
  /** Stop once max|gradient| <= tol * max(1, max|initial gradient|); default 1e-8. */
  tol?: number;
  /** Number of correction pairs kept; default 10. */
  memory?: number;
}

export interface LbfgsResult {
  x: Float64Array;
  f: number;
  gradient: Float64Array;
  iterations: number;
  /** True when the gradient test passed (not merely out of iterations or line-search failure). */
  converged: boolean;
}

const C1 = 1e-4; // sufficient decrease (Armijo)
const C2 = 0.9; // curvature (weak Wolfe): loose, as usual for quasi-Newton methods
const MAX_TRIALS = 60;

/**
 * Minimise `objective` from `x0`. Search directions come from the two-loop recursion over the
 * last `memory` steps, scaled by sᵀy / yᵀy; step lengths from a bracketing weak-Wolfe line
 * search (bisection/doubling), which keeps every accepted pair's sᵀy > 0 so the inverse
 * Hessian model stays positive definite. The gradient test is relative to the starting
 * gradient so that objectives summed over many examples need no rescaling.
 *
 * @example
 * minimizeLbfgs((x, g) => { g[0] = 2 * x[0]!; return x[0]! ** 2; }, [3]).x; // ≈ [0]
 */
export function minimizeLbfgs(
  objective: Objective,
  x0: ArrayLike<number>,
  options: LbfgsOptions = {},
): LbfgsResult {
  const { maxIter = 500, tol = 1e-8, memory = 10 } = options;
  const n = x0.length;
  let x: Float64Array = Float64Array.from(x0);
  let g: Float64Array = new Float64Array(n);
  let f = objective(x, g);
  if (!Number.isFinite(f)) throw new RangeError("objective is not finite at the starting point");
  const threshold = tol * Math.max(1, normInf(g));
  const sList: Float64Array[] = [];
  const yList: Float64Array[] = [];
  const rhoList: number[] = [];
  let iterations = 0;
  let converged = normInf(g) <= threshold;

  while (!converged && iterations < maxIter) {
    let d = direction(g, sList, yList, rhoList);
    let gd = dot(g, d);
    if (!(gd < 0)) {
      // Rounding can spoil the model; fall back to steepest descent with a fresh memory.
      sList.length = yList.length = rhoList.length = 0;
      d = direction(g, sList, yList, rhoList);
      gd = dot(g, d);
    }
    const step = lineSearch(objective, x, f, d, gd);
    if (step === null) break;
    const s = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      s[i] = step.x[i]! - x[i]!;
      y[i] = step.g[i]! - g[i]!;
    }
    const sy = dot(s, y);
    if (sy > 0) {
      sList.push(s);
      yList.push(y);
      rhoList.push(1 / sy);
      if (sList.length > memory) {
        sList.shift();
        yList.shift();
        rhoList.shift();
      }
    }
    x = step.x;
    g = step.g;
    f = step.f;
    iterations++;
    converged = normInf(g) <= threshold;
  }
  return { x, f, gradient: g, iterations, converged };
}

/** -H g by the two-loop recursion; with no pairs, -g scaled to unit length. */
function direction(
  g: Float64Array,
  sList: readonly Float64Array[],
  yList: readonly Float64Array[],
  rhoList: readonly number[],
): Float64Array {
  const n = g.length;
  const m = sList.length;
  const q = Float64Array.from(g);
  if (m === 0) {
    const norm = Math.sqrt(dot(g, g)) || 1;
    for (let i = 0; i < n; i++) q[i] = -q[i]! / norm;
    return q;
  }
  const alpha = new Float64Array(m);
  for (let k = m - 1; k >= 0; k--) {
    const a = rhoList[k]! * dot(sList[k]!, q);
    alpha[k] = a;
    axpy(-a, yList[k]!, q);
  }
  const yLast = yList[m - 1]!;
  const gamma = dot(sList[m - 1]!, yLast) / dot(yLast, yLast);
  for (let i = 0; i < n; i++) q[i] = q[i]! * gamma;
  for (let k = 0; k < m; k++) {
    const beta = rhoList[k]! * dot(yList[k]!, q);
    axpy(alpha[k]! - beta, sList[k]!, q);
  }
  for (let i = 0; i < n; i++) q[i] = -q[i]!;
  return q;
}

/** Weak-Wolfe step along d from x, or null if none is found (e.g. at rounding level). */
function lineSearch(
  objective: Objective,
  x: Float64Array,
  f: number,
  d: Float64Array,
  gd: number,
): { x: Float64Array; g: Float64Array; f: number } | null {
  const n = x.length;
  let lo = 0;
  let hi = Number.POSITIVE_INFINITY;
  let t = 1;
  for (let trial = 0; trial < MAX_TRIALS; trial++) {
    const xt = new Float64Array(n);
    for (let i = 0; i < n; i++) xt[i] = x[i]! + t * d[i]!;
    const gt = new Float64Array(n);
    const ft = objective(xt, gt);
    // Negated test so that a NaN or infinite value also counts as "too far".
    if (!(ft <= f + C1 * t * gd)) hi = t;
    else if (dot(gt, d) < C2 * gd) lo = t;
    else return { x: xt, g: gt, f: ft };
    t = hi < Number.POSITIVE_INFINITY ? (lo + hi) / 2 : 2 * lo;
  }
  return null;
}

function axpy(a: number, x: Float64Array, y: Float64Array): void {
  for (let i = 0; i < y.length; i++) y[i] = y[i]! + a * x[i]!;
}
