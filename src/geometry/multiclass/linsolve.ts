/**
 * Dense least squares by Householder QR, sized for the small systems of the min-norm-point
 * solver (at most q + 1 columns). QR works on the matrix itself rather than the normal
 * equations, so near-degenerate point sets lose half as many digits; a column whose
 * component orthogonal to the previous columns is negligible is reported, not solved.
 *
 * @example
 * leastSquares([[1, 0, 0], [0, 1, 0]], [1, 2, 3]); // { x: [1, 2], dependent: -1 }
 */
export interface LeastSquaresResult {
  /** Minimiser of `||A x - b||` (all zeros when `dependent >= 0`). */
  readonly x: Float64Array;
  /** Index of the first column (numerically) in the span of the earlier ones, or -1. */
  readonly dependent: number;
}

/**
 * Solve `min_x ||A x - b||_2` for `A` given by its columns (each of length m).
 * `rankTolerance` is relative to each column's norm.
 *
 * @example
 * leastSquares([[1, 1, 1]], [1, 2, 6]).x; // [3]: the mean
 */
export function leastSquares(
  columns: readonly ArrayLike<number>[],
  b: ArrayLike<number>,
  rankTolerance = 1e-11,
): LeastSquaresResult {
  const n = columns.length;
  const m = b.length;
  const a = new Float64Array(m * n); // column-major
  const norms = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const col = columns[j];
    if (col.length !== m) throw new RangeError(`column ${j} has ${col.length} rows, not ${m}`);
    let s = 0;
    for (let r = 0; r < m; r++) {
      a[j * m + r] = col[r];
      s += col[r] * col[r];
    }
    norms[j] = Math.sqrt(s);
  }
  const rhs = Float64Array.from(b);
  const rdiag = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const cj = j * m;
    let s = 0;
    for (let r = j; r < m; r++) s += a[cj + r] * a[cj + r];
    const alpha = Math.sqrt(s);
    if (j >= m || !(alpha > rankTolerance * norms[j])) {
      return { x: new Float64Array(n), dependent: j };
    }
    // Householder vector v = col + sign * alpha * e_j, stored in place of the column.
    const head = a[cj + j];
    const sign = head >= 0 ? 1 : -1;
    a[cj + j] = head + sign * alpha;
    const vtv = 2 * alpha * (alpha + Math.abs(head)); // ||v||^2
    rdiag[j] = -sign * alpha;
    const apply = (target: Float64Array, offset: number) => {
      let d = 0;
      for (let r = j; r < m; r++) d += a[cj + r] * target[offset + r];
      const f = (2 * d) / vtv;
      for (let r = j; r < m; r++) target[offset + r] -= f * a[cj + r];
    };
    for (let l = j + 1; l < n; l++) apply(a, l * m);
    apply(rhs, 0);
  }
  const x = new Float64Array(n);
  for (let j = n - 1; j >= 0; j--) {
    let s = rhs[j];
    for (let l = j + 1; l < n; l++) s -= a[l * m + j] * x[l];
    x[j] = s / rdiag[j];
  }
  return { x, dependent: -1 };
}
