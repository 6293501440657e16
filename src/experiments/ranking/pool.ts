import type { Classifier } from "../../data/models/classifier.ts";
import { fitMlp } from "../../data/models/mlp.ts";
import { fitDecisionTree } from "../../data/models/tree.ts";
import { fitWeightedLogistic } from "../../data/models/weighted-logistic.ts";
import type { Rng } from "../../math/rng.ts";

/** How many classifiers of each kind (default 20 logistic, 10 MLP, 10 trees). */
export interface PoolSizes {
  readonly logistic?: number;
  readonly mlp?: number;
  readonly tree?: number;
}

/** Class weights `exp(U(-1, 1))` per class (perturbed around balanced). */
function perturbedWeights(k: number, rng: Rng): number[] {
  return Array.from({ length: k }, () => Math.exp(rng.uniform(-1, 1)));
}

/**
 * The pool of varied classifiers of UAI 2022 Appendix H.2 (scaled down; the paper uses 20
 * each of logistic regression, MLP, LightGBM and SVM): logistic regressions with perturbed
 * class weights, L2 penalties log-uniform in [1e-4, 1] and an L1 penalty on every third one;
 * one-hidden-layer MLPs (4, 8 or 16 units, perturbed class weights); CART trees of depth 2..8
 * with perturbed class weights and random feature subsets. `X` should be standardised.
 */
export function buildClassifierPool(
  X: readonly Float64Array[],
  y: ArrayLike<number>,
  k: number,
  rng: Rng,
  sizes: PoolSizes = {},
): Classifier[] {
  const pool: Classifier[] = [];
  const d = X[0]!.length;
  for (let t = 0; t < (sizes.logistic ?? 20); t++) {
    const l2 = 10 ** rng.uniform(-4, 0);
    const l1 = t % 3 === 2 ? 10 ** rng.uniform(-3, -1) : 0;
    pool.push(
      fitWeightedLogistic(X, y, k, {
        classWeights: perturbedWeights(k, rng),
        l2,
        l1,
        maxIter: 100,
      }),
    );
  }
  for (let t = 0; t < (sizes.mlp ?? 10); t++) {
    const hidden = [4, 8, 16][t % 3]!;
    const l2 = 10 ** rng.uniform(-4, -1);
    pool.push(
      fitMlp(X, y, k, rng.fork(), {
        hidden,
        l2,
        classWeights: perturbedWeights(k, rng),
        maxIter: 100,
      }),
    );
  }
  for (let t = 0; t < (sizes.tree ?? 10); t++) {
    const maxDepth = 2 + (t % 7);
    const maxFeatures = Math.max(1, Math.ceil(d * rng.uniform(0.3, 1)));
    pool.push(
      fitDecisionTree(
        X,
        y,
        k,
        { maxDepth, minLeaf: 1 + rng.int(10), maxFeatures, classWeights: perturbedWeights(k, rng) },
        rng.fork(),
      ),
    );
  }
  return pool;
}

/**
 * Row-normalised confusion matrix of a classifier on test rows: `R[i][j] = P(h = j | Y = i)`
 * (a class absent from the test rows gets a zero row).
 */
export function rateMatrix(
  h: Classifier,
  X: readonly Float64Array[],
  y: ArrayLike<number>,
  k: number,
): number[][] {
  const R = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const counts = new Array<number>(k).fill(0);
  for (let i = 0; i < X.length; i++) {
    const c = y[i]!;
    const row = R[c]!;
    const j = h.predict(X[i]!);
    row[j] = row[j]! + 1;
    counts[c] = counts[c]! + 1;
  }
  return R.map((row, i) => row.map((v) => (counts[i]! > 0 ? v / counts[i]! : 0)));
}

/** Diagonal of a rate matrix (the per-class rates the diagonal-rate metrics use). */
export function diagonalRates(R: readonly (readonly number[])[]): number[] {
  return R.map((row, i) => row[i]!);
}
