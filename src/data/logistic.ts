/**
 * L2-regularised binary logistic regression, fitted by Newton's method (IRLS).
 *
 * @example
 * const model = fitLogistic(trainX, trainY, { l2: 1 });
 * const p = model.predictProba(testX); // P(y = 1) per row
 */
import { solveSpd } from "../math/cholesky.ts";
import { dot } from "../math/vector.ts";
import { featureCount } from "./design.ts";
import { DataError } from "./errors.ts";
import { sigmoid, softplus } from "./sigmoid.ts";

export interface LogisticOptions {
  /** Penalty strength λ on the weights (not the intercept); default 1. sklearn's C = 1 / λ. */
  l2?: number;
  /** Most Newton steps; default 100. */
  maxIter?: number;
  /** Stop when half the squared Newton decrement (≈ distance to the optimum in objective) is below this; default 1e-10. */
  tol?: number;
}

export interface LogisticModel {
  weights: Float64Array;
  intercept: number;
  /** Newton steps taken. */
  iterations: number;
  /** False only if `maxIter` ran out or the line search stalled first. */
  converged: boolean;
  /** P(y = 1 | x) for each row. */
  predictProba(rows: readonly Float64Array[]): Float64Array;
}

const ARMIJO = 1e-4;
const MAX_HALVINGS = 60;

/**
 * Fit P(y = 1 | x) = σ(wᵀx + b) by minimising
 *
 *     Σᵢ [log(1 + exp(zᵢ)) − yᵢ zᵢ] + (λ/2) ‖w‖²,   zᵢ = wᵀxᵢ + b,
 *
 * i.e. the summed (not averaged) log-loss plus a ridge penalty that leaves the intercept
 * free: the same optimum as scikit-learn's `LogisticRegression(C = 1/λ)`. With λ > 0 the
 * objective is strictly convex and bounded below in w, so a finite optimum exists even for
 * perfectly separable data; both classes must occur, or the intercept would diverge.
 *
 * Each step solves the (d+1)×(d+1) Newton system by Cholesky (with a diagonal jitter if
 * rounding makes it indefinite) and halves the step until the objective decreases enough
 * (Armijo), so every iteration makes progress even far from the optimum.
 *
 * `y` holds 0/1 labels. Throws RangeError for malformed input, DataError for a single class.
 *
 * @example
 * const X = [0, 1, 2, 3].map((v) => Float64Array.of(v));
 * const m = fitLogistic(X, [0, 0, 1, 1], { l2: 0.1 });
 * m.predictProba([Float64Array.of(1.5)]); // ≈ [0.5]
 */
export function fitLogistic(
  X: readonly Float64Array[],
  y: ArrayLike<number>,
  options: LogisticOptions = {},
): LogisticModel {
  const { l2 = 1.0, maxIter = 100, tol = 1e-10 } = options;
  if (!(l2 >= 0)) throw new RangeError(`l2 must be >= 0, got ${l2}`);
  const n = y.length;
  const d = featureCount(X, n);
  let positives = 0;
  for (let i = 0; i < n; i++) {
    if (y[i] !== 0 && y[i] !== 1) throw new RangeError(`label ${i} is ${y[i]}, not 0 or 1`);
    positives += y[i]!;
  }
  if (positives === 0 || positives === n) {
    throw new DataError("logistic regression needs examples of both classes");
  }

  const m = d + 1; // parameters: weights then intercept
  let theta: Float64Array = new Float64Array(m);
  // Start from the best constant model: already optimal in the intercept direction.
  theta[d] = Math.log(positives / (n - positives));

  const objective = (t: Float64Array): number => {
    let f = 0;
    for (let i = 0; i < n; i++) {
      const z = linear(X[i]!, t, d);
      f += softplus(z) - y[i]! * z;
    }
    let ww = 0;
    for (let j = 0; j < d; j++) ww += t[j]! ** 2;
    return f + 0.5 * l2 * ww;
  };

  let iterations = 0;
  let converged = false;
  let f = objective(theta);
  for (;;) {
    const { gradient, hessian } = newtonSystem(X, y, theta, l2);
    const delta = solveSpd(hessian, m, gradient);
    const decrement = dot(gradient, delta);
    if (decrement / 2 <= tol) {
      // In the quadratic region: one last full step is safe and sharpens the solution.
      for (let j = 0; j < m; j++) theta[j] = theta[j]! - delta[j]!;
      iterations++;
      converged = true;
      break;
    }
    if (iterations >= maxIter) break;
    let accepted: Float64Array | null = null;
    let step = 1;
    for (let h = 0; h < MAX_HALVINGS; h++, step /= 2) {
      const candidate = theta.map((v, j) => v - step * delta[j]!);
      const fc = objective(candidate);
      if (fc <= f - ARMIJO * step * decrement) {
        accepted = candidate;
        f = fc;
        break;
      }
    }
    if (accepted === null) break; // no decrease at rounding level: stop where we are
    theta = accepted;
    iterations++;
  }

  const weights = theta.slice(0, d);
  const intercept = theta[d]!;
  return {
    weights,
    intercept,
    iterations,
    converged,
    predictProba: (rows) =>
      Float64Array.from(rows, (row) => {
        if (row.length !== d) throw new RangeError(`row has ${row.length} features, not ${d}`);
        return sigmoid(dot(weights, row) + intercept);
      }),
  };
}

/** wᵀx + b with θ = [w, b]. */
function linear(x: Float64Array, theta: Float64Array, d: number): number {
  let z = theta[d]!;
  for (let j = 0; j < d; j++) z += theta[j]! * x[j]!;
  return z;
}

/**
 * Gradient and Hessian (lower triangle only, as `solveSpd` reads it) of the objective at θ.
 * The intercept is the last coordinate and carries no penalty.
 */
function newtonSystem(
  X: readonly Float64Array[],
  y: ArrayLike<number>,
  theta: Float64Array,
  l2: number,
): { gradient: Float64Array; hessian: Float64Array } {
  const d = theta.length - 1;
  const m = d + 1;
  const gradient = new Float64Array(m);
  const hessian = new Float64Array(m * m);
  const last = d * m;
  for (let i = 0; i < X.length; i++) {
    const x = X[i]!;
    const p = sigmoid(linear(x, theta, d));
    const r = p - y[i]!;
    const s = p * (1 - p);
    for (let j = 0; j < d; j++) {
      const xj = x[j]!;
      gradient[j] = gradient[j]! + r * xj;
      const sxj = s * xj;
      const row = j * m;
      for (let k = 0; k <= j; k++) hessian[row + k] = hessian[row + k]! + sxj * x[k]!;
      hessian[last + j] = hessian[last + j]! + sxj;
    }
    gradient[d] = gradient[d]! + r;
    hessian[last + d] = hessian[last + d]! + s;
  }
  for (let j = 0; j < d; j++) {
    gradient[j] = gradient[j]! + l2 * theta[j]!;
    hessian[j * m + j] = hessian[j * m + j]! + l2;
  }
  return { gradient, hessian };
}
