/**
 * Classifier values: what every queried point carries so that it can be realised. Plain,
 * frozen, JSON-serialisable objects (arrays of numbers, no typed arrays).
 *
 * - A *plug-in* is the deterministic rule `h(x) = argmax_j sum_i gain[i*k+j] eta_i(x)` over
 *   the candidate labels (all classes unless restricted), ties going to the candidate listed
 *   first (the lowest index by default). `space` and `weights` say which linear functional it
 *   optimises; `gain` is the rule actually applied (for rate spaces the priors are baked in).
 * - A *mixture* draws one component per input with the given probabilities (B.2); its
 *   expected confusion is the weighted sum of its components' confusions.
 *
 * @example
 * const always2 = constantClassifier(3, 2);
 * const u = uniformClassifier(3);           // mixture of the three constants, 1/3 each
 * predict(always2, [0.2, 0.5, 0.3], createRng(1)); // 2
 */
import type { Rng } from "../../math/rng.ts";
import type { SpaceKind } from "./space-kind.ts";

/** Deterministic plug-in rule; see the module comment. */
export interface PluginClassifier {
  readonly kind: "plugin";
  /** Number of classes. */
  readonly k: number;
  /** The space whose linear functional `weights` describes (the rule maximises it). */
  readonly space: SpaceKind;
  /** Weights of that functional, one per coordinate of the space. */
  readonly weights: readonly number[];
  /**
   * Gain matrix, k*k row-major: predict `argmax_j sum_i gain[i*k+j] eta_i(x)`. This is the
   * rule applied; it equals `pluginGain(space, weights, priors)` up to a constant per row
   * (which changes no decision) — exactly, unless the classifier was relabelled.
   */
  readonly gain: readonly number[];
  /** Candidate labels in tie-break order; absent = all classes in ascending order. */
  readonly labels?: readonly number[];
}

/** One weighted component of a mixture. */
export interface MixtureComponent {
  readonly classifier: Classifier;
  readonly weight: number;
}

/** Randomised classifier: component t is used with probability `weight_t` (weights sum to 1). */
export interface MixtureClassifier {
  readonly kind: "mixture";
  readonly k: number;
  readonly components: readonly MixtureComponent[];
}

/** Any classifier the geometry produces. */
export type Classifier = PluginClassifier | MixtureClassifier;

/**
 * The constant classifier "always predict j", as a plug-in restricted to label j.
 *
 * @example
 * constantClassifier(3, 0).labels; // [0]
 */
export function constantClassifier(k: number, j: number): PluginClassifier {
  if (!Number.isInteger(j) || j < 0 || j >= k)
    throw new RangeError(`class ${j} not in 0..${k - 1}`);
  return Object.freeze({
    kind: "plugin",
    k,
    space: "diag-confusion",
    weights: Object.freeze(new Array<number>(k).fill(0)),
    gain: Object.freeze(new Array<number>(k * k).fill(0)),
    labels: Object.freeze([j]),
  });
}

/**
 * The uniform random classifier (each class with probability 1/k): the centre `o` of every
 * space.
 *
 * @example
 * uniformClassifier(4).components.length; // 4
 */
export function uniformClassifier(k: number): MixtureClassifier {
  // One frozen value per k, so that its confusion is computed once per pool (see
  // `expectedConfusion`): every sphere point mixes it in.
  let u = uniformByK.get(k);
  if (!u) {
    const components = [];
    for (let j = 0; j < k; j++)
      components.push({ classifier: constantClassifier(k, j), weight: 1 / k });
    u = mixtureClassifier(components);
    uniformByK.set(k, u);
  }
  return u;
}

const uniformByK = new Map<number, MixtureClassifier>();

/**
 * Build a mixture. Weights must be non-negative and sum to 1 (within 1e-9); they are
 * renormalised exactly and zero-weight components are dropped.
 *
 * @example
 * mixtureClassifier([
 *   { classifier: constantClassifier(2, 0), weight: 0.25 },
 *   { classifier: constantClassifier(2, 1), weight: 0.75 },
 * ]);
 */
export function mixtureClassifier(components: readonly MixtureComponent[]): MixtureClassifier {
  if (components.length === 0) throw new RangeError("a mixture needs at least one component");
  const k = components[0].classifier.k;
  let total = 0;
  for (const c of components) {
    if (c.classifier.k !== k) throw new RangeError("mixture components disagree on k");
    if (!Number.isFinite(c.weight) || c.weight < -1e-12) {
      throw new RangeError(`mixture weight ${c.weight} must be finite and >= 0`);
    }
    total += Math.max(0, c.weight);
  }
  if (Math.abs(total - 1) > 1e-9) throw new RangeError(`mixture weights sum to ${total}, not 1`);
  const kept = components
    .filter((c) => c.weight > 0)
    .map((c) => Object.freeze({ classifier: c.classifier, weight: c.weight / total }));
  return Object.freeze({ kind: "mixture", k, components: Object.freeze(kept) });
}

/**
 * Replace nested mixtures by their plug-in leaves (weights multiplied out; equal leaf objects
 * merged).
 *
 * @example
 * flattenMixture(mixtureClassifier([{ classifier: uniformClassifier(3), weight: 1 }]));
 * // a mixture of the three constant plug-ins
 */
export function flattenMixture(classifier: Classifier): MixtureClassifier {
  const weights = new Map<PluginClassifier, number>();
  const visit = (c: Classifier, w: number): void => {
    if (c.kind === "plugin") weights.set(c, (weights.get(c) ?? 0) + w);
    else for (const part of c.components) visit(part.classifier, w * part.weight);
  };
  visit(classifier, 1);
  return mixtureClassifier([...weights].map(([c, weight]) => ({ classifier: c, weight })));
}

/**
 * Label chosen by a plug-in rule for one probability vector.
 *
 * @example
 * pluginLabel(pluginClassifier("diag-confusion", [1, 1, 1], priors), [0.2, 0.5, 0.3]); // 1
 */
export function pluginLabel(classifier: PluginClassifier, etaRow: ArrayLike<number>): number {
  const { k, gain, labels } = classifier;
  const count = labels === undefined ? k : labels.length;
  let best = -1;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (let t = 0; t < count; t++) {
    const j = labels === undefined ? t : labels[t];
    let score = 0;
    for (let i = 0; i < k; i++) score += gain[i * k + j] * etaRow[i];
    if (best < 0 || score > bestScore) {
      best = j;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Predict a label for one input given its class probabilities; a mixture first draws a
 * component with `rng`.
 *
 * @example
 * predict(uniformClassifier(3), [0.2, 0.5, 0.3], createRng(7)); // 0, 1 or 2
 */
export function predict(classifier: Classifier, etaRow: ArrayLike<number>, rng: Rng): number {
  let c: Classifier = classifier;
  while (c.kind === "mixture") {
    const u = rng.next();
    let acc = 0;
    let chosen = c.components[c.components.length - 1].classifier;
    for (const part of c.components) {
      acc += part.weight;
      if (u < acc) {
        chosen = part.classifier;
        break;
      }
    }
    c = chosen;
  }
  return pluginLabel(c, etaRow);
}
