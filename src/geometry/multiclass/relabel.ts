/**
 * Relabel a classifier's predictions by a permutation `perm` (old label j becomes
 * `perm[j]`). If h realises confusion C, then `perm ∘ h` realises C with its columns permuted,
 * which is how the sphere code turns one axis point into the others: the off-diagonal
 * feasible sets are invariant under column permutations and their centre is constant within
 * each row.
 *
 * The relabelled plug-in applies exactly the permuted gain, with the candidate order permuted
 * too, so it predicts `perm[h(x)]` at every input, ties included. Its `weights` are rewritten in
 * the off-diagonal space of the same family (a per-row constant is dropped from the gain's
 * description, which changes no decision); a result that is still diagonal stays diagonal.
 */
import type { Classifier, MixtureClassifier, PluginClassifier } from "./classifier.ts";
import { isDiagonalSpace, isRateSpace } from "./space-kind.ts";

/**
 * The classifier `perm ∘ h`: predicts `perm[h(x)]` wherever h predicts `h(x)`.
 *
 * @example
 * relabelClassifier(constantClassifier(3, 0), [2, 1, 0]); // always predicts 2
 */
export function relabelClassifier(classifier: Classifier, perm: readonly number[]): Classifier {
  const k = classifier.k;
  if (perm.length !== k || new Set(perm).size !== k || perm.some((p) => !(p >= 0 && p < k))) {
    throw new RangeError(`not a permutation of 0..${k - 1}: [${perm.join(", ")}]`);
  }
  const done = new Map<Classifier, Classifier>();
  const visit = (c: Classifier): Classifier => {
    const seen = done.get(c);
    if (seen !== undefined) return seen;
    const out = c.kind === "plugin" ? relabelPlugin(c, perm) : relabelMixture(c, visit);
    done.set(c, out);
    return out;
  };
  return visit(classifier);
}

function relabelMixture(c: MixtureClassifier, visit: (c: Classifier) => Classifier): Classifier {
  const components = c.components.map((p) =>
    Object.freeze({ classifier: visit(p.classifier), weight: p.weight }),
  );
  return Object.freeze({ kind: "mixture", k: c.k, components: Object.freeze(components) });
}

function relabelPlugin(c: PluginClassifier, perm: readonly number[]): PluginClassifier {
  const k = c.k;
  const gain = new Array<number>(k * k);
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) gain[i * k + perm[j]] = c.gain[i * k + j];
  const labels = (c.labels ?? Array.from({ length: k }, (_, j) => j)).map((j) => perm[j]);
  // Full weight matrix of the functional, columns permuted.
  const w = new Array<number>(k * k).fill(0);
  let t = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      if (isDiagonalSpace(c.space)) {
        if (i === j) w[i * k + perm[j]] = c.weights[i];
      } else if (i !== j) w[i * k + perm[j]] = c.weights[t++];
    }
  }
  let stillDiagonal = true;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) if (i !== j && w[i * k + j] !== 0) stillDiagonal = false;
  const base = { kind: "plugin" as const, k, gain: Object.freeze(gain) };
  const withLabels =
    c.labels === undefined && labels.every((l, j) => l === j)
      ? {}
      : { labels: Object.freeze(labels) };
  if (stillDiagonal && isDiagonalSpace(c.space)) {
    const weights = Array.from({ length: k }, (_, i) => w[i * k + i]);
    return Object.freeze({
      ...base,
      space: c.space,
      weights: Object.freeze(weights),
      ...withLabels,
    });
  }
  const weights: number[] = [];
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) if (j !== i) weights.push(w[i * k + j] - w[i * k + i]);
  const space = isRateSpace(c.space) ? "offdiag-rates" : "offdiag-confusion";
  return Object.freeze({ ...base, space, weights: Object.freeze(weights), ...withLabels });
}
