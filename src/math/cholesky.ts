/**
 * Cholesky factorisation and solves for small dense symmetric positive-definite systems
 * (Newton steps, covariance solves). Matrices are row-major `Float64Array`s of size n*n.
 *
 * @example
 * const a = Float64Array.of(4, 2, 2, 3);      // [[4, 2], [2, 3]]
 * solveSpd(a, 2, [2, 1]);                     // Float64Array [0.5, 0]
 */

/**
 * Lower-triangular L with A = L Lᵀ (only the lower triangle of `a` is read), or null when A
 * is not (numerically) positive definite.
 *
 * @example
 * cholesky(Float64Array.of(4, 2, 2, 3), 2); // [2, 0, 1, 1.414...]
 */
export function cholesky(a: Float64Array, n: number): Float64Array | null {
  if (a.length !== n * n) throw new RangeError(`expected ${n}x${n} matrix, got ${a.length} cells`);
  const l = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    const rj = j * n;
    let s = a[rj + j]!;
    for (let k = 0; k < j; k++) s -= l[rj + k]! * l[rj + k]!;
    if (!(s > 0)) return null;
    const ljj = Math.sqrt(s);
    l[rj + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      const ri = i * n;
      let t = a[ri + j]!;
      for (let k = 0; k < j; k++) t -= l[ri + k]! * l[rj + k]!;
      l[ri + j] = t / ljj;
    }
  }
  return l;
}

/**
 * Solve A x = b given the factor L of A from `cholesky`.
 *
 * @example
 * choleskySolve(cholesky(a, 2)!, 2, [2, 1]); // [0.5, 0]
 */
export function choleskySolve(l: Float64Array, n: number, b: ArrayLike<number>): Float64Array {
  if (b.length !== n) throw new RangeError(`right-hand side has ${b.length} entries, not ${n}`);
  const x = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    let s = x[i]!;
    for (let k = 0; k < i; k++) s -= l[i * n + k]! * x[k]!;
    x[i] = s / l[i * n + i]!;
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i]!;
    for (let k = i + 1; k < n; k++) s -= l[k * n + i]! * x[k]!;
    x[i] = s / l[i * n + i]!;
  }
  return x;
}

/**
 * Solve A x = b for symmetric positive (semi-)definite A. When A is singular or indefinite by
 * rounding, a jitter is added to the diagonal, starting at 1e-12 of its mean and growing
 * tenfold until the factorisation succeeds (the result is then a slightly regularised
 * solution, which is what Newton-type methods want). Throws a RangeError if even a jitter of
 * the diagonal's own size fails (A far from positive definite, or not finite).
 *
 * @example
 * solveSpd(Float64Array.of(1, 1, 1, 1), 2, [1, 1]); // ≈ [0.5, 0.5] (singular: jittered)
 */
export function solveSpd(a: Float64Array, n: number, b: ArrayLike<number>): Float64Array {
  let l = cholesky(a, n);
  if (l === null) {
    let diagMean = 0;
    for (let i = 0; i < n; i++) diagMean += Math.abs(a[i * n + i]!);
    diagMean = diagMean / n || 1;
    const jittered = Float64Array.from(a);
    for (let power = -12; l === null && power <= 0; power++) {
      const jitter = diagMean * 10 ** power;
      for (let i = 0; i < n; i++) jittered[i * n + i] = a[i * n + i]! + jitter;
      l = cholesky(jittered, n);
    }
    if (l === null) throw new RangeError("matrix is not positive definite");
  }
  return choleskySolve(l, n, b);
}
