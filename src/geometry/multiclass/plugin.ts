/**
 * Plug-in classifiers and their vectorised evaluation on a pool (ALGORITHMS.md B.1). For a
 * linear functional `<w, s(h)>` of any of the four statistics `s`, the pointwise rule
 * `argmax_j sum_i G_ij eta_i(x)` with the right gain matrix `G` is optimal:
 * - diagonal confusions: `G = diag(w)`, i.e. `argmax_i w_i eta_i(x)`;
 * - off-diagonal confusions: `G_ij = w_(i,j)`, `G_ii = 0` (for costs `w = -cost`, this is
 *   `argmin_j sum_i cost_ij eta_i(x)`);
 * - rates: the same with row i of `G` divided by `zeta_i`.
 * One pass over the pool computes the labels and accumulates the soft-label confusion
 * `C_ij = sum_n mass_n eta_i(x_n) 1[h(x_n) = j]`; no per-point allocation.
 *
 * @example
 * const h = pluginClassifier("diag-confusion", [1, 2, 1], pool.priors);
 * const C = pluginConfusion(pool, h); // ConfusionMatrix of argmax_i w_i eta_i(x)
 */
import type { ConfusionMatrix } from "./brands.ts";
import type { PluginClassifier } from "./classifier.ts";
import type { MulticlassPool } from "./pool.ts";
import { isDiagonalSpace, isRateSpace, type SpaceKind, spaceDimension } from "./space-kind.ts";

/**
 * Gain matrix (k*k row-major) of the plug-in that maximises `<weights, s(h)>` in `kind`.
 * Rows of classes with zero prior are zero (those rows of `eta` vanish on the pool).
 *
 * @example
 * pluginGain("diag-rates", [1, 1], [0.25, 0.75]); // [4, 0, 0, 4/3]
 */
export function pluginGain(
  kind: SpaceKind,
  weights: ArrayLike<number>,
  priors: ArrayLike<number>,
): Float64Array {
  const k = priors.length;
  const dim = spaceDimension(kind, k);
  if (weights.length !== dim) {
    throw new RangeError(`${kind} weights need ${dim} entries for k = ${k}, got ${weights.length}`);
  }
  const gain = new Float64Array(k * k);
  if (isDiagonalSpace(kind)) {
    for (let i = 0; i < k; i++) gain[i * k + i] = weights[i];
  } else {
    let t = 0;
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) if (j !== i) gain[i * k + j] = weights[t++];
    }
  }
  if (isRateSpace(kind)) {
    for (let i = 0; i < k; i++) {
      const z = priors[i];
      for (let j = 0; j < k; j++) gain[i * k + j] = z > 0 ? gain[i * k + j] / z : 0;
    }
  }
  for (const g of gain)
    if (!Number.isFinite(g)) throw new RangeError("plug-in weights must be finite");
  return gain;
}

/**
 * The plug-in classifier maximising `<weights, s(h)>` over the space `kind`, optionally
 * restricted to `labels` (ties go to the first listed label).
 *
 * @example
 * pluginClassifier("offdiag-confusion", [-1, -1, -1, -1, -1, -1], priors); // argmax eta_j
 */
export function pluginClassifier(
  kind: SpaceKind,
  weights: ArrayLike<number>,
  priors: ArrayLike<number>,
  labels?: readonly number[],
): PluginClassifier {
  const k = priors.length;
  const gain = pluginGain(kind, weights, priors);
  const base = {
    kind: "plugin" as const,
    k,
    space: kind,
    weights: Object.freeze(Array.from(weights)),
    gain: Object.freeze(Array.from(gain)),
  };
  if (labels === undefined) return Object.freeze(base);
  if (labels.length === 0) throw new RangeError("a restricted plug-in needs at least one label");
  for (const j of labels) {
    if (!Number.isInteger(j) || j < 0 || j >= k)
      throw new RangeError(`label ${j} not in 0..${k - 1}`);
  }
  if (new Set(labels).size !== labels.length) throw new RangeError("repeated label");
  return Object.freeze({ ...base, labels: Object.freeze(labels.slice()) });
}

/**
 * A pool pass for a plug-in over all k labels with a general gain, unrolled for one k (the
 * gain's columns come in candidate order and `map` names their labels): the scores live in
 * locals, summed over i in ascending order exactly as the generic loop does
 * (so labels, including ties, are identical). Generated once per k (k <= 16); null where
 * code generation is unavailable (e.g. a browser content-security policy), and the generic
 * loop is used instead.
 */
type Kernel = (
  eta: Float64Array,
  weightedEta: Float64Array,
  gain: Float64Array,
  n: number,
  labelsOut: Int32Array | null,
  labelRows: Float64Array | null,
  map: Int32Array,
) => void;
/** The gain's entries as locals: `g{i}_{j}`, or the diagonal's `d{j}`. */
function gainLines(k: number, diagonal: boolean): string[] {
  const lines: string[] = [];
  if (diagonal) for (let j = 0; j < k; j++) lines.push(`const d${j} = gain[${j}];`);
  else
    for (let i = 0; i < k; i++)
      for (let j = 0; j < k; j++) lines.push(`const g${i}_${j} = gain[${i * k + j}];`);
  return lines;
}

/**
 * The opening of the loop over the points, to `best`: each label's score, summed over i in
 * ascending order (diagonal: `d_j eta_j`), and the first maximum.
 */
function pointLines(k: number, diagonal: boolean): string[] {
  const lines = [`for (let p = 0, base = 0; p < n; p++, base += ${k}) {`];
  for (let i = 0; i < k; i++) lines.push(`const e${i} = eta[base + ${i}];`);
  for (let j = 0; j < k; j++) {
    const terms = Array.from({ length: k }, (_, i) => `g${i}_${j} * e${i}`);
    lines.push(`const s${j} = ${diagonal ? `d${j} * e${j}` : terms.join(" + ")};`);
  }
  lines.push("let best = 0;", "let bestScore = s0;");
  for (let j = 1; j < k; j++)
    lines.push(`if (s${j} > bestScore) { bestScore = s${j}; best = ${j}; }`);
  return lines;
}

/** A generated function, or null where code generation is unavailable (a browser's CSP). */
function compile<T>(params: readonly string[], lines: readonly string[]): T | null {
  try {
    return new Function(...params, lines.join("\n")) as T;
  } catch {
    return null;
  }
}

const kernels = new Map<number, Kernel | null>();
function kernelFor(k: number): Kernel | null {
  if (k > 16) return null;
  let kernel = kernels.get(k);
  if (kernel !== undefined) return kernel;
  const lines = [...gainLines(k, false), ...pointLines(k, false)];
  lines.push("const label = map[best];");
  lines.push("if (labelsOut !== null) labelsOut[p] = label;");
  lines.push("if (labelRows !== null) {", `const o = label * ${k};`);
  for (let i = 0; i < k; i++) lines.push(`labelRows[o + ${i}] += weightedEta[base + ${i}];`);
  lines.push("}", "}");
  kernel = compile<Kernel>(
    ["eta", "weightedEta", "gain", "n", "labelsOut", "labelRows", "map"],
    lines,
  );
  kernels.set(k, kernel);
  return kernel;
}

/**
 * A pool pass for the confusion matrix alone (no labels), unrolled for one k: the scores as
 * `kernelFor` (or, `diagonal`, the generic loop's `gain_jj eta_j`) computes them, the
 * soft-label sums in k * k locals, one per (column position, row), each summed over the
 * points in ascending order and added once to `out` at the end (`out[i * k + map[t]]`). On
 * a zeroed `out` (its only use) that is the same sum as adding each point to it, to the bit,
 * and a third faster than array updates per point (LPM k = 3 on 20,000 points). `gain` is the
 * ordered k x k gain, or the diagonal's k values.
 */
type ConfusionKernel = (
  eta: Float64Array,
  weightedEta: Float64Array,
  gain: Float64Array,
  n: number,
  out: Float64Array,
  map: Int32Array,
) => void;
const confusionKernels = new Map<string, ConfusionKernel | null>();
function confusionKernelFor(k: number, diagonal: boolean): ConfusionKernel | null {
  if (k > 16) return null;
  const id = `${k} ${diagonal}`;
  let kernel = confusionKernels.get(id);
  if (kernel !== undefined) return kernel;
  const lines = gainLines(k, diagonal);
  for (let t = 0; t < k; t++) for (let i = 0; i < k; i++) lines.push(`let r${t}_${i} = 0;`);
  lines.push(...pointLines(k, diagonal), "switch (best) {");
  for (let t = 0; t < k; t++) {
    lines.push(`case ${t}:`);
    for (let i = 0; i < k; i++) lines.push(`r${t}_${i} += weightedEta[base + ${i}];`);
    lines.push("break;");
  }
  lines.push("}", "}");
  for (let t = 0; t < k; t++)
    for (let i = 0; i < k; i++) lines.push(`out[${i * k} + map[${t}]] += r${t}_${i};`);
  kernel = compile<ConfusionKernel>(["eta", "weightedEta", "gain", "n", "out", "map"], lines);
  confusionKernels.set(id, kernel);
  return kernel;
}

/** Pool pass shared by `pluginLabels` and `pluginConfusion`. */
function evaluate(
  pool: MulticlassPool,
  classifier: PluginClassifier,
  labelsOut: Int32Array | null,
  confusionOut: Float64Array | null,
): void {
  const { k, n, eta, weightedEta } = pool;
  if (classifier.k !== k) throw new RangeError(`classifier has k = ${classifier.k}, pool k = ${k}`);
  const candidates = Int32Array.from(classifier.labels ?? Array.from({ length: k }, (_, j) => j));
  const m = candidates.length;
  // Transposed gain restricted to the candidates: row t holds column candidates[t] of G, so
  // the inner loop runs over contiguous memory.
  const gt = new Float64Array(m * k);
  let diagonal = classifier.labels === undefined;
  for (let t = 0; t < m; t++) {
    const j = candidates[t];
    for (let i = 0; i < k; i++) {
      const g = classifier.gain[i * k + j];
      gt[t * k + i] = g;
      if (i !== j && g !== 0) diagonal = false;
    }
  }
  // The confusion alone (into a zeroed matrix, as `pluginConfusion` passes it) over all k
  // labels: the unrolled confusion kernel.
  const confusionKernel =
    labelsOut === null && confusionOut !== null && m === k ? confusionKernelFor(k, diagonal) : null;
  if (confusionKernel !== null && confusionOut !== null) {
    const g = new Float64Array(diagonal ? k : k * k);
    if (diagonal) for (let j = 0; j < k; j++) g[j] = classifier.gain[j * k + j];
    else
      for (let i = 0; i < k; i++)
        for (let t = 0; t < k; t++) g[i * k + t] = classifier.gain[i * k + candidates[t]];
    confusionKernel(eta, weightedEta, g, n, confusionOut, candidates);
    return;
  }
  // All k labels (in any tie order) and a general gain: the unrolled kernel, on the gain's
  // columns reordered into candidate order (so the first maximum is the same label).
  const kernel = !diagonal && m === k ? kernelFor(k) : null;
  if (kernel !== null) {
    const ordered = new Float64Array(k * k);
    for (let i = 0; i < k; i++)
      for (let t = 0; t < k; t++) ordered[i * k + t] = classifier.gain[i * k + candidates[t]];
    // labelRows[j * k + i] accumulates column j of the confusion matrix contiguously.
    const labelRows = confusionOut === null ? null : new Float64Array(k * k);
    kernel(eta, weightedEta, ordered, n, labelsOut, labelRows, candidates);
    if (confusionOut !== null && labelRows !== null) {
      for (let j = 0; j < k; j++)
        for (let i = 0; i < k; i++) confusionOut[i * k + j] += labelRows[j * k + i];
    }
    return;
  }
  const diag = new Float64Array(k);
  for (let j = 0; j < k; j++) diag[j] = classifier.gain[j * k + j];
  for (let p = 0, base = 0; p < n; p++, base += k) {
    let best = candidates[0];
    if (m > 1) {
      let bestScore: number;
      if (diagonal) {
        bestScore = diag[0] * eta[base];
        for (let j = 1; j < k; j++) {
          const s = diag[j] * eta[base + j];
          if (s > bestScore) {
            bestScore = s;
            best = j;
          }
        }
      } else {
        bestScore = Number.NEGATIVE_INFINITY;
        for (let t = 0, row = 0; t < m; t++, row += k) {
          let s = 0;
          for (let i = 0; i < k; i++) s += gt[row + i] * eta[base + i];
          if (t === 0 || s > bestScore) {
            bestScore = s;
            best = candidates[t];
          }
        }
      }
    }
    if (labelsOut !== null) labelsOut[p] = best;
    if (confusionOut !== null) {
      for (let i = 0; i < k; i++) confusionOut[i * k + best] += weightedEta[base + i];
    }
  }
}

/**
 * Labels the plug-in assigns to every pool point.
 *
 * @example
 * pluginLabels(pool, constantClassifier(pool.k, 1)); // Int32Array of 1s
 */
export function pluginLabels(pool: MulticlassPool, classifier: PluginClassifier): Int32Array {
  const out = new Int32Array(pool.n);
  evaluate(pool, classifier, out, null);
  return out;
}

/**
 * Soft-label confusion matrix of a plug-in on the pool, in one pass.
 *
 * @example
 * pluginConfusion(pool, constantClassifier(pool.k, 0)); // column 0 = priors
 */
export function pluginConfusion(
  pool: MulticlassPool,
  classifier: PluginClassifier,
): ConfusionMatrix {
  const out = new Float64Array(pool.k * pool.k);
  evaluate(pool, classifier, null, out);
  return out as ConfusionMatrix;
}

/**
 * Soft-label confusion matrix of any deterministic labelling of the pool points.
 *
 * @example
 * confusionOfLabels(pool, new Int32Array(pool.n)); // "always 0"
 */
export function confusionOfLabels(
  pool: MulticlassPool,
  labels: ArrayLike<number>,
): ConfusionMatrix {
  const { k, n, weightedEta } = pool;
  if (labels.length !== n) throw new RangeError(`expected ${n} labels, got ${labels.length}`);
  const out = new Float64Array(k * k);
  for (let p = 0; p < n; p++) {
    const j = labels[p];
    if (!Number.isInteger(j) || j < 0 || j >= k)
      throw new RangeError(`label ${j} not in 0..${k - 1}`);
    for (let i = 0; i < k; i++) out[i * k + j] += weightedEta[p * k + i];
  }
  return out as ConfusionMatrix;
}
