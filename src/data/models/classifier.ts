/** A trained k-class classifier: predicts a class index in 0..k-1 for a feature row. */
export interface Classifier {
  /** Short description, e.g. `logistic(l2=0.1, w=[1,2])`. */
  readonly name: string;
  /** Predicted class index. */
  predict(x: Float64Array): number;
}

/** Index of the largest entry (first one on ties). */
export function argmax(v: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < v.length; i++) if (v[i]! > v[best]!) best = i;
  return best;
}

/** Check labels are class indices in 0..k-1; throws a RangeError otherwise. */
export function checkLabels(y: ArrayLike<number>, k: number, n: number): void {
  if (y.length !== n) throw new RangeError(`${n} rows but ${y.length} labels`);
  if (n === 0) throw new RangeError("cannot train on zero rows");
  for (let i = 0; i < n; i++) {
    const c = y[i]!;
    if (!(Number.isInteger(c) && c >= 0 && c < k)) {
      throw new RangeError(`label ${i} is ${c}, not a class index in 0..${k - 1}`);
    }
  }
}
