/**
 * Two small binomial kernels for measuring how consistently a person answers (issue 26): the
 * chance that a coin does at least as well, and an interval for a share. Pure.
 */

/**
 * P(X >= k) for X ~ Binomial(n, p), summed exactly in log space (n up to a few thousand).
 * @example binomialUpperTail(12, 15, 0.5) // 0.0176 (12 or more heads in 15 tosses)
 */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(k)) {
    throw new RangeError("k and n must be whole numbers, n >= 0");
  }
  if (!(p >= 0 && p <= 1)) throw new RangeError("p must lie in [0, 1]");
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p === 0) return 0;
  if (p === 1) return 1;
  let logC = 0; // log C(n, i), built up from i = 0
  let sum = 0;
  for (let i = 0; i <= n; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    if (i >= k) sum += Math.exp(logC + i * Math.log(p) + (n - i) * Math.log(1 - p));
  }
  return Math.min(1, sum);
}

/**
 * The Wilson score interval of a share `k / n` at two-sided level `level` (default 0.9): it
 * stays inside [0, 1] and is sensible for 0 or n successes, where `k / n +- z se` is not.
 * Null for n = 0 (nothing to estimate).
 * @example wilsonInterval(1, 15) // { low: 0.0150, high: 0.2508 } (90%)
 */
export function wilsonInterval(
  k: number,
  n: number,
  level = 0.9,
): { low: number; high: number } | null {
  if (n === 0) return null;
  if (!(k >= 0 && k <= n)) throw new RangeError("k must lie in [0, n]");
  const z = normalQuantile(0.5 + level / 2);
  const phat = k / n;
  const z2 = z * z;
  const centre = (phat + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((phat * (1 - phat)) / n + z2 / (4 * n * n));
  // Exactly 0 or 1 at the ends (the formula leaves rounding dust there).
  return {
    low: k === 0 ? 0 : Math.max(0, centre - half),
    high: k === n ? 1 : Math.min(1, centre + half),
  };
}

/**
 * The standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9).
 * @example normalQuantile(0.95) // 1.6449
 */
export function normalQuantile(q: number): number {
  if (!(q > 0 && q < 1)) throw new RangeError("q must lie in (0, 1)");
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972,
    -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
    4.374664141464968, 2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  const tail = (r: number) =>
    (((((c[0]! * r + c[1]!) * r + c[2]!) * r + c[3]!) * r + c[4]!) * r + c[5]!) /
    ((((d[0]! * r + d[1]!) * r + d[2]!) * r + d[3]!) * r + 1);
  if (q < lo) return tail(Math.sqrt(-2 * Math.log(q)));
  if (q > 1 - lo) return -tail(Math.sqrt(-2 * Math.log(1 - q)));
  const s = q - 0.5;
  const r = s * s;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * s) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}
