/**
 * Summary statistics.
 *
 * @example
 * mean([1, 2, 3]); // 2
 * std([1, 2, 3]);  // 0.816... (population standard deviation)
 */
export function mean(xs: ArrayLike<number>): number {
  if (xs.length === 0) return Number.NaN;
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s / xs.length;
}

/** Population standard deviation (divides by n, as numpy's default). */
export function std(xs: ArrayLike<number>): number {
  if (xs.length === 0) return Number.NaN;
  const m = mean(xs);
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += (xs[i]! - m) ** 2;
  return Math.sqrt(s / xs.length);
}

/** Quantile by linear interpolation between order statistics (q in [0, 1]). */
export function quantile(xs: ArrayLike<number>, q: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = Float64Array.from(xs).sort();
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}
