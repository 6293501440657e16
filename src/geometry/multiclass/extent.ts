/**
 * Exact axis extents by column generation (ALGORITHMS.md B.4, "alternatives"; B.5).
 *
 * The extent of the feasible set `C = conv(V)` from a feasible centre `o` along `sign * e_a`,
 * `l* = max { l : o + sign * l * e_a in C }`, is the linear program
 *
 *     max l   s.t.   sum_t w_t (v_t - o) - sign * l * e_a = 0,   sum_t w_t = 1,   w, l >= 0
 *
 * over the (astronomically many) plug-in points `v_t`. Column generation solves it with a
 * dense revised simplex on the `dim + 1` equality rows ("master") and the linear maximisation
 * oracle as pricing: with simplex duals `(pi, pi_0)` the reduced cost of a point is
 * `y . (v - o) - l` with `y = -pi`, so the most improving point is `LMO(y)`. Every pricing
 * call is also a certificate: when `y_a = sign` (true whenever `l` is basic),
 * every feasible `o + sign * t * e_a = sum w_t v_t` has `t = y . (c - o) <= max_v y . (v - o)`,
 * so `upper = max_v y . (v - o)` bounds `l*` from above, and the search stops when
 * `upper - l <= tolerance`. The primal side is a mixture of at most `dim + 1` plug-ins whose
 * point is `o + sign * l * e_a` (the basis is re-solved from scratch at the end, so the
 * identity holds to rounding).
 *
 * Details:
 * - Start: `l = 0` and a mixture realising `o` (the constants for the centre of a space);
 *   the basis is completed with earlier columns at weight 0 (still a basic feasible
 *   solution) and, only if they do not span, with artificial unit columns fixed at 0 (they
 *   may leave but never enter; a basic artificial blocks any step that would move it).
 * - Columns found by the oracle are kept in a `ColumnPool` shared by the searches of one
 *   space: pricing scans the newest pool columns first and calls the oracle only when none
 *   improves; `oracleCost` bounds a scan and `poolPivotsPerCall` the pool pivots between
 *   two oracle calls, so that a cheap oracle is not outrun by pivoting on the master.
 * - Dual smoothing (Wentges) against the tailing-off of plain column generation: the oracle
 *   is asked at `alpha * best + (1 - alpha) * current` duals, `best` being the direction of
 *   the lowest upper bound so far; its answer still certifies, and a miss (no improving
 *   column for the current duals) is followed by one plain pricing step.
 * - The basis inverse is updated by elementary row operations and recomputed (Gauss–Jordan
 *   with partial pivoting) every `4 max(50, dim + 1)` pivots and at the end. Degenerate
 *   cycling is broken by Bland's rule after `dim + 1` degenerate pivots in a row.
 * - Caps on oracle calls and pivots; a capped search reports `converged: false` with the
 *   best bounds so far (the caller may fall back to bisection).
 *
 * @example
 * const pool = new ColumnPool(space.centre);
 * const e = axisExtent(space.centre, 0, 1, space.lmo, { start, pool });
 * e.length; e.upper; // equal to tolerance; space.realise(e.mixture) = o + e.length * e_0
 */
import type { Classifier, MixtureClassifier } from "./classifier.ts";
import { mixtureClassifier } from "./classifier.ts";
import type { ActivePoint, Lmo } from "./feasibility.ts";
import type { LmoResult } from "./space.ts";

/** Oracle points seen so far, stored as LP columns `[v - o; 1]` for a fixed centre `o`. */
export class ColumnPool {
  readonly centre: Float64Array;
  readonly dim: number;
  /** Column-major `[v - o; 1]`, capacity grows by doubling. */
  private data: Float64Array;
  private readonly items: LmoResult[] = [];
  private readonly index = new Map<LmoResult, number>();

  constructor(centre: ArrayLike<number>) {
    this.centre = Float64Array.from(centre);
    this.dim = this.centre.length;
    this.data = new Float64Array(64 * (this.dim + 1));
  }

  get size(): number {
    return this.items.length;
  }

  /** Add an oracle answer; returns its index. */
  add(r: LmoResult): number {
    const known = this.index.get(r);
    if (known !== undefined) return known;
    const m = this.dim + 1;
    if (r.point.length !== this.dim) {
      throw new RangeError(`oracle returned ${r.point.length} != ${this.dim} entries`);
    }
    const t = this.items.length;
    if ((t + 1) * m > this.data.length) {
      const grown = new Float64Array(2 * this.data.length);
      grown.set(this.data);
      this.data = grown;
    }
    const base = t * m;
    for (let i = 0; i < this.dim; i++) this.data[base + i] = r.point[i] - this.centre[i];
    this.data[base + this.dim] = 1;
    this.items.push(r);
    this.index.set(r, t);
    return t;
  }

  /** Column t, `[v_t - o; 1]` (a view). */
  column(t: number): Float64Array {
    const m = this.dim + 1;
    return this.data.subarray(t * m, (t + 1) * m);
  }

  item(t: number): LmoResult {
    return this.items[t];
  }

  /** `pi . column(t)` for the columns `from..size-1`, into `out[t]`. */
  price(pi: Float64Array, out: Float64Array, from = 0): void {
    const m = this.dim + 1;
    const d = this.data;
    for (let t = from, base = from * m; t < this.items.length; t++, base += m) {
      let s = 0;
      for (let i = 0; i < m; i++) s += pi[i] * d[base + i];
      out[t] = s;
    }
  }
}

/** Options for `axisExtent`. */
export interface ExtentOptions {
  /** Stop when the certified gap `upper - length` is at most this (absolute). Default 1e-12. */
  readonly tolerance?: number;
  /**
   * Feasible points with convex weights whose mixture is the centre (for a space's centre:
   * the k constant classifiers, 1/k each), affinely independent.
   */
  readonly start: readonly ActivePoint[];
  /** Shared columns (must have the same centre). Default: a fresh pool. */
  readonly pool?: ColumnPool;
  /** Cap on oracle calls. Default `50 * (dim + 1)`. */
  readonly maxOracleCalls?: number;
  /** Cap on simplex pivots. Default `200 * (dim + 1)`. */
  readonly maxPivots?: number;
  /**
   * Cost of one oracle call in units of one pool column (`dim + 1` products): pricing scans
   * only the newest this-many pool columns, so a scan never costs more than an oracle call.
   * Default Infinity (scan the whole pool).
   */
  readonly oracleCost?: number;
  /**
   * Dual smoothing (Wentges): the oracle is asked at `alpha * best + (1 - alpha) * current`
   * duals, where `best` gave the lowest upper bound so far; a miss (no improving column for
   * the current duals) is followed by a plain pricing step. 0 disables it. Default 0.3.
   */
  readonly smoothing?: number;
  /** Most pool-column pivots between two oracle calls. Default Infinity. */
  readonly poolPivotsPerCall?: number;
}

/** Outcome of `axisExtent`. */
export interface ExtentResult {
  /** Lower bound on the extent, realised by `mixture` exactly (up to rounding). */
  readonly length: number;
  /** Certified upper bound: every feasible point `c` has `<direction, c - o> <= upper`. */
  readonly upper: number;
  /** Dual direction of the certificate, with `direction[axis] = sign`. */
  readonly direction: Float64Array;
  /** A classifier whose point is `o + sign * length * e_axis`. */
  readonly mixture: MixtureClassifier;
  /** Its plug-ins and weights (at most dim + 1). */
  readonly active: readonly ActivePoint[];
  readonly oracleCalls: number;
  readonly pivots: number;
  /** Pivots that did not move the solution. */
  readonly degeneratePivots: number;
  /** False when a cap ended the search before `upper - length <= tolerance`. */
  readonly converged: boolean;
}

const PIVOT_TOL = 1e-9;

/** `out = B a` for the m x m row-major B. */
function matVec(b: Float64Array, a: Float64Array, out: Float64Array, m: number): void {
  for (let i = 0, row = 0; i < m; i++, row += m) {
    let s = 0;
    for (let j = 0; j < m; j++) s += b[row + j] * a[j];
    out[i] = s;
  }
}

/** Update the basis inverse in place when column `u = B^{-1} a` replaces basis position r. */
function pivotInverse(b: Float64Array, u: Float64Array, r: number, m: number): void {
  const rowR = r * m;
  const ur = u[r];
  for (let j = 0; j < m; j++) b[rowR + j] /= ur;
  for (let i = 0, row = 0; i < m; i++, row += m) {
    const f = u[i];
    if (i === r || f === 0) continue;
    for (let j = 0; j < m; j++) b[row + j] -= f * b[rowR + j];
  }
}

/** Inverse of the m x m matrix with the given columns (Gauss–Jordan, partial pivoting); null if singular. */
function invert(columns: readonly ArrayLike<number>[], m: number): Float64Array | null {
  const a = new Float64Array(m * m); // row-major copy of B
  for (let j = 0; j < m; j++) for (let i = 0; i < m; i++) a[i * m + j] = columns[j][i];
  const inv = new Float64Array(m * m);
  for (let i = 0; i < m; i++) inv[i * m + i] = 1;
  for (let c = 0; c < m; c++) {
    let p = c;
    let best = Math.abs(a[c * m + c]);
    for (let r = c + 1; r < m; r++) {
      const v = Math.abs(a[r * m + c]);
      if (v > best) {
        best = v;
        p = r;
      }
    }
    if (!(best > 1e-14)) return null;
    if (p !== c) {
      for (let j = 0; j < m; j++) {
        let t = a[c * m + j];
        a[c * m + j] = a[p * m + j];
        a[p * m + j] = t;
        t = inv[c * m + j];
        inv[c * m + j] = inv[p * m + j];
        inv[p * m + j] = t;
      }
    }
    const d = 1 / a[c * m + c];
    for (let j = 0; j < m; j++) {
      a[c * m + j] *= d;
      inv[c * m + j] *= d;
    }
    for (let r = 0; r < m; r++) {
      if (r === c) continue;
      const f = a[r * m + c];
      if (f === 0) continue;
      for (let j = 0; j < m; j++) {
        a[r * m + j] -= f * a[c * m + j];
        inv[r * m + j] -= f * inv[c * m + j];
      }
    }
  }
  return inv;
}

/**
 * Exact extent of the feasible set from `centre` along `sign * e_axis`; see the module
 * comment. `lmo` must maximise `<direction, point>` over the feasible set and `centre` must
 * be feasible (realised by `start`).
 *
 * @example
 * axisExtent(space.centre, 3, -1, space.lmo, { start: uniformStart }).length;
 */
export function axisExtent(
  centre: ArrayLike<number>,
  axis: number,
  sign: 1 | -1,
  lmo: Lmo,
  options: ExtentOptions,
): ExtentResult {
  const dim = centre.length;
  const m = dim + 1;
  const pool = options.pool ?? new ColumnPool(centre);
  if (pool.dim !== dim) throw new RangeError("column pool of another dimension");
  for (let i = 0; i < dim; i++) {
    if (pool.centre[i] !== centre[i]) throw new RangeError("column pool of another centre");
  }
  const tol = options.tolerance ?? 1e-12;
  const maxOracleCalls = options.maxOracleCalls ?? 50 * m;
  const maxPivots = options.maxPivots ?? 200 * m;
  const oracleCost = options.oracleCost ?? Number.POSITIVE_INFINITY;
  const alpha = options.smoothing ?? 0.3;
  if (!(alpha >= 0 && alpha < 1)) throw new RangeError(`smoothing ${alpha} must lie in [0, 1)`);

  // Column ids: -1 = l, -2 - r = artificial e_r (fixed at 0), t >= 0 = pool column t.
  const L = -1;
  const lColumn = new Float64Array(m);
  lColumn[axis] = -sign;
  const unit = (r: number) => {
    const e = new Float64Array(m);
    e[r] = 1;
    return e;
  };
  const columnOf = (id: number): Float64Array =>
    id === L ? lColumn : id >= 0 ? pool.column(id) : unit(-2 - id);

  // --- Initial basis: the start points (weights realise o), l, then pool columns, then
  // artificials, keeping a column only if it is independent of those kept (Gram-Schmidt).
  const startIds = options.start.map((p) => pool.add(p));
  const basis: number[] = [];
  const q: Float64Array[] = []; // orthonormal vectors spanning the kept columns
  const tryAdd = (id: number): boolean => {
    const col = columnOf(id);
    const v = Float64Array.from(col);
    const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    for (let pass = 0; pass < 2; pass++) {
      for (const u of q) {
        let d = 0;
        for (let i = 0; i < m; i++) d += u[i] * v[i];
        for (let i = 0; i < m; i++) v[i] -= d * u[i];
      }
    }
    const rest = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    if (!(rest > 1e-9 * norm)) return false;
    for (let i = 0; i < m; i++) v[i] /= rest;
    q.push(v);
    basis.push(id);
    return true;
  };
  const build = (usePool: boolean) => {
    basis.length = 0;
    q.length = 0;
    for (const id of startIds) if (basis.length < m) tryAdd(id);
    if (basis.length < m) tryAdd(L);
    const oldest = Math.max(0, pool.size - 3 * m);
    for (let t = pool.size - 1; usePool && t >= oldest && basis.length < m; t--) {
      if (!basis.includes(t)) tryAdd(t);
    }
    for (let r = 0; r < m && basis.length < m; r++) tryAdd(-2 - r);
  };
  const xB = new Float64Array(m);
  let binv: Float64Array = new Float64Array(0);
  const resolve = () => {
    // xB = Binv b with b = e_dim (the convexity row).
    for (let i = 0; i < m; i++) xB[i] = binv[i * m + dim];
  };
  // Pool columns complete the basis when they keep it well conditioned (the start weights
  // solve the system); otherwise artificials do.
  for (const usePool of [true, false]) {
    build(usePool);
    const inv = invert(basis.map(columnOf), m);
    if (inv === null) continue;
    binv = inv;
    resolve();
    if (xB.every((v) => v >= -1e-9)) break;
    if (!usePool) throw new RangeError("the start points do not realise the centre");
  }
  for (let i = 0; i < m; i++) if (xB[i] < 0) xB[i] = 0;

  const refactorEvery = 4 * Math.max(50, m);
  const pi = new Float64Array(m);
  const y = new Float64Array(dim);
  const u = new Float64Array(m);
  let prices = new Float64Array(64);
  let oracleCalls = 0;
  let pivots = 0;
  let degeneratePivots = 0;
  let poolRun = 0;
  const poolPivotsPerCall = options.poolPivotsPerCall ?? Number.POSITIVE_INFINITY;
  let sincePivotRefactor = 0;
  let degenerateRun = 0;
  let upper = Number.POSITIVE_INFINITY;
  let bestDirection = new Float64Array(dim);
  bestDirection[axis] = sign;
  let converged = false;
  let haveCentre = false;
  let missed = false;
  const ySep = new Float64Array(dim);
  const positionOf = new Map<number, number>();
  basis.forEach((id, i) => {
    positionOf.set(id, i);
  });

  const currentL = () => {
    const p = positionOf.get(L);
    return p === undefined ? 0 : xB[p];
  };

  for (;;) {
    // Duals: pi = Binv^T c_B, with c_B = 1 at l's position only.
    const pL = positionOf.get(L);
    if (pL === undefined) pi.fill(0);
    else for (let j = 0; j < m; j++) pi[j] = binv[pL * m + j];
    const lValue = currentL();
    const scale = Math.max(1, Math.abs(lValue));
    const priceTol = 1e-13 * scale;

    // Choose the entering column.
    let entering: number | null = null;
    let bland = degenerateRun > m;
    if (pL === undefined) {
      // Reduced cost of l: 1 - pi . lColumn = 1 + sign * pi[axis].
      if (1 + sign * pi[axis] > priceTol) entering = L;
    }
    if (entering === null && pool.size > 0 && poolRun < poolPivotsPerCall) {
      if (prices.length < pool.size) prices = new Float64Array(2 * pool.size);
      const from = Math.max(0, pool.size - Math.max(1, Math.floor(oracleCost)));
      pool.price(pi, prices, from);
      // Reduced cost of pool column t: 0 - pi . column(t).
      let best = priceTol;
      for (let t = from; t < pool.size; t++) {
        const d = -prices[t];
        if (d > best && !positionOf.has(t)) {
          best = d;
          entering = t;
          if (bland) break;
        }
      }
    }
    if (entering === null) {
      if (oracleCalls >= maxOracleCalls) break;
      for (let i = 0; i < dim; i++) y[i] = -pi[i];
      // Smoothed pricing point (a convex combination of two directions with y[axis] = sign,
      // so its support value is a certificate too).
      const smooth = haveCentre && !missed && alpha > 0 && pL !== undefined;
      for (let i = 0; i < dim; i++)
        ySep[i] = smooth ? alpha * bestDirection[i] + (1 - alpha) * y[i] : y[i];
      const answer = lmo(ySep);
      oracleCalls++;
      const r: LmoResult = { point: answer.point, classifier: answer.classifier };
      let value = 0;
      let reduced = 0;
      for (let i = 0; i < dim; i++) {
        const dv = r.point[i] - centre[i];
        value += ySep[i] * dv;
        reduced += y[i] * dv;
      }
      // Certificate: t * sign * ySep[axis] <= value for every feasible o + sign t e_axis.
      const slope = sign * ySep[axis];
      if (slope > 0) {
        const bound = value / slope;
        if (bound < upper) {
          upper = bound;
          bestDirection = Float64Array.from(ySep, (v) => v / slope);
          haveCentre = true;
        }
      }
      if (upper - lValue <= tol) {
        converged = true;
        break;
      }
      // Reduced cost of the new column for the current duals: y . (v - o) - pi_dim.
      if (!(reduced - pi[dim] > priceTol)) {
        if (smooth) {
          missed = true;
          continue;
        }
        // No improving column, yet no certificate (l not basic): cannot happen in exact
        // arithmetic; stop and report.
        break;
      }
      missed = false;
      entering = pool.add(r);
      bland = false;
      poolRun = 0;
    } else {
      poolRun++;
    }
    if (pivots >= maxPivots) break;

    // Ratio test on u = Binv a_entering.
    matVec(binv, columnOf(entering), u, m);
    let leave = -1;
    let ratio = Number.POSITIVE_INFINITY;
    let pivotSize = 0;
    for (let i = 0; i < m; i++) {
      const id = basis[i];
      const ui = u[i];
      let r: number;
      if (id <= -2) {
        if (Math.abs(ui) <= PIVOT_TOL) continue;
        r = 0;
      } else {
        if (ui <= PIVOT_TOL) continue;
        r = Math.max(0, xB[i]) / ui;
      }
      const eps = 1e-12 * Math.max(1, ratio === Number.POSITIVE_INFINITY ? 1 : ratio);
      const better =
        leave < 0 ||
        r < ratio - eps ||
        (r <= ratio + eps && (bland ? id < basis[leave] : Math.abs(ui) > pivotSize));
      if (better) {
        leave = i;
        pivotSize = Math.abs(ui);
        ratio = Math.min(ratio, r);
      }
    }
    if (leave < 0) {
      // Unbounded: impossible for a bounded set; stop.
      break;
    }
    // Pivot.
    degenerateRun = ratio <= 0 ? degenerateRun + 1 : 0;
    if (ratio <= 0) degeneratePivots++;
    const step = Math.max(0, xB[leave]) / u[leave];
    pivotInverse(binv, u, leave, m);
    for (let i = 0; i < m; i++) {
      if (i === leave || u[i] === 0) continue;
      xB[i] -= u[i] * step;
      if (xB[i] < 0 && basis[i] > -2) xB[i] = 0;
    }
    xB[leave] = step;
    positionOf.delete(basis[leave]);
    basis[leave] = entering;
    positionOf.set(entering, leave);
    pivots++;
    if (++sincePivotRefactor >= refactorEvery) {
      const fresh = invert(basis.map(columnOf), m);
      if (fresh !== null) {
        binv = fresh;
        resolve();
        for (let i = 0; i < m; i++) if (xB[i] < 0) xB[i] = 0;
      }
      sincePivotRefactor = 0;
    }
  }

  // Re-solve the final basis from scratch for an exact mixture.
  const fresh = invert(basis.map(columnOf), m);
  if (fresh !== null) {
    binv = fresh;
    resolve();
  }
  const active: ActivePoint[] = [];
  let total = 0;
  for (let i = 0; i < m; i++) {
    const id = basis[i];
    if (id >= 0 && xB[i] > 0) total += xB[i];
  }
  for (let i = 0; i < m; i++) {
    const id = basis[i];
    if (id >= 0 && xB[i] > 0) {
      const item = pool.item(id);
      active.push({ point: item.point, classifier: item.classifier, weight: xB[i] / total });
    }
  }
  const length = Math.max(0, currentL());
  const mixture = mixtureClassifier(
    active.map((p) => ({ classifier: p.classifier as Classifier, weight: p.weight })),
  );
  return {
    length,
    upper: Math.max(upper, length),
    direction: bestDirection,
    mixture,
    active,
    oracleCalls,
    pivots,
    degeneratePivots,
    converged,
  };
}
