/**
 * Expected confusions of randomised classifiers on a pool (ALGORITHMS.md B.2).
 */
import type { ConfusionMatrix } from "./brands.ts";
import type { Classifier } from "./classifier.ts";
import { pluginConfusion } from "./plugin.ts";
import type { MulticlassPool } from "./pool.ts";

/**
 * Exact expected confusion of any classifier on a pool: plug-ins by one vectorised pass,
 * mixtures by linearity (`sum_t w_t C(h_t)`).
 *
 * @example
 * expectedConfusion(pool, uniformClassifier(pool.k)); // every entry zeta_i / k
 */
export function expectedConfusion(pool: MulticlassPool, classifier: Classifier): ConfusionMatrix {
  if (classifier.kind === "plugin") return pluginConfusion(pool, classifier);
  const out = new Float64Array(pool.k * pool.k);
  for (const { classifier: part, weight } of classifier.components) {
    const c = expectedConfusion(pool, part);
    for (let t = 0; t < out.length; t++) out[t] += weight * c[t];
  }
  return out as ConfusionMatrix;
}
