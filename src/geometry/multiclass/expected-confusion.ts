/**
 * Expected confusions of randomised classifiers on a pool (ALGORITHMS.md B.2).
 */
import type { ConfusionMatrix } from "./brands.ts";
import type { Classifier } from "./classifier.ts";
import { pluginConfusion } from "./plugin.ts";
import type { MulticlassPool } from "./pool.ts";

// Classifier values are frozen, so a classifier object always has the same confusion on a
// pool: cache by identity. Sphere points mix the same axis classifiers again and again, so
// checking many of them becomes cheap.
const cache = new WeakMap<MulticlassPool, WeakMap<Classifier, ConfusionMatrix>>();

function cached(pool: MulticlassPool, classifier: Classifier): ConfusionMatrix {
  let byClassifier = cache.get(pool);
  if (!byClassifier) {
    byClassifier = new WeakMap();
    cache.set(pool, byClassifier);
  }
  let c = byClassifier.get(classifier);
  if (!c) {
    if (classifier.kind === "plugin") c = pluginConfusion(pool, classifier);
    else {
      const out = new Float64Array(pool.k * pool.k);
      for (const { classifier: part, weight } of classifier.components) {
        const p = cached(pool, part);
        for (let t = 0; t < out.length; t++) out[t] += weight * p[t]!;
      }
      c = out as ConfusionMatrix;
    }
    if (Object.isFrozen(classifier)) byClassifier.set(classifier, c);
  }
  return c;
}

/**
 * Exact expected confusion of any classifier on a pool: plug-ins by one vectorised pass,
 * mixtures by linearity (`sum_t w_t C(h_t)`). Results for frozen classifier values are cached
 * per pool; the caller gets its own copy.
 *
 * @example
 * expectedConfusion(pool, uniformClassifier(pool.k)); // every entry zeta_i / k
 */
export function expectedConfusion(pool: MulticlassPool, classifier: Classifier): ConfusionMatrix {
  return cached(pool, classifier).slice() as ConfusionMatrix;
}
