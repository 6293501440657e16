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

/**
 * A QR factorisation of the lifted point matrix `M = [scale * 1^T; S]` (points `s_t` as
 * columns), updated as points enter and leave — the corral of the min-norm-point solver.
 * Since `M^T M = scale^2 1 1^T + S^T S = R^T R`, the affine minimiser of `||S alpha||` with
 * `sum alpha = 1` is `R^{-1} R^{-T} 1`, normalised to sum 1. Adding a point is one
 * Gram–Schmidt step with reorthogonalisation (`O(dim * m)`); removing one restores the
 * triangle with Givens rotations (`O(m * (dim + m))`); solving is two triangular solves
 * (`O(m^2)`). A point whose lifted column is (numerically) in the span of the others — an
 * affinely dependent point — is refused.
 *
 * @example
 * const qr = new AffineQR(2, 1);
 * qr.add([1, 0]); qr.add([0, 1]);
 * qr.affineMinimiser(); // [0.5, 0.5]: the nearest point of the line to the origin
 */
export class AffineQR {
  private readonly q: Float64Array[] = [];
  /** Column j of R (rows 0..j). */
  private readonly r: number[][] = [];

  constructor(
    readonly dim: number,
    readonly scale: number,
    readonly rankTolerance = 1e-11,
  ) {
    if (!(scale > 0 && Number.isFinite(scale))) throw new RangeError(`scale ${scale} must be > 0`);
  }

  /** Number of points held. */
  get size(): number {
    return this.r.length;
  }

  /** Append a point as the last column; false (and no change) if it is affinely dependent. */
  add(point: ArrayLike<number>): boolean {
    if (point.length !== this.dim) {
      throw new RangeError(`point has ${point.length} entries, not ${this.dim}`);
    }
    const n = this.dim + 1;
    const m = this.r.length;
    const w = new Float64Array(n);
    w[0] = this.scale;
    for (let i = 0; i < this.dim; i++) w[i + 1] = point[i];
    let norm = 0;
    for (let i = 0; i < n; i++) norm += w[i] * w[i];
    norm = Math.sqrt(norm);
    const column = new Array<number>(m + 1).fill(0);
    for (let pass = 0; pass < 2; pass++) {
      for (let j = 0; j < m; j++) {
        const qj = this.q[j];
        let d = 0;
        for (let i = 0; i < n; i++) d += qj[i] * w[i];
        column[j] += d;
        for (let i = 0; i < n; i++) w[i] -= d * qj[i];
      }
    }
    let rho = 0;
    for (let i = 0; i < n; i++) rho += w[i] * w[i];
    rho = Math.sqrt(rho);
    if (m >= n || !(rho > this.rankTolerance * norm)) return false;
    for (let i = 0; i < n; i++) w[i] /= rho;
    column[m] = rho;
    this.q.push(w);
    this.r.push(column);
    return true;
  }

  /** Remove the point in column `index` (later columns shift down by one). */
  remove(index: number): void {
    const m = this.r.length;
    if (!Number.isInteger(index) || index < 0 || index >= m) {
      throw new RangeError(`column ${index} not in 0..${m - 1}`);
    }
    const { q, r } = this;
    r.splice(index, 1);
    const n = this.dim + 1;
    for (let j = index; j < m - 1; j++) {
      // Column j now reaches row j + 1 (Hessenberg); rotate rows j, j + 1 to zero it.
      const a = r[j][j];
      const b = r[j][j + 1];
      const h = Math.hypot(a, b);
      const c = h > 0 ? a / h : 1;
      const s = h > 0 ? b / h : 0;
      for (let l = j; l < m - 1; l++) {
        const x = r[l][j];
        const y = r[l][j + 1];
        r[l][j] = c * x + s * y;
        r[l][j + 1] = -s * x + c * y;
      }
      r[j].length = j + 1;
      const qa = q[j];
      const qb = q[j + 1];
      for (let i = 0; i < n; i++) {
        const x = qa[i];
        const y = qb[i];
        qa[i] = c * x + s * y;
        qb[i] = -s * x + c * y;
      }
    }
    q.pop();
  }

  /**
   * Weights (summing to 1) of the point of the points' affine hull nearest the origin. They
   * are proportional to the least-squares solution of `M beta = scale * e_0` (its normal
   * equations are `R^T R beta = scale^2 1`), computed as `R^{-1} Q^T (scale * e_0)`: one
   * triangular solve, so the accuracy is that of QR, not of the normal equations.
   */
  affineMinimiser(): number[] {
    const m = this.r.length;
    const { r, q } = this;
    const beta = new Array<number>(m);
    for (let j = m - 1; j >= 0; j--) {
      let s = q[j][0];
      for (let l = j + 1; l < m; l++) s -= r[l][j] * beta[l];
      beta[j] = s / r[j][j];
    }
    let total = 0;
    for (const b of beta) total += b;
    return beta.map((b) => b / total);
  }
}
