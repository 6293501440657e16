import type { Rng } from "../../../math/rng.ts";
import type { RatePoint } from "../../quadratic/lpme.ts";
import type { QuadraticMetric } from "../../quadratic/metric.ts";
import { PAPER_RHO } from "../../quadratic/qpme.ts";
import type { AdaptiveFamily } from "../family.ts";
import { UnsupportedFamilyError } from "../family.ts";

/**
 * A query domain made of `groups` Euclidean balls of radius `rho` around the same centre in
 * R^k (one ball for the quadratic and cubic families, one per group for the fair family): a
 * point is the concatenation of the groups' rate vectors. Every point is assumed feasible
 * (the papers' synthetic sphere).
 */
export interface BallDomain {
  readonly k: number;
  readonly groups: number;
  readonly centre: readonly number[];
  readonly rho: number;
}

/** A smooth function on a domain: its value and gradient at a point. */
export interface SmoothFunction {
  value(x: Float64Array): number;
  gradient(x: Float64Array): Float64Array;
}

/** Project `x` onto the domain (in place): each group's block onto its ball. */
export function projectDomain(d: BallDomain, x: Float64Array): void {
  for (let g = 0; g < d.groups; g++) {
    let n2 = 0;
    for (let i = 0; i < d.k; i++) n2 += (x[g * d.k + i]! - d.centre[i]!) ** 2;
    const n = Math.sqrt(n2);
    if (n <= d.rho) continue;
    const f = d.rho / n;
    for (let i = 0; i < d.k; i++) {
      const j = g * d.k + i;
      x[j] = d.centre[i]! + (x[j]! - d.centre[i]!) * f;
    }
  }
}

/** A random domain point: each group uniform on its sphere (`surface`) or in its ball. */
export function randomDomainPoint(d: BallDomain, rng: Rng, surface: boolean): Float64Array {
  const x = new Float64Array(d.k * d.groups);
  for (let g = 0; g < d.groups; g++) {
    let n2 = 0;
    const v = new Float64Array(d.k);
    for (let i = 0; i < d.k; i++) {
      v[i] = rng.normal();
      n2 += v[i]! * v[i]!;
    }
    const r = (surface ? 1 : rng.next() ** (1 / d.k)) * (d.rho / (Math.sqrt(n2) || 1));
    for (let i = 0; i < d.k; i++) x[g * d.k + i] = d.centre[i]! + r * v[i]!;
  }
  return x;
}

/** The domain's centre point (every group at the centre). */
export function domainCentre(d: BallDomain): Float64Array {
  const x = new Float64Array(d.k * d.groups);
  for (let g = 0; g < d.groups; g++) for (let i = 0; i < d.k; i++) x[g * d.k + i] = d.centre[i]!;
  return x;
}

/** Largest t >= 0 with `x + t u` in the domain (u any direction, x inside). */
function chordEnd(d: BallDomain, x: Float64Array, u: Float64Array): number {
  let t = Infinity;
  for (let g = 0; g < d.groups; g++) {
    let uu = 0;
    let xu = 0;
    let xx = 0;
    for (let i = 0; i < d.k; i++) {
      const j = g * d.k + i;
      const y = x[j]! - d.centre[i]!;
      uu += u[j]! * u[j]!;
      xu += y * u[j]!;
      xx += y * y;
    }
    if (uu === 0) continue;
    const disc = xu * xu - uu * (xx - d.rho * d.rho);
    const root = disc > 0 ? (-xu + Math.sqrt(disc)) / uu : 0;
    t = Math.min(t, Math.max(0, root));
  }
  return Number.isFinite(t) ? t : 0;
}

/**
 * Projected gradient ascent of `f` over the domain from `o + rho * gradient direction` (per
 * group): the maximiser when `f` is concave (the papers' metrics), else a stationary point.
 */
export function maximiseOnDomain(d: BallDomain, f: SmoothFunction, steps = 40): Float64Array {
  const x = domainCentre(d);
  const g0 = f.gradient(x);
  let n0 = 0;
  for (const v of g0) n0 += v * v;
  n0 = Math.sqrt(n0);
  if (!(n0 > 0)) return x;
  for (let i = 0; i < x.length; i++) x[i]! += (d.rho * g0[i]!) / n0;
  projectDomain(d, x);
  let step = d.rho / n0;
  let fx = f.value(x);
  for (let s = 0; s < steps; s++) {
    const g = f.gradient(x);
    const y = x.slice();
    for (let i = 0; i < y.length; i++) y[i]! += step * g[i]!;
    projectDomain(d, y);
    const fy = f.value(y);
    if (fy >= fx) {
      let moved = 0;
      for (let i = 0; i < y.length; i++) moved = Math.max(moved, Math.abs(y[i]! - x[i]!));
      x.set(y);
      fx = fy;
      if (moved < 1e-12) break;
      step *= 1.5;
    } else step *= 0.5;
  }
  return x;
}

/**
 * A robust centre of a set of unit directions: the normalised mean of the half closest (by
 * cosine) to the running centre, three times. The engine passes belief draws, the belief's
 * mean and a minority of prior draws; this recovers the belief's centre.
 */
export function robustCentre(ws: readonly Float64Array[]): Float64Array {
  const d = ws[0]!.length;
  const mean = (set: readonly Float64Array[]): Float64Array => {
    const m = new Float64Array(d);
    for (const w of set) for (let i = 0; i < d; i++) m[i]! += w[i]!;
    let n = 0;
    for (let i = 0; i < d; i++) n += m[i]! * m[i]!;
    n = Math.sqrt(n) || 1;
    for (let i = 0; i < d; i++) m[i]! /= n;
    return m;
  };
  let c = mean(ws);
  for (let it = 0; it < 3; it++) {
    const scored = ws.map((w) => {
      let s = 0;
      for (let i = 0; i < d; i++) s += w[i]! * c[i]!;
      return { w, s };
    });
    scored.sort((x, y) => y.s - x.s);
    c = mean(scored.slice(0, Math.max(1, Math.ceil(ws.length / 2))).map((x) => x.w));
  }
  return c;
}

/**
 * Points of the domain on level sets of `f` (the centre metric): `count` random points (half
 * on the spheres, half inside), each moved along its gradient until `f` reaches the level,
 * for levels at the given quantiles of `f` over the random points. Any two points on one
 * level are a tie for the centre metric, so their comparison cuts the belief through its
 * centre (ALGORITHMS.md F) in a direction that varies with the pair.
 */
export function levelSetPoints(
  d: BallDomain,
  f: SmoothFunction,
  rng: Rng,
  count: number,
  quantiles: readonly number[],
): Float64Array[] {
  const starts = Array.from({ length: count }, (_, i) => randomDomainPoint(d, rng, i % 2 === 0));
  const values = starts.map((x) => f.value(x));
  const sorted = [...values].sort((x, y) => x - y);
  const out: Float64Array[] = [];
  for (const q of quantiles) {
    const level = sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    starts.forEach((x, s) => {
      const v0 = values[s]! - level;
      if (v0 === 0) {
        out.push(x);
        return;
      }
      const g = f.gradient(x);
      let n = 0;
      for (const v of g) n += v * v;
      n = Math.sqrt(n);
      if (!(n > 0)) return;
      const u = g.map((v) => ((v0 < 0 ? 1 : -1) * v) / n);
      const tEnd = chordEnd(d, x, u);
      const at = (t: number): Float64Array => x.map((v, i) => v + t * u[i]!);
      if ((f.value(at(tEnd)) - level) * v0 > 0) return;
      let lo = 0;
      let hi = tEnd;
      for (let it = 0; it < 40; it++) {
        const mid = (lo + hi) / 2;
        if ((f.value(at(mid)) - level) * v0 > 0) lo = mid;
        else hi = mid;
      }
      const p = at((lo + hi) / 2);
      projectDomain(d, p);
      out.push(p);
    });
  }
  return out;
}

/** Display key of a vector of rates at precision `step`. */
export function ratesKey(x: ArrayLike<number>, step: number): string {
  return Array.from(x, (v) => Math.round(v / step)).join(",");
}

/** Options of the quadratic family. */
export interface QuadraticFamilyOptions {
  /** Centre o of the query ball (default 1/k each). */
  readonly centre?: readonly number[];
  /** Radius of the query ball (default PAPER_RHO = 0.2). */
  readonly rho?: number;
  /** Precision at which a person sees the rates (default 1e-4). */
  readonly displayStep?: number;
  /**
   * Known signs (default `paper`: a >= 0 and B_ii <= 0, as Definition 3's metrics with
   * non-negative weights on the rates and a negative semidefinite B); `free`: every sign free.
   */
  readonly signs?: "paper" | "free";
  /** Only `diagonal-rates` (the paper's synthetic setting) is supported. */
  readonly space?: "diagonal-rates" | "off-diagonal-rates";
  /** Random level-set starts per question (default 24; two levels). */
  readonly levelPoints?: number;
  /**
   * Optional: the rates a person sees of a point (a study's whole people of 100 per class).
   * Every feature, and so every belief update and the result, and what counts as identical
   * on screen (`displayKey`) are then about the values shown, not the unrounded point.
   */
  readonly shown?: (p: RatePoint) => ArrayLike<number>;
}

/** Index of the pair i < j among the upper-triangle entries (row-major). */
function upperPairs(k: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) out.push([i, j]);
  return out;
}

/**
 * The parameter vector of a quadratic metric: `w = (a, B_ii, sqrt(2) B_ij for i < j)`, so that
 * `|w|^2 = ||a||^2 + ||B||_F^2` (metric.ts's normalisation).
 * @example quadraticToW({ a: [0.6, 0], B: [[0, 0], [0, -0.8]] }) // [0.6, 0, 0, -0.8, 0]
 */
export function quadraticToW(m: QuadraticMetric): Float64Array {
  const k = m.a.length;
  const pairs = upperPairs(k);
  const w = new Float64Array(2 * k + pairs.length);
  for (let i = 0; i < k; i++) {
    w[i] = m.a[i]!;
    w[k + i] = m.B[i]![i]!;
  }
  pairs.forEach(([i, j], p) => {
    w[2 * k + p] = Math.SQRT2 * 0.5 * (m.B[i]![j]! + m.B[j]![i]!);
  });
  return w;
}

/** Inverse of `quadraticToW` (normalised to `||a||^2 + ||B||_F^2 = 1`). */
export function wToQuadratic(w: ArrayLike<number>, k: number): QuadraticMetric {
  let n = 0;
  for (let i = 0; i < w.length; i++) n += w[i]! * w[i]!;
  n = Math.sqrt(n) || 1;
  const a = Array.from({ length: k }, (_, i) => w[i]! / n);
  const B = Array.from({ length: k }, (_, i) =>
    Array.from({ length: k }, (_, j) => (i === j ? w[k + i]! / n : 0)),
  );
  upperPairs(k).forEach(([i, j], p) => {
    const x = w[2 * k + p]! / (Math.SQRT2 * n);
    B[i]![j] = x;
    B[j]![i] = x;
  });
  return { a, B };
}

/** Features `(r, r_i^2 / 2, r_i r_j / sqrt(2))`: `phi(r) = <quadraticToW(m), features(r)>`. */
export function quadraticFeatures(r: ArrayLike<number>): Float64Array {
  const k = r.length;
  const f = new Float64Array(2 * k + (k * (k - 1)) / 2);
  let p = 2 * k;
  for (let i = 0; i < k; i++) {
    f[i] = r[i]!;
    f[k + i] = (r[i]! * r[i]!) / 2;
  }
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) f[p++] = r[i]! * r[j]! * Math.SQRT1_2;
  return f;
}

/** The quadratic metric as a smooth function of the rates (value and gradient a + B r). */
export function quadraticFunction(m: QuadraticMetric): SmoothFunction {
  const k = m.a.length;
  return {
    value: (r) => {
      let v = 0;
      for (let i = 0; i < k; i++) {
        let bi = 0;
        for (let j = 0; j < k; j++) bi += m.B[i]![j]! * r[j]!;
        v += r[i]! * (m.a[i]! + 0.5 * bi);
      }
      return v;
    },
    gradient: (r) => {
      const g = new Float64Array(k);
      for (let i = 0; i < k; i++) {
        let s = m.a[i]!;
        for (let j = 0; j < k; j++) s += m.B[i]![j]! * r[j]!;
        g[i] = s;
      }
      return g;
    },
  };
}

function frobDiff(x: readonly (readonly number[])[], y: readonly (readonly number[])[]): number {
  let s = 0;
  for (let i = 0; i < x.length; i++)
    for (let j = 0; j < x.length; j++) s += (x[i]![j]! - y[i]![j]!) ** 2;
  return Math.sqrt(s);
}

function l2Diff(x: readonly number[], y: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i]! - y[i]!) ** 2;
  return Math.sqrt(s);
}

/**
 * The adaptive family of the UAI 2022 quadratic metric `phi(r) = <a, r> + 1/2 r^T B r` over k
 * diagonal rates, on the paper's synthetic query ball (centre 1/k, radius 0.2; every point
 * feasible, `classifier` null). `w = (a, B_ii, sqrt(2) B_ij)` with features
 * `(r, r_i^2 / 2, r_i r_j / sqrt(2))`, so the unit sphere is `||a||^2 + ||B||_F^2 = 1`.
 * Error (for stopping): `max(||a - a'||_2, ||B - B'||_F)`, so the tolerance bounds both of
 * metric.ts's `quadraticError` parts. Candidates: the maximiser over the ball of every drawn
 * metric, the points of the sphere along its gradient at o, points on two level sets of the
 * belief's centre metric (ties for it: cuts through the belief's centre) and a few random
 * points of the sphere.
 * @example adaptiveProcedure(quadraticFamily(3), { tolerance: 0.01, model: "exact", budget: 400 })
 */
export function quadraticFamily(
  k: number,
  o: QuadraticFamilyOptions = {},
): AdaptiveFamily<RatePoint, QuadraticMetric> {
  if (o.space === "off-diagonal-rates") {
    throw new UnsupportedFamilyError(
      "quadratic: the adaptive family covers diagonal rates only (off-diagonal rates are not implemented)",
    );
  }
  if (!(Number.isInteger(k) && k >= 2)) throw new RangeError("quadratic: need k >= 2 classes");
  const centre = o.centre ? [...o.centre] : new Array<number>(k).fill(1 / k);
  if (centre.length !== k) throw new RangeError(`quadratic: the centre must have ${k} entries`);
  const rho = o.rho ?? PAPER_RHO;
  if (!(rho > 0)) throw new RangeError("quadratic: rho must be positive");
  const step = o.displayStep ?? 1e-4;
  const levelCount = o.levelPoints ?? 24;
  const domain: BallDomain = { k, groups: 1, centre, rho };
  const pairs = upperPairs(k);
  const dim = 2 * k + pairs.length;
  const paperSigns = (o.signs ?? "paper") === "paper";
  const signs = Array.from({ length: dim }, (_, i) =>
    paperSigns ? (i < k ? 1 : i < 2 * k ? -1 : 0) : 0,
  );
  const names = [
    ...Array.from({ length: k }, (_, i) => `a${i + 1}`),
    ...Array.from({ length: k }, (_, i) => `B${i + 1}${i + 1}`),
    ...pairs.map(([i, j]) => `B${i + 1}${j + 1}`),
  ];
  const point = (x: Float64Array): RatePoint => ({ point: x, classifier: null });
  const seen = o.shown ?? ((p: RatePoint) => p.point);
  const toMetric = (w: Float64Array) => wToQuadratic(w, k);
  const optimal = (w: Float64Array): RatePoint =>
    point(maximiseOnDomain(domain, quadraticFunction(toMetric(w))));
  return {
    name: "quadratic",
    dim,
    signs,
    // Noise-free, 30 truths on the paper's sphere: "spread" asks 39.6 / 81.0 / 133.6 / 200.5
    // questions for k = 2..5 against "split"'s 40 (its budget) / 89.1 / 151.9 / 229.4; its cuts
    // across the widest extent need 2 dim sweeps of moves per answer to keep the region honest
    // (dim sweeps: 93 / 83 / 90 / 80% coverage; 2 dim: 93 / 90 / 90 / 93%).
    cutBy: "spread",
    exactMoves: 2 * dim,
    errorName: "max(||a - a'||_2, ||B - B'||_F)",
    coordinateNames: names,
    features: (p) => quadraticFeatures(seen(p)),
    candidates: (ws, rng) => {
      const out: RatePoint[] = [];
      for (const w of ws) {
        const f = quadraticFunction(toMetric(w));
        out.push(point(maximiseOnDomain(domain, f)));
        const g = f.gradient(Float64Array.from(centre));
        let n = 0;
        for (const v of g) n += v * v;
        n = Math.sqrt(n);
        if (n > 0) out.push(point(Float64Array.from(centre, (c, i) => c + (rho * g[i]!) / n)));
      }
      const c = quadraticFunction(toMetric(robustCentre(ws)));
      for (const x of levelSetPoints(domain, c, rng, levelCount, [0.3, 0.7])) out.push(point(x));
      for (let s = 0; s < 4; s++) out.push(point(randomDomainPoint(domain, rng, true)));
      return out;
    },
    displayKey: (p) => ratesKey(seen(p), step),
    optimal,
    toMetric,
    error: (x, y) => Math.max(l2Diff(x.a, y.a), frobDiff(x.B, y.B)),
    coordinates: (m) => [
      ...m.a,
      ...m.B.map((row, i) => row[i]!),
      ...pairs.map(([i, j]) => m.B[i]![j]!),
    ],
  };
}
