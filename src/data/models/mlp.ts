import { minimizeLbfgs } from "../../math/lbfgs.ts";
import type { Rng } from "../../math/rng.ts";
import { argmax, type Classifier, checkLabels } from "./classifier.ts";

/** Options of `fitMlp`. */
export interface MlpOptions {
  /** Hidden units (one tanh layer); default 8. */
  readonly hidden?: number;
  /** L2 penalty on all weights, per example; default 1e-3. */
  readonly l2?: number;
  /** L-BFGS iterations; default 150. */
  readonly maxIter?: number;
  /** Per-class weights on the log-loss (default all 1). */
  readonly classWeights?: readonly number[];
}

/**
 * A one-hidden-layer perceptron (tanh, softmax output) trained on the mean weighted log-loss
 * plus L2 by full-batch L-BFGS; initial weights `N(0, 1/fan_in)` from `rng` (seeded, so the
 * result is a pure function of the data, the options and the generator state).
 * @example fitMlp(X, y, 3, createRng(1), { hidden: 8 }).predict(X[0]!)
 */
export function fitMlp(
  X: readonly Float64Array[],
  y: ArrayLike<number>,
  k: number,
  rng: Rng,
  o: MlpOptions = {},
): Classifier {
  const n = X.length;
  checkLabels(y, k, n);
  const d = X[0]!.length;
  const h = o.hidden ?? 8;
  const l2 = o.l2 ?? 1e-3;
  const cw = o.classWeights ?? new Array<number>(k).fill(1);
  if (cw.length !== k) throw new RangeError(`classWeights must have ${k} entries`);
  let total = 0;
  for (let i = 0; i < n; i++) total += cw[y[i]!]!;
  // Layout: W1 (h x d), b1 (h), W2 (k x h), b2 (k).
  const oW1 = 0;
  const oB1 = h * d;
  const oW2 = oB1 + h;
  const oB2 = oW2 + k * h;
  const size = oB2 + k;
  const w0 = new Float64Array(size);
  for (let i = 0; i < h * d; i++) w0[oW1 + i] = rng.normal() / Math.sqrt(d);
  for (let i = 0; i < k * h; i++) w0[oW2 + i] = rng.normal() / Math.sqrt(h);
  const a = new Float64Array(h);
  const p = new Float64Array(k);
  const dh = new Float64Array(h);
  const forward = (w: Float64Array, x: Float64Array): void => {
    for (let u = 0; u < h; u++) {
      let s = w[oB1 + u]!;
      for (let j = 0; j < d; j++) s += w[oW1 + u * d + j]! * x[j]!;
      a[u] = Math.tanh(s);
    }
    for (let c = 0; c < k; c++) {
      let s = w[oB2 + c]!;
      for (let u = 0; u < h; u++) s += w[oW2 + c * h + u]! * a[u]!;
      p[c] = s;
    }
  };
  const objective = (w: Float64Array, g: Float64Array): number => {
    g.fill(0);
    let f = 0;
    for (let i = 0; i < n; i++) {
      const x = X[i]!;
      const yi = y[i]!;
      const si = cw[yi]! / total;
      if (si === 0) continue;
      forward(w, x);
      let mx = Number.NEGATIVE_INFINITY;
      for (let c = 0; c < k; c++) if (p[c]! > mx) mx = p[c]!;
      let z = 0;
      for (let c = 0; c < k; c++) {
        p[c] = Math.exp(p[c]! - mx);
        z += p[c]!;
      }
      f -= si * Math.log(p[yi]! / z);
      dh.fill(0);
      for (let c = 0; c < k; c++) {
        const r = si * (p[c]! / z - (c === yi ? 1 : 0));
        g[oB2 + c] += r;
        for (let u = 0; u < h; u++) {
          g[oW2 + c * h + u] += r * a[u]!;
          dh[u] += r * w[oW2 + c * h + u]!;
        }
      }
      for (let u = 0; u < h; u++) {
        const r = dh[u]! * (1 - a[u]! * a[u]!);
        g[oB1 + u] += r;
        for (let j = 0; j < d; j++) g[oW1 + u * d + j] += r * x[j]!;
      }
    }
    for (let i = 0; i < size; i++) {
      if (i >= oB1 && i < oW2) continue;
      if (i >= oB2) continue;
      f += 0.5 * l2 * w[i]! * w[i]!;
      g[i] += l2 * w[i]!;
    }
    return f;
  };
  const res = minimizeLbfgs(objective, w0, { maxIter: o.maxIter ?? 150, tol: 1e-6 });
  const w = res.x;
  return {
    name: `mlp(hidden=${h}, l2=${l2})`,
    predict(x: Float64Array): number {
      forward(w, x);
      return argmax(p);
    },
  };
}
