import { minimizeLbfgs } from "../../math/lbfgs.ts";
import { argmax, type Classifier, checkLabels } from "./classifier.ts";

/** Options of `fitWeightedLogistic`. */
export interface WeightedLogisticOptions {
  /** Per-class weights multiplying each example's log-loss (default all 1). */
  readonly classWeights?: readonly number[];
  /** L2 penalty on the weights (not the intercepts), per unit of total sample weight; default 1e-3. */
  readonly l2?: number;
  /** L1 penalty (smoothed, `sqrt(w^2 + 1e-8)`), per unit of total sample weight; default 0. */
  readonly l1?: number;
  /** L-BFGS iterations; default 200. */
  readonly maxIter?: number;
}

/**
 * Multinomial logistic regression with class weights and an elastic-net-style penalty, fitted
 * by L-BFGS on the mean weighted log-loss. Deterministic (starts at zero).
 * @example fitWeightedLogistic(X, y, 3, { classWeights: [1, 2, 1], l2: 0.01 }).predict(X[0]!)
 */
export function fitWeightedLogistic(
  X: readonly Float64Array[],
  y: ArrayLike<number>,
  k: number,
  o: WeightedLogisticOptions = {},
): Classifier & { weights: Float64Array } {
  const n = X.length;
  checkLabels(y, k, n);
  const d = X[0]!.length;
  const cw = o.classWeights ?? new Array<number>(k).fill(1);
  if (cw.length !== k || !cw.every((w) => w >= 0 && Number.isFinite(w))) {
    throw new RangeError(`classWeights must be ${k} non-negative numbers`);
  }
  const l2 = o.l2 ?? 1e-3;
  const l1 = o.l1 ?? 0;
  let total = 0;
  for (let i = 0; i < n; i++) total += cw[y[i]!]!;
  if (!(total > 0)) throw new RangeError("total sample weight is zero");
  const stride = d + 1;
  const p = new Float64Array(k);
  const objective = (w: Float64Array, g: Float64Array): number => {
    g.fill(0);
    let f = 0;
    for (let i = 0; i < n; i++) {
      const x = X[i]!;
      const yi = y[i]!;
      const si = cw[yi]! / total;
      if (si === 0) continue;
      let mx = Number.NEGATIVE_INFINITY;
      for (let c = 0; c < k; c++) {
        let s = w[c * stride + d]!;
        for (let j = 0; j < d; j++) s += w[c * stride + j]! * x[j]!;
        p[c] = s;
        if (s > mx) mx = s;
      }
      let z = 0;
      for (let c = 0; c < k; c++) {
        p[c] = Math.exp(p[c]! - mx);
        z += p[c]!;
      }
      f -= si * Math.log(p[yi]! / z);
      for (let c = 0; c < k; c++) {
        const r = si * (p[c]! / z - (c === yi ? 1 : 0));
        for (let j = 0; j < d; j++) g[c * stride + j] += r * x[j]!;
        g[c * stride + d] += r;
      }
    }
    for (let c = 0; c < k; c++) {
      for (let j = 0; j < d; j++) {
        const v = w[c * stride + j]!;
        f += 0.5 * l2 * v * v;
        g[c * stride + j] += l2 * v;
        if (l1 > 0) {
          const s = Math.sqrt(v * v + 1e-8);
          f += l1 * s;
          g[c * stride + j] += (l1 * v) / s;
        }
      }
    }
    return f;
  };
  const res = minimizeLbfgs(objective, new Float64Array(k * stride), {
    maxIter: o.maxIter ?? 200,
    tol: 1e-6,
  });
  const weights = res.x;
  const s = new Float64Array(k);
  const name = `logistic(l2=${l2}${l1 > 0 ? `, l1=${l1}` : ""}, w=[${cw.map((v) => v.toFixed(2)).join(",")}])`;
  return {
    name,
    weights,
    predict(x: Float64Array): number {
      for (let c = 0; c < k; c++) {
        let v = weights[c * stride + d]!;
        for (let j = 0; j < d; j++) v += weights[c * stride + j]! * x[j]!;
        s[c] = v;
      }
      return argmax(s);
    },
  };
}
