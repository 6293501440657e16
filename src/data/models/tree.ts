import type { Rng } from "../../math/rng.ts";
import { argmax, type Classifier, checkLabels } from "./classifier.ts";

/** Options of `fitDecisionTree`. */
export interface TreeOptions {
  /** Maximum depth (root = 0); default 6. */
  readonly maxDepth?: number;
  /** Minimum examples in a leaf; default 5. */
  readonly minLeaf?: number;
  /**
   * Features considered per split, drawn with `rng` (default all). With fewer than all, pass
   * an `rng`.
   */
  readonly maxFeatures?: number;
  /** Per-class weights in the Gini impurity and leaf votes (default all 1). */
  readonly classWeights?: readonly number[];
}

type Node =
  | { leaf: true; label: number }
  | { leaf: false; feature: number; threshold: number; left: Node; right: Node };

/**
 * A CART decision tree (weighted Gini impurity, binary splits at midpoints between sorted
 * distinct values). Deterministic, except for the feature subsampling drawn from `rng`.
 * @example fitDecisionTree(X, y, 3, { maxDepth: 4 }).predict(X[0]!)
 */
export function fitDecisionTree(
  X: readonly Float64Array[],
  y: ArrayLike<number>,
  k: number,
  o: TreeOptions = {},
  rng?: Rng,
): Classifier {
  const n = X.length;
  checkLabels(y, k, n);
  const d = X[0]!.length;
  const maxDepth = o.maxDepth ?? 6;
  const minLeaf = Math.max(1, o.minLeaf ?? 5);
  const mf = Math.min(d, o.maxFeatures ?? d);
  if (mf < d && !rng) throw new RangeError("maxFeatures < features needs an rng");
  const cw = o.classWeights ?? new Array<number>(k).fill(1);
  if (cw.length !== k) throw new RangeError(`classWeights must have ${k} entries`);

  const gini = (counts: Float64Array, tot: number): number => {
    if (tot <= 0) return 0;
    let s = 0;
    for (let c = 0; c < k; c++) s += (counts[c]! / tot) ** 2;
    return tot * (1 - s);
  };
  const build = (idx: number[], depth: number): Node => {
    const counts = new Float64Array(k);
    for (const i of idx) counts[y[i]!] += cw[y[i]!]!;
    const label = argmax(counts);
    let tot = 0;
    for (let c = 0; c < k; c++) tot += counts[c]!;
    const pure = counts[label] === tot;
    if (depth >= maxDepth || idx.length < 2 * minLeaf || pure) return { leaf: true, label };
    let features = Array.from({ length: d }, (_, j) => j);
    if (mf < d) {
      for (let i = d - 1; i > 0; i--) {
        const j = rng!.int(i + 1);
        [features[i], features[j]] = [features[j]!, features[i]!];
      }
      features = features.slice(0, mf);
    }
    const parent = gini(counts, tot);
    let best = { gain: 1e-12, feature: -1, threshold: 0 };
    const left = new Float64Array(k);
    const right = new Float64Array(k);
    for (const f of features) {
      const sorted = idx.slice().sort((p, q) => X[p]![f]! - X[q]![f]!);
      left.fill(0);
      right.set(counts);
      let lt = 0;
      for (let s = 0; s < sorted.length - 1; s++) {
        const i = sorted[s]!;
        const w = cw[y[i]!]!;
        left[y[i]!] += w;
        right[y[i]!] -= w;
        lt += w;
        const v = X[i]![f]!;
        const next = X[sorted[s + 1]!]![f]!;
        if (v === next || s + 1 < minLeaf || sorted.length - s - 1 < minLeaf) continue;
        const gain = parent - gini(left, lt) - gini(right, tot - lt);
        if (gain > best.gain) best = { gain, feature: f, threshold: (v + next) / 2 };
      }
    }
    if (best.feature < 0) return { leaf: true, label };
    const li: number[] = [];
    const ri: number[] = [];
    for (const i of idx) (X[i]![best.feature]! <= best.threshold ? li : ri).push(i);
    return {
      leaf: false,
      feature: best.feature,
      threshold: best.threshold,
      left: build(li, depth + 1),
      right: build(ri, depth + 1),
    };
  };
  const root = build(
    Array.from({ length: n }, (_, i) => i),
    0,
  );
  return {
    name: `tree(depth=${maxDepth}, minLeaf=${minLeaf}${mf < d ? `, features=${mf}` : ""})`,
    predict(x: Float64Array): number {
      let node = root;
      while (!node.leaf) node = x[node.feature]! <= node.threshold ? node.left : node.right;
      return node.label;
    },
  };
}
