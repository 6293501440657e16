/**
 * Restricted Bayes optimal (RBO) classifiers for a class pair and the upper-boundary
 * parametrisation `nu(m; k1, k2)` (ALGORITHMS.md A.3). Restricted to the labels {k1, k2},
 * the DLPM with weights `nu(m)` (m at k1, 1-m at k2) is maximised by
 * `hbar(x) = k1 if m eta_k1(x) >= (1-m) eta_k2(x) else k2`; as m runs over [0, 1] its
 * diagonal confusion `dbar(m)` traces the upper boundary of `D_{k1,k2}` from
 * `zeta_k2 e_k2` to `zeta_k1 e_k1`.
 *
 * @example
 * const { point, classifier } = restrictedBayesOptimal(pool, 0, 2, 0.4); // dbar(0.4)
 */
import type { DiagConfusion } from "./brands.ts";
import type { PluginClassifier } from "./classifier.ts";
import { pluginClassifier, pluginConfusion } from "./plugin.ts";
import type { MulticlassPool } from "./pool.ts";

function checkPair(k: number, k1: number, k2: number): void {
  for (const c of [k1, k2]) {
    if (!Number.isInteger(c) || c < 0 || c >= k)
      throw new RangeError(`class ${c} not in 0..${k - 1}`);
  }
  if (k1 === k2) throw new RangeError("a restricted classifier needs two different classes");
}

/**
 * The weight vector `nu(m; k1, k2)`: m at k1, 1 - m at k2, 0 elsewhere (length k).
 *
 * @example
 * nu(0.25, 0, 2, 3); // [0.25, 0, 0.75]
 */
export function nu(m: number, k1: number, k2: number, k: number): number[] {
  checkPair(k, k1, k2);
  if (!(m >= 0 && m <= 1)) throw new RangeError(`m = ${m} must lie in [0, 1]`);
  const w = new Array<number>(k).fill(0);
  w[k1] = m;
  w[k2] = 1 - m;
  return w;
}

/**
 * The RBO classifier for `nu(m; k1, k2)`: a plug-in restricted to {k1, k2} with ties going to
 * k1. At m = 0 it is the constant k2 (the literal rule would still pick k1 where
 * `eta_k2(x) = 0`), so both ends of the boundary are exactly the vertices.
 *
 * @example
 * rboClassifier(pool.priors, 0, 1, 1).labels; // [0, 1]: predicts 0 everywhere
 */
export function rboClassifier(
  priors: ArrayLike<number>,
  k1: number,
  k2: number,
  m: number,
): PluginClassifier {
  const w = nu(m, k1, k2, priors.length);
  return pluginClassifier("diag-confusion", w, priors, m === 0 ? [k2] : [k1, k2]);
}

/**
 * The RBO point `dbar(m)` on the pool together with the classifier achieving it.
 *
 * @example
 * restrictedBayesOptimal(pool, 0, 1, 1).point; // zeta_0 e_0
 */
export function restrictedBayesOptimal(
  pool: MulticlassPool,
  k1: number,
  k2: number,
  m: number,
): { point: DiagConfusion; classifier: PluginClassifier } {
  const classifier = rboClassifier(pool.priors, k1, k2, m);
  const C = pluginConfusion(pool, classifier);
  const k = pool.k;
  const d = new Float64Array(k);
  for (let i = 0; i < k; i++) d[i] = C[i * k + i];
  return { point: d as DiagConfusion, classifier };
}
