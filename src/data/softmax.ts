/**
 * L2-regularised multinomial (softmax) logistic regression, fitted by L-BFGS.
 *
 * @example
 * const model = fitSoftmax(trainX, trainY, 3, { l2: 1 });
 * model.predictProba(testX); // one Float64Array of k class probabilities per row
 */
import { minimizeLbfgs } from "../math/lbfgs.ts";
import { featureCount } from "./design.ts";
import { DataError } from "./errors.ts";

export interface SoftmaxOptions {
  /** Penalty strength λ on all weights (not the intercepts); default 1. */
  l2?: number;
  /** Most L-BFGS iterations; default 500. */
  maxIter?: number;
  /** Stop once max|gradient| <= tol · max(1, max|gradient at the start|); default 1e-8. */
  tol?: number;
}

export interface SoftmaxModel {
  /** k×d weights, row-major: class c's weights are W[c*d .. c*d+d). */
  W: Float64Array;
  /** k intercepts, centred to sum to 0 (they are only defined up to a common shift). */
  b: Float64Array;
  iterations: number;
  converged: boolean;
  /** P(y = c | x) for c = 0..k-1, per row. */
  predictProba(rows: readonly Float64Array[]): Float64Array[];
}

/**
 * Fit P(y = c | x) ∝ exp(W_cᵀx + b_c) by minimising
 *
 *     Σᵢ [logΣ_c exp(z_ic) − z_{i,yᵢ}] + (λ/2) ‖W‖²_F,
 *
 * the summed log-loss plus a ridge penalty on every class's weights (intercepts free), as in
 * scikit-learn's multinomial `LogisticRegression(C = 1/λ)`. The penalty makes the optimal W
 * unique (its rows sum to zero). For k = 2 this equals binary `fitLogistic` with penalty λ/2
 * on w = W₁ − W₀: splitting w evenly between the two rows is the cheapest way to express it.
 *
 * `y` holds class indices 0..k-1 and every class must occur (an absent class's free
 * intercept would run off to −∞). Throws RangeError for malformed input, DataError for an
 * absent class.
 *
 * @example
 * const X = [0, 1, 2, 3, 4, 5].map((v) => Float64Array.of(v));
 * const m = fitSoftmax(X, [0, 0, 1, 1, 2, 2], 3);
 * m.predictProba([Float64Array.of(0)])[0]; // highest probability for class 0
 */
export function fitSoftmax(
  X: readonly Float64Array[],
  y: ArrayLike<number>,
  k: number,
  options: SoftmaxOptions = {},
): SoftmaxModel {
  const { l2 = 1.0, maxIter = 500, tol = 1e-8 } = options;
  if (!(l2 >= 0)) throw new RangeError(`l2 must be >= 0, got ${l2}`);
  if (!(Number.isInteger(k) && k >= 2)) throw new RangeError(`k must be an integer >= 2, got ${k}`);
  const n = y.length;
  const d = featureCount(X, n);
  const counts = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    const c = y[i]!;
    if (!(Number.isInteger(c) && c >= 0 && c < k)) {
      throw new RangeError(`label ${i} is ${c}, not a class index in 0..${k - 1}`);
    }
    counts[c] = counts[c]! + 1;
  }
  const absent = [...counts.keys()].filter((c) => counts[c] === 0);
  if (absent.length > 0) {
    throw new DataError(`class ${absent.join(", ")} has no training examples`);
  }

  const kd = k * d;
  // Start from the best constant model (log class frequencies), weights zero.
  const theta0 = new Float64Array(kd + k);
  for (let c = 0; c < k; c++) theta0[kd + c] = Math.log(counts[c]! / n);

  const z = new Float64Array(k);
  const objective = (theta: Float64Array, grad: Float64Array): number => {
    grad.fill(0);
    let f = 0;
    for (let i = 0; i < n; i++) {
      const x = X[i]!;
      const yi = y[i]!;
      logits(theta, x, k, d, z);
      const zy = z[yi]!; // -log p_y = lse - z_y, exact even when p_y underflows to 0
      f += softmaxInPlace(z) - zy;
      for (let c = 0; c < k; c++) {
        const r = z[c]! - (c === yi ? 1 : 0);
        if (r === 0) continue;
        const row = c * d;
        for (let j = 0; j < d; j++) grad[row + j] = grad[row + j]! + r * x[j]!;
        grad[kd + c] = grad[kd + c]! + r;
      }
    }
    let ww = 0;
    for (let j = 0; j < kd; j++) {
      ww += theta[j]! ** 2;
      grad[j] = grad[j]! + l2 * theta[j]!;
    }
    return f + 0.5 * l2 * ww;
  };

  const result = minimizeLbfgs(objective, theta0, { maxIter, tol });
  const W = result.x.slice(0, kd);
  const b = result.x.slice(kd);
  let shift = 0;
  for (let c = 0; c < k; c++) shift += b[c]! / k;
  for (let c = 0; c < k; c++) b[c] = b[c]! - shift;

  const params = Float64Array.of(...W, ...b);
  return {
    W,
    b,
    iterations: result.iterations,
    converged: result.converged,
    predictProba: (rows) =>
      rows.map((row) => {
        if (row.length !== d) throw new RangeError(`row has ${row.length} features, not ${d}`);
        const p = new Float64Array(k);
        logits(params, row, k, d, p);
        softmaxInPlace(p);
        return p;
      }),
  };
}

/** out[c] = W_c·x + b_c with θ = [W (row-major), b]. */
function logits(
  theta: Float64Array,
  x: Float64Array,
  k: number,
  d: number,
  out: Float64Array,
): void {
  const kd = k * d;
  for (let c = 0; c < k; c++) {
    let s = theta[kd + c]!;
    const row = c * d;
    for (let j = 0; j < d; j++) s += theta[row + j]! * x[j]!;
    out[c] = s;
  }
}

/** Replace logits by probabilities (shifted by the max, so exp never overflows); returns log Σ exp. */
function softmaxInPlace(z: Float64Array): number {
  let max = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < z.length; c++) max = Math.max(max, z[c]!);
  let sum = 0;
  for (let c = 0; c < z.length; c++) {
    const e = Math.exp(z[c]! - max);
    z[c] = e;
    sum += e;
  }
  for (let c = 0; c < z.length; c++) z[c] = z[c]! / sum;
  return max + Math.log(sum);
}
