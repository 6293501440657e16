import { MulticlassPool } from "../geometry/multiclass/pool.ts";
import { createRng } from "../math/rng.ts";

/** Shape of the population `syntheticSoftmaxPool` samples. */
export interface SyntheticSoftmaxOptions {
  /** Dimension of the Gaussian inputs (default 2). */
  readonly dims?: number;
  /** Standard deviation of the score weights (default 1.5); 0 gives every row the same eta. */
  readonly spread?: number;
}

/**
 * A random soft-label pool: `n` inputs `x ~ N(0, I_dims)`, class scores `w_i . x + b_i` with
 * `w ~ N(0, spread^2)` and `b ~ N(0, 0.25)` drawn once, and `eta(x)` = softmax of the scores.
 * Seeded, so a seed always gives the same pool. It is the geometry tests' and the multiclass
 * bench's stand-in for a fitted model (unlike `syntheticMulticlassPool`, the deterministic
 * one-dimensional population of the paper reproduction).
 * @example syntheticSoftmaxPool(2000, 3, 7).n // 2000
 * @example syntheticSoftmaxPool(1800, 10, 11, { dims: 8 }).k // 10
 */
export function syntheticSoftmaxPool(
  n: number,
  k: number,
  seed: number,
  { dims = 2, spread = 1.5 }: SyntheticSoftmaxOptions = {},
): MulticlassPool {
  const rng = createRng(seed);
  const w = Array.from({ length: k * dims }, () => spread * rng.normal());
  const b = Array.from({ length: k }, () => 0.5 * rng.normal());
  const eta = new Float64Array(n * k);
  const x = new Float64Array(dims);
  const s = new Float64Array(k);
  for (let p = 0; p < n; p++) {
    for (let d = 0; d < dims; d++) x[d] = rng.normal();
    let max = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < k; i++) {
      let v = b[i];
      for (let d = 0; d < dims; d++) v += w[i * dims + d] * x[d];
      s[i] = v;
      max = Math.max(max, v);
    }
    // Subtracting the largest score keeps exp from overflowing; softmax is unchanged.
    let total = 0;
    for (let i = 0; i < k; i++) {
      s[i] = Math.exp(s[i] - max);
      total += s[i];
    }
    for (let i = 0; i < k; i++) eta[p * k + i] = s[i] / total;
  }
  return new MulticlassPool(eta, k);
}
