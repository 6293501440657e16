/**
 * Synthetic pools for the multiclass geometry tests: Gaussian inputs in R^2, random linear
 * scores, eta = softmax of the scores. Seeded, so every run sees the same pool.
 */

import { MulticlassPool } from "../../../src/geometry/multiclass/pool.ts";
import { createRng } from "../../../src/math/rng.ts";

export function syntheticPool(n: number, k: number, seed: number, spread = 1.5): MulticlassPool {
  const rng = createRng(seed);
  const dims = 2;
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
    let total = 0;
    for (let i = 0; i < k; i++) {
      s[i] = Math.exp(s[i] - max);
      total += s[i];
    }
    for (let i = 0; i < k; i++) eta[p * k + i] = s[i] / total;
  }
  return new MulticlassPool(eta, k);
}
