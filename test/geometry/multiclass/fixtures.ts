/**
 * Synthetic pools for the multiclass geometry tests: Gaussian inputs in R^2, random linear
 * scores, eta = softmax of the scores. Seeded, so every run sees the same pool.
 */

import type { MulticlassPool } from "../../../src/geometry/multiclass/pool.ts";
import { syntheticSoftmaxPool } from "../../../src/population/synthetic-softmax.ts";

export function syntheticPool(n: number, k: number, seed: number, spread = 1.5): MulticlassPool {
  return syntheticSoftmaxPool(n, k, seed, { spread });
}
