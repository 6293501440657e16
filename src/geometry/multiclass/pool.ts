/**
 * A multiclass pool: N inputs represented only by their class-probability vectors
 * `eta(x_n)` (soft labels) and optional weights. All multiclass geometry is computed on a
 * pool (ALGORITHMS.md B.2): `C_ij(h) = sum_n mass_n eta_i(x_n) h_j(x_n)` with `mass_n` the
 * normalised weight (1/N by default), priors `zeta_i = sum_n mass_n eta_i(x_n)`. With soft
 * labels the plug-in oracle is exact and every feasibility question has an exact answer.
 */

/** Options for `MulticlassPool`. */
export interface MulticlassPoolOptions {
  /** Non-negative weight per point (not all zero); normalised internally. Default: equal. */
  readonly weights?: ArrayLike<number>;
  /** Allowed deviation of each eta row sum from 1. Default 1e-6. */
  readonly rowSumTolerance?: number;
}

/**
 * N points with class-probability vectors, validated on construction.
 *
 * @example
 * const pool = new MulticlassPool([0.7, 0.2, 0.1, 0.1, 0.3, 0.6], 3); // N = 2, k = 3
 * pool.priors; // Float64Array [0.4, 0.25, 0.35]
 */
export class MulticlassPool {
  /** Number of classes. */
  readonly k: number;
  /** Number of points. */
  readonly n: number;
  /** Class probabilities, N*k row-major (a private copy). */
  readonly eta: Float64Array;
  /** Normalised point weights (sum 1); `1/N` each when no weights were given. */
  readonly mass: Float64Array;
  /** `mass_n * eta_ni`, N*k row-major: what point n adds to row i of a confusion matrix. */
  readonly weightedEta: Float64Array;
  /** Class priors `zeta_i = sum_n mass_n eta_ni` (they sum to 1 up to rounding). */
  readonly priors: Float64Array;
  /** Whether explicit weights were given. */
  readonly weighted: boolean;

  constructor(eta: ArrayLike<number>, k: number, options: MulticlassPoolOptions = {}) {
    if (!Number.isInteger(k) || k < 2) throw new RangeError(`k must be an integer >= 2, got ${k}`);
    if (eta.length === 0 || eta.length % k !== 0) {
      throw new RangeError(`eta must hold N*k values with N >= 1 (k = ${k}), got ${eta.length}`);
    }
    const n = eta.length / k;
    const tol = options.rowSumTolerance ?? 1e-6;
    const copy = Float64Array.from(eta);
    for (let p = 0; p < n; p++) {
      let s = 0;
      for (let i = 0; i < k; i++) {
        const v = copy[p * k + i];
        if (!Number.isFinite(v) || v < 0) {
          throw new RangeError(`eta[${p}][${i}] = ${v} is not a probability`);
        }
        s += v;
      }
      if (Math.abs(s - 1) > tol) throw new RangeError(`eta row ${p} sums to ${s}, not 1`);
    }
    const mass = new Float64Array(n);
    if (options.weights === undefined) {
      mass.fill(1 / n);
    } else {
      const w = options.weights;
      if (w.length !== n) throw new RangeError(`expected ${n} weights, got ${w.length}`);
      let total = 0;
      for (let p = 0; p < n; p++) {
        if (!Number.isFinite(w[p]) || w[p] < 0) {
          throw new RangeError(`weight ${p} = ${w[p]} must be finite and >= 0`);
        }
        total += w[p];
      }
      if (!(total > 0)) throw new RangeError("the weights must not all be zero");
      for (let p = 0; p < n; p++) mass[p] = w[p] / total;
    }
    const weightedEta = new Float64Array(n * k);
    const priors = new Float64Array(k);
    for (let p = 0; p < n; p++) {
      for (let i = 0; i < k; i++) {
        const v = mass[p] * copy[p * k + i];
        weightedEta[p * k + i] = v;
        priors[i] += v;
      }
    }
    this.k = k;
    this.n = n;
    this.eta = copy;
    this.mass = mass;
    this.weightedEta = weightedEta;
    this.priors = priors;
    this.weighted = options.weights !== undefined;
  }

  /**
   * Build a pool from one probability vector per point.
   *
   * @example
   * MulticlassPool.fromRows([[0.5, 0.5], [0.9, 0.1]]).priors; // [0.7, 0.3]
   */
  static fromRows(
    rows: readonly (readonly number[])[],
    options: MulticlassPoolOptions = {},
  ): MulticlassPool {
    if (rows.length === 0) throw new RangeError("a pool needs at least one point");
    const k = rows[0].length;
    const eta = new Float64Array(rows.length * k);
    rows.forEach((row, p) => {
      if (row.length !== k) throw new RangeError(`row ${p} has ${row.length} entries, not ${k}`);
      eta.set(row, p * k);
    });
    return new MulticlassPool(eta, k, options);
  }

  /**
   * The class-probability vector of point `p` (a view, not a copy).
   *
   * @example
   * pool.row(0); // Float64Array [0.7, 0.2, 0.1]
   */
  row(p: number): Float64Array {
    return this.eta.subarray(p * this.k, (p + 1) * this.k);
  }
}
